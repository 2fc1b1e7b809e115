package io.queuelab.core.summary;

import org.HdrHistogram.Histogram;

/**
 * Response, service and client-queue time of successful requests, each in an HdrHistogram of
 * nanoseconds (3 significant digits, so percentiles are exact to 0.1 %). Mergeable: percentiles
 * of several groups come from {@link #add(LatencyStats)}, never from averaging.
 */
public final class LatencyStats {
    public final Histogram response = newHistogram();
    public final Histogram service = newHistogram();
    public final Histogram queue = newHistogram();

    static Histogram newHistogram() {
        Histogram h = new Histogram(3);
        h.setAutoResize(true);
        return h;
    }

    void record(long responseNanos, long serviceNanos, long queueNanos) {
        response.recordValue(Math.max(0, responseNanos));
        if (serviceNanos >= 0) {
            service.recordValue(serviceNanos);
        }
        if (queueNanos >= 0) {
            queue.recordValue(queueNanos);
        }
    }

    public void add(LatencyStats other) {
        response.add(other.response);
        service.add(other.service);
        queue.add(other.queue);
    }
}
