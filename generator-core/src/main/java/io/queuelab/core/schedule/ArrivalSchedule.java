package io.queuelab.core.schedule;

/**
 * Gaps between intended arrival instants. The driver adds each gap to the previous intended
 * instant (t_i = t_(i-1) + gap), so the schedule is absolute: a late dispatch never shifts the
 * instants that follow it.
 */
public interface ArrivalSchedule {

    /** The next inter-arrival gap in nanoseconds (fractional, so sums do not drift). */
    double nextGapNanos();

    /** The mean arrival rate per second. */
    double rate();

    /** True when the gaps are Exp(rate), i.e. the arrivals a Poisson process. */
    boolean poisson();
}
