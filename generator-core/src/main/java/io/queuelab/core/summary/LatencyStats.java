package io.queuelab.core.summary;

import org.HdrHistogram.Histogram;

/**
 * Response, service and client-queue time of successful requests, each in an HdrHistogram of
 * nanoseconds (3 significant digits, so percentiles are exact to 0.1 %) beside its exact sum, so
 * the mean is exact. Mergeable: percentiles of several groups come from {@link #add(LatencyStats)},
 * never from averaging.
 */
public final class LatencyStats {
    public final Histogram response = newHistogram();
    public final Histogram service = newHistogram();
    public final Histogram queue = newHistogram();
    private double responseSum;
    private double serviceSum;
    private double queueSum;

    static Histogram newHistogram() {
        Histogram h = new Histogram(3);
        h.setAutoResize(true);
        return h;
    }

    /**
     * One successful request: its response time (a negative one, from clocks a few ns apart,
     * counts as 0), and its service and queue times where known ({@code -1} when not, or negative).
     */
    void record(long responseNanos, long serviceNanos, long queueNanos) {
        long clamped = Math.max(0, responseNanos);
        response.recordValue(clamped);
        responseSum += clamped;
        if (serviceNanos >= 0) {
            service.recordValue(serviceNanos);
            serviceSum += serviceNanos;
        }
        if (queueNanos >= 0) {
            queue.recordValue(queueNanos);
            queueSum += queueNanos;
        }
    }

    public void add(LatencyStats other) {
        response.add(other.response);
        service.add(other.service);
        queue.add(other.queue);
        responseSum += other.responseSum;
        serviceSum += other.serviceSum;
        queueSum += other.queueSum;
    }

    /** Exact mean response time in ns (from the sum, not the histogram); NaN without requests. */
    public double meanResponseNanos() {
        return mean(responseSum, response);
    }

    /** Exact mean service time in ns of the requests whose send instant is known; NaN without any. */
    public double meanServiceNanos() {
        return mean(serviceSum, service);
    }

    /** Exact mean client queue wait in ns of the requests whose send instant is known; NaN without any. */
    public double meanQueueNanos() {
        return mean(queueSum, queue);
    }

    private static double mean(double sum, Histogram h) {
        return h.getTotalCount() == 0 ? Double.NaN : sum / h.getTotalCount();
    }
}
