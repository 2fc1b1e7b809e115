package io.queuelab.core.manifest;

import java.util.List;
import java.util.Map;

/**
 * The manifest's {@code simulation} section, in a simulated run: the estimates over all
 * replications, written before the manifest is marked complete. Times in seconds.
 *
 * @param replicationsRun           replications run
 * @param customers                 answered requests outside warm-up, all replications
 * @param dropped                   requests refused by a load-dependent server at capacity
 * @param confidence                the intervals' confidence level
 * @param responseQuantilesSeconds  {@code p50}, {@code p90}, {@code p99}, {@code p99.9}
 * @param flushPeriodSeconds        a dpb run's time between flushes; null otherwise
 * @param flushDurationSeconds      a dpb run's flush duration; null otherwise
 * @param warmup                    per replication, the warm-up MSER-5 deleted
 */
public record SimulationOutcome(int replicationsRun, long customers, long dropped, double confidence,
                                Interval meanResponseSeconds, Map<String, Interval> responseQuantilesSeconds,
                                Interval throughputPerSecond, Interval meanPopulation, Interval flushPeriodSeconds,
                                Interval flushDurationSeconds, List<WarmupCut> warmup) {

    /**
     * An estimate with its confidence interval.
     *
     * @param value     the mean over replications; null when not finite
     * @param halfWidth the interval's half-width; null when not finite (fewer than 2 replications)
     * @param samples   the replications it is estimated from
     */
    public record Interval(Double value, Double halfWidth, long samples) {
    }

    /**
     * @param deletedCustomers answered requests deleted as warm-up
     * @param endNanos         the warm-up's end, ns of simulated time
     */
    public record WarmupCut(int replication, long deletedCustomers, long endNanos) {
    }
}
