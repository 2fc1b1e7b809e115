package io.queuelab.core.run;

import org.HdrHistogram.Histogram;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * What the generator thread observes of its own timing, for the self-check: the schedule lag
 * (dispatch - intended) of every request outside warm-up, and per phase the number dispatched and a uniform
 * sample (reservoir, Algorithm R) of the realized gaps between consecutive dispatches. Owned by
 * the generator thread alone.
 */
final class ArrivalRecorder {
    static final int GAP_SAMPLE = 20_000;

    final Histogram lag = new Histogram(3_600_000_000_000L, 3);
    private final long[] dispatched;
    private final double[][] gaps;
    private final long[] gapsSeen;
    private final SplittableRandom random;
    private long previousDispatch = Long.MIN_VALUE;
    private int previousPhase = -1;

    ArrivalRecorder(int phases, long seed) {
        dispatched = new long[phases];
        gaps = new double[phases][];
        gapsSeen = new long[phases];
        random = new SplittableRandom(seed);
    }

    /** Records one dispatch; the lag of warm-up phases is left out (it is the JIT's, not the run's). */
    void dispatched(int phase, boolean warmup, long intended, long now) {
        if (!warmup) {
            lag.recordValue(Math.max(0, now - intended));
        }
        dispatched[phase]++;
        if (phase == previousPhase) {
            sampleGap(phase, now - previousDispatch);
        }
        previousPhase = phase;
        previousDispatch = now;
    }

    private void sampleGap(int phase, long gapNanos) {
        if (gaps[phase] == null) {
            gaps[phase] = new double[GAP_SAMPLE];
        }
        long seen = gapsSeen[phase]++;
        if (seen < GAP_SAMPLE) {
            gaps[phase][(int) seen] = gapNanos / 1e9;
        } else {
            long j = random.nextLong(seen + 1);
            if (j < GAP_SAMPLE) {
                gaps[phase][(int) j] = gapNanos / 1e9;
            }
        }
    }

    long dispatched(int phase) {
        return dispatched[phase];
    }

    /** The sampled realized gaps of a phase, in seconds. */
    double[] gapSample(int phase) {
        if (gaps[phase] == null) {
            return new double[0];
        }
        return Arrays.copyOf(gaps[phase], (int) Math.min(GAP_SAMPLE, gapsSeen[phase]));
    }
}
