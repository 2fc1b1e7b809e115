package io.queuelab.fit;

import io.queuelab.fit.runs.DepartureGaps;
import io.queuelab.fit.runs.RunData;

/**
 * Finds the flushes of the dirty-page buffer in a run (seed 004, section 4.2): pauses in the
 * departures longer than a threshold, each ending with a response-time spike (the request that
 * departs after the pause waited through at least half of it, which an idle server's gap never
 * shows).
 *
 * <p>The threshold min(T_pause) comes from the run's own busy gaps (gaps the server worked
 * through, {@link DepartureGaps#busyGapsMicros()}): ordinary busy gaps are processing times,
 * roughly exponential with mean m = median / ln 2, and the threshold is the gap that fewer than
 * {@link #FALSE_FLUSHES} of them are expected to exceed: m ln(busy gaps / FALSE_FLUSHES). Idle
 * time never enters it, so an open run and a closed run of the same server get the same
 * threshold, and a run gets the same flushes whatever other runs it is analysed with: the report
 * and {@code fit dpb} give one answer.
 */
public final class FlushDetector {
    /** Expected number of ordinary gaps above the threshold in a whole run. */
    public static final double FALSE_FLUSHES = 0.05;
    /** The request closing a pause must have waited at least this fraction of it. */
    public static final double SPIKE_FRACTION = 0.5;

    private FlushDetector() {
    }

    /** min(T_pause) from the run's own busy gaps. */
    public static double threshold(RunData run) {
        DepartureGaps gaps = run.departureGaps();
        long n = gaps.busyGapsMicros().getTotalCount();
        if (n < 100) {
            throw new IllegalArgumentException("run " + run.name() + " has too few departures in busy periods (" + n
                    + ") to find flushes");
        }
        double median = gaps.busyGapsMicros().getValueAtPercentile(50) / 1e6;
        double mean = median / Math.log(2);
        return Math.max(mean * Math.log(n / FALSE_FLUSHES), gaps.longGapFloorSeconds());
    }

    /** Flushes of a run, with its own threshold. */
    public static Flushes detect(RunData run) {
        return detect(run, threshold(run));
    }

    /** Flushes of a run: gaps longer than {@code thresholdSeconds} that end with a spike. */
    public static Flushes detect(RunData run, double thresholdSeconds) {
        DepartureGaps gaps = run.departureGaps();
        if (thresholdSeconds < gaps.longGapFloorSeconds()) {
            throw new IllegalArgumentException("threshold " + thresholdSeconds + " s is below the shortest gap kept ("
                    + gaps.longGapFloorSeconds() + " s) in " + run.name());
        }
        double[] starts = new double[gaps.longGapCount()];
        double[] pauses = new double[gaps.longGapCount()];
        int k = 0;
        for (int i = 0; i < gaps.longGapCount(); i++) {
            double gap = gaps.longGapSeconds(i);
            if (gap > thresholdSeconds && gaps.longGapClosingResponseSeconds(i) >= SPIKE_FRACTION * gap) {
                starts[k] = gaps.longGapStartSeconds(i);
                pauses[k] = gap;
                k++;
            }
        }
        return new Flushes(thresholdSeconds, java.util.Arrays.copyOf(starts, k), java.util.Arrays.copyOf(pauses, k));
    }
}
