package io.queuelab.core.run;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Snapshot;
import io.queuelab.core.log.LogFormat;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * The run's live metrics in a Dropwizard {@link MetricRegistry}: counters of completions, errors
 * and drops, gauges of requests in flight and queued, and the response time (from the intended
 * instant) in an HdrHistogram-backed histogram, so interval percentiles are exact. Only the logger
 * thread updates them; a reporter prints one progress line per interval.
 */
public final class LiveMetrics {
    private final MetricRegistry registry = new MetricRegistry();
    private final Counter completed = registry.counter("requests.ok");
    private final Counter errors = registry.counter("requests.errors");
    private final Counter dropped = registry.counter("requests.dropped");
    /** Response times of ok requests; kept beside the registry, whose Histogram would count each value atomically. */
    private final HdrHistogramReservoir response = new HdrHistogramReservoir();
    // the logger's counts since its last publish(): plain fields, as only it updates them
    private long completedUnpublished;
    private long errorsUnpublished;
    private long droppedUnpublished;
    private ScheduledExecutorService reporter;

    public MetricRegistry registry() {
        return registry;
    }

    /** Counts one logged request; the counters see it at the next {@link #publish()}. Logger thread only. */
    void logged(Request r, int outcome) {
        if (outcome == LogFormat.OK) {
            completedUnpublished++;
            response.update(r.completed - r.intended);
        } else if (outcome == LogFormat.DROPPED) {
            droppedUnpublished++;
        } else if (outcome >= LogFormat.FIRST_ERROR) {
            errorsUnpublished++;
        }
    }

    /**
     * Adds the requests counted since the last call to the registry's counters. The logger calls it
     * after each batch: one atomic add per counter and batch rather than per request, and a
     * progress line is at most one batch behind.
     */
    void publish() {
        completed.inc(completedUnpublished);
        errors.inc(errorsUnpublished);
        dropped.inc(droppedUnpublished);
        completedUnpublished = 0;
        errorsUnpublished = 0;
        droppedUnpublished = 0;
    }

    void gauges(IntSupplier inFlight, IntSupplier queued) {
        registry.register("requests.inFlight", (Gauge<Integer>) inFlight::getAsInt);
        registry.register("queue.length", (Gauge<Integer>) queued::getAsInt);
    }

    /**
     * Starts a progress line every {@code intervalNanos}: elapsed time, target and achieved rate,
     * in flight, queue length, interval p50/p99 of response time, errors and dropped. On a terminal
     * a progress bar leads the line.
     *
     * @param elapsedNanos ns since the schedule started
     * @param targetRate   the current phase's target rate (0 in a closed run)
     */
    void startReporter(PrintStream out, long intervalNanos, long totalNanos, LongSupplier elapsedNanos,
                       java.util.function.DoubleSupplier targetRate) {
        if (intervalNanos <= 0 || out == null) {
            return;
        }
        boolean terminal = System.console() != null;
        reporter = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "queuelab-progress");
            t.setDaemon(true);
            return t;
        });
        long[] last = {0, 0};
        reporter.scheduleAtFixedRate(() -> {
            long elapsed = Math.max(0, elapsedNanos.getAsLong());
            long done = completed.getCount() + errors.getCount();
            double achieved = (done - last[1]) * 1e9 / Math.max(1, elapsed - last[0]);
            last[0] = elapsed;
            last[1] = done;
            Snapshot s = response.getSnapshot();
            String bar = "";
            if (terminal && totalNanos > 0) {
                int filled = (int) Math.min(20, 20 * elapsed / totalNanos);
                bar = "[" + "#".repeat(filled) + "-".repeat(20 - filled) + "] ";
            }
            out.println(String.format(Locale.ROOT,
                    "%s%7.1fs target %.1f/s achieved %.1f/s in-flight %s queue %s p50 %s p99 %s errors %d dropped %d",
                    bar, elapsed / 1e9, targetRate.getAsDouble(), achieved,
                    registry.getGauges().get("requests.inFlight").getValue(),
                    registry.getGauges().get("queue.length").getValue(),
                    // no percentile before the first success (an empty histogram would say 0ns)
                    s.size() == 0 ? "-" : Durations.format(s.getMedian()),
                    s.size() == 0 ? "-" : Durations.format(s.get99thPercentile()),
                    errors.getCount(), dropped.getCount()));
        }, intervalNanos, intervalNanos, TimeUnit.NANOSECONDS);
    }

    void stopReporter() {
        if (reporter != null) {
            reporter.shutdownNow();
        }
    }
}
