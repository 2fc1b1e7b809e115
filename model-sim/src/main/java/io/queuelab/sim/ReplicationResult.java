package io.queuelab.sim;

import org.HdrHistogram.Histogram;

/**
 * What one replication measured after its warm-up was removed.
 *
 * @param index            replication number (0-based); its streams come from the index-th nextLong() of new SplittableRandom(seed)
 * @param customers        answered requests counted (after warm-up)
 * @param warmupCustomers  answered requests deleted as warm-up (MSER-5)
 * @param warmupEnd        simulated instant (seconds) where the counted part begins
 * @param end              simulated instant (seconds) the observation ends: the last departure, or
 *                         the run's duration when that is later
 * @param dropped          requests refused by a full server (load-dependent model only)
 * @param meanResponse     mean response time, seconds
 * @param batchMeans       batch-means confidence interval of the mean response (up to 20 batches; when
 *                         the buffer flushes, each spans at least 10 flush cycles; NaN if fewer than 2 fit)
 * @param throughput       answered requests per second over [warmupEnd, end]
 * @param meanPopulation   time-average number of requests in the system (Little: total sojourn / span)
 * @param responseTimes    response times in nanoseconds
 * @param flushes          the flushes of the dirty-page buffer, or null for other models
 */
public record ReplicationResult(int index, long customers, long warmupCustomers, double warmupEnd, double end,
                                long dropped, double meanResponse, Estimate batchMeans, double throughput,
                                double meanPopulation, Histogram responseTimes, FlushSummary flushes) {

    /** The q-quantile (0..1) of the response time, seconds. */
    public double quantile(double q) {
        return responseTimes.getValueAtPercentile(q * 100) / 1e9;
    }
}
