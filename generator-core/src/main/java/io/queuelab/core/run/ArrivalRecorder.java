package io.queuelab.core.run;

import org.HdrHistogram.Histogram;

import java.util.SplittableRandom;

/**
 * What the generator thread observes of its own timing, for the self-check: the schedule lag
 * (dispatch - intended) of every request outside warm-up, and per phase the number dispatched and a uniform
 * sample (reservoir, Algorithm R) of the realized gaps between consecutive dispatches. Owned by
 * the generator thread alone.
 */
final class ArrivalRecorder {
    final Histogram lag = new Histogram(3_600_000_000_000L, 3);
    private final long[] dispatched;
    private final GapSample[] gaps;
    private long previousDispatch = Long.MIN_VALUE;
    private int previousPhase = -1;

    ArrivalRecorder(int phases, long seed) {
        dispatched = new long[phases];
        gaps = new GapSample[phases];
        SplittableRandom random = new SplittableRandom(seed);
        for (int p = 0; p < phases; p++) {
            gaps[p] = new GapSample(random);
        }
    }

    /** Records one dispatch; the lag of warm-up phases is left out (it is the JIT's, not the run's). */
    void dispatched(int phase, boolean warmup, long intended, long now) {
        if (!warmup) {
            lag.recordValue(Math.max(0, now - intended));
        }
        dispatched[phase]++;
        if (phase == previousPhase) {
            gaps[phase].add(now - previousDispatch);
        }
        previousPhase = phase;
        previousDispatch = now;
    }

    long dispatched(int phase) {
        return dispatched[phase];
    }

    /** The sampled realized gaps of a phase, in seconds. */
    double[] gapSample(int phase) {
        return gaps[phase].values();
    }
}
