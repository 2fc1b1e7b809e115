package io.queuelab.core.schedule;

/** Deterministic arrivals: every gap is exactly 1/rate (for comparison with Poisson load). */
public final class ConstantRateSchedule implements ArrivalSchedule {
    private final double rate;
    private final double gapNanos;

    public ConstantRateSchedule(double ratePerSecond) {
        this.rate = ScheduleChecks.positiveRate(ratePerSecond);
        this.gapNanos = 1e9 / ratePerSecond;
    }

    @Override
    public double nextGapNanos() {
        return gapNanos;
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
