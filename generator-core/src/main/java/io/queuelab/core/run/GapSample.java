package io.queuelab.core.run;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A uniform sample (reservoir, Algorithm R) of at most {@value #CAPACITY} inter-arrival gaps, in
 * seconds, for the self-check's KS test against Exp(rate): enough gaps to see a distorted
 * schedule, few enough that the test's cost and memory stay fixed however long the phase.
 * Not thread-safe.
 */
public final class GapSample {
    public static final int CAPACITY = 20_000;

    private final SplittableRandom random;
    private double[] gaps;
    private long seen;

    /** A sample drawing its replacements from {@code random} (which samples may share). */
    public GapSample(SplittableRandom random) {
        this.random = random;
    }

    public void add(long gapNanos) {
        if (gaps == null) {
            gaps = new double[CAPACITY];
        }
        long index = seen < CAPACITY ? seen : random.nextLong(seen + 1);
        seen++;
        if (index < CAPACITY) {
            gaps[(int) index] = gapNanos / 1e9;
        }
    }

    /** The sampled gaps, in seconds. */
    public double[] values() {
        return gaps == null ? new double[0] : Arrays.copyOf(gaps, (int) Math.min(CAPACITY, seen));
    }
}
