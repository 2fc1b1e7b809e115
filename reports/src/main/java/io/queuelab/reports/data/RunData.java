package io.queuelab.reports.data;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.manifest.Manifest;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Everything the analyses need from one run, read in one streaming pass in memory bounded
 * independently of the log's length: counts, an HdrHistogram of response times (ns, 3
 * significant digits), the exact mean, per-interval series, departure gaps and a thinned sample
 * of points for plots. Warm-up records are excluded (counted in {@link #warmupCount()}); only
 * successful requests enter the latency statistics, the others are counted by outcome name.
 */
public final class RunData {
    /** The default interval of the per-interval series. */
    public static final long DEFAULT_INTERVAL_NANOS = 1_000_000_000L;

    private final Path source;
    private final Manifest manifest;
    private final Histogram responseNanos = new Histogram(3);
    private final Histogram serviceNanos = new Histogram(3);
    private final IntervalSeries series;
    private final DepartureGaps gaps = new DepartureGaps();
    private final ResponseSample sample = new ResponseSample();
    private final Map<String, Long> notOk = new TreeMap<>();
    private long records;
    private long warmup;
    private long arrivals;
    private long ok;
    private double responseSumNanos;
    private long firstIntended = Long.MAX_VALUE;
    private long lastIntended = Long.MIN_VALUE;
    private long lastCompleted = Long.MIN_VALUE;
    private double inFlightNanos;

    private RunData(Path source, Manifest manifest, long intervalNanos) {
        this.source = source;
        this.manifest = manifest;
        this.series = new IntervalSeries(intervalNanos);
    }

    /** Reads a run directory, request log or CSV request log with 1-second intervals. */
    public static RunData read(Path path) throws IOException {
        return read(path, DEFAULT_INTERVAL_NANOS);
    }

    public static RunData read(Path path, long intervalNanos) throws IOException {
        Manifest manifest = null;
        if (Files.isDirectory(path) && Files.isRegularFile(path.resolve(Manifest.FILE_NAME))) {
            manifest = Manifest.read(path);
        }
        RunData data = new RunData(path, manifest, intervalNanos);
        try (RequestSource in = RequestSource.open(path)) {
            while (in.next()) {
                data.add(in);
            }
        }
        data.gaps.finish();
        return data;
    }

    private void add(RequestSource r) {
        records++;
        if (r.warmup()) {
            warmup++;
            return;
        }
        long intended = r.intended();
        long completed = r.completed();
        int outcome = r.outcome();
        if (intended != LogFormat.NONE) {
            arrivals++;
            firstIntended = Math.min(firstIntended, intended);
            lastIntended = Math.max(lastIntended, intended);
            series.arrival(intended);
        }
        if (completed != LogFormat.NONE) {
            lastCompleted = Math.max(lastCompleted, completed);
        }
        if (outcome != LogFormat.OK || completed == LogFormat.NONE || intended == LogFormat.NONE) {
            notOk.merge(r.outcomeName(outcome), 1L, Long::sum);
            return;
        }
        long response = Math.max(0, completed - intended);
        ok++;
        responseSumNanos += response;
        responseNanos.recordValue(response);
        long sent = r.sent();
        if (sent != LogFormat.NONE && completed >= sent) {
            serviceNanos.recordValue(completed - sent);
        }
        series.completion(completed, response);
        series.presence(intended, completed);
        inFlightNanos += response;
        gaps.departure(completed, response);
        sample.offer(completed, response);
    }

    /** The run directory or log file this was read from. */
    public Path source() {
        return source;
    }

    /**
     * A short name for tables: the directory or file name, after its sweep's name when it is a run
     * of a sweep (so rate-100 of two sweeps stays two names: select/rate-100, update/rate-100).
     */
    public String name() {
        Path file = source.getFileName();
        if (file == null) {
            return source.toString();
        }
        Path parent = source.toAbsolutePath().getParent();
        if (parent != null && parent.getFileName() != null && java.nio.file.Files.exists(parent.resolve("sweep.json"))) {
            return parent.getFileName() + "/" + file;
        }
        return file.toString();
    }

    /** The run's manifest; empty for a run without one (a CSV log). */
    public Optional<Manifest> manifest() {
        return Optional.ofNullable(manifest);
    }

    /** "measured" or "simulated" from the manifest; "measured" without one. */
    public String kind() {
        return manifest == null ? Manifest.MEASURED : manifest.kind();
    }

    public boolean simulated() {
        return kind().equals("simulated");
    }

    /** Every record of the log, warm-up included. */
    public long records() {
        return records;
    }

    public long warmupCount() {
        return warmup;
    }

    /** Requests after warm-up with a scheduled instant (whatever their outcome). */
    public long arrivals() {
        return arrivals;
    }

    /** Successful requests after warm-up: the population of the latency statistics. */
    public long okCount() {
        return ok;
    }

    /** Requests after warm-up that did not succeed, by outcome name (dropped, unfinished, errors). */
    public Map<String, Long> notOkByOutcome() {
        return Map.copyOf(notOk);
    }

    public long notOkCount() {
        return notOk.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Response times of the successful requests, ns. */
    public Histogram responseNanos() {
        return responseNanos;
    }

    /** Service times (completed - sent) where the log knows the send instant, ns. */
    public Histogram serviceNanos() {
        return serviceNanos;
    }

    /** Exact mean response time in seconds (from the sum, not the histogram). */
    public double meanResponseSeconds() {
        return ok == 0 ? Double.NaN : responseSumNanos / ok / 1e9;
    }

    /** Response-time quantile in seconds (q in [0, 1]) from the histogram. */
    public double quantileSeconds(double q) {
        return responseNanos.getValueAtPercentile(q * 100) / 1e9;
    }

    /** Length of the run in seconds: first scheduled instant to last completion. */
    public double spanSeconds() {
        if (arrivals == 0) {
            return 0;
        }
        return (Math.max(lastCompleted, lastIntended) - firstIntended) / 1e9;
    }

    /** Arrival rate: arrivals over the span of scheduled instants, per second. */
    public double arrivalRate() {
        double span = (lastIntended - firstIntended) / 1e9;
        return arrivals < 2 || span <= 0 ? Double.NaN : (arrivals - 1) / span;
    }

    /** Throughput: successful completions per second over the run's span. */
    public double throughput() {
        double span = spanSeconds();
        return span <= 0 ? Double.NaN : ok / span;
    }

    /** Time-average number of successful requests in the system over the run's span (N of a closed run). */
    public double meanInFlight() {
        double span = spanSeconds();
        return span <= 0 ? Double.NaN : inFlightNanos / 1e9 / span;
    }

    public IntervalSeries series() {
        return series;
    }

    public DepartureGaps departureGaps() {
        return gaps;
    }

    public ResponseSample sample() {
        return sample;
    }

    /** Merges response-time histograms: merged percentiles come from here, never from averages. */
    public static Histogram mergedResponseNanos(Collection<RunData> runs) {
        Histogram merged = new Histogram(3);
        for (RunData run : runs) {
            merged.add(run.responseNanos);
        }
        return merged;
    }
}
