package io.queuelab.core.schedule;

/**
 * The intended arrival instants of one phase, as offsets from the phase's start. Each offset is
 * absolute (a Poisson schedule's t_i = t_(i-1) + gap, a constant one's k / rate), so a late
 * dispatch never shifts the instants that follow it.
 */
public interface ArrivalSchedule {

    /** The next arrival's instant in nanoseconds after the phase's start (fractional, so sums do not drift). */
    double nextOffsetNanos();

    /** The mean arrival rate per second. */
    double rate();

    /** True when the gaps are Exp(rate), i.e. the arrivals a Poisson process. */
    boolean poisson();
}
