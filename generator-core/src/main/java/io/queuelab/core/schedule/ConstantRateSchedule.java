package io.queuelab.core.schedule;

/**
 * Deterministic arrivals (for comparison with Poisson load): arrival k of a phase (k = 0, 1, ...)
 * at exactly k / rate after the phase's start. The first is at the start itself, so a phase of
 * duration d holds rate x d arrivals when that is whole, and consecutive phases (a warm-up and the
 * phase after it) keep the grid without losing the instant at their boundary. Each offset is
 * computed from k, not summed from gaps, so rounding never adds or drops an arrival at a phase's end.
 */
public final class ConstantRateSchedule implements ArrivalSchedule {
    private final double rate;
    private long index;

    public ConstantRateSchedule(double ratePerSecond) {
        this.rate = ScheduleChecks.positiveRate(ratePerSecond);
    }

    @Override
    public double nextOffsetNanos() {
        return index++ * 1e9 / rate;
    }

    @Override
    public double rate() {
        return rate;
    }

    @Override
    public boolean poisson() {
        return false;
    }
}
