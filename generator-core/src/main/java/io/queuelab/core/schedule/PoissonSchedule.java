package io.queuelab.core.schedule;

import java.util.SplittableRandom;

/** Poisson arrivals: independent Exp(rate) gaps drawn from a seeded stream, the first one from the phase's start. */
public final class PoissonSchedule implements ArrivalSchedule {
    private final double rate;
    private final double meanGapNanos;
    private final SplittableRandom random;
    private double offset;

    public PoissonSchedule(double ratePerSecond, SplittableRandom random) {
        this.rate = ScheduleChecks.positiveRate(ratePerSecond);
        this.meanGapNanos = 1e9 / ratePerSecond;
        this.random = random;
    }

    @Override
    public double nextOffsetNanos() {
        // 1 - u lies in (0, 1], so the logarithm is finite
        offset += -Math.log(1.0 - random.nextDouble()) * meanGapNanos;
        return offset;
    }

    @Override
    public double rate() {
        return rate;
    }

    @Override
    public boolean poisson() {
        return true;
    }
}
