package io.queuelab.fit.runs;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.telemetry.CpuSpeed;
import io.queuelab.core.telemetry.CpuSpeedProbe;
import io.queuelab.core.summary.RunSummary;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything the analyses need from one run, read in one streaming pass in memory bounded
 * independently of the log's length: the run's figures as {@link RunSummary} defines them (counts,
 * rates, latency histograms, exact means: the same figures {@code queuelab summary} prints), the
 * per-interval series, departure gaps, a thinned sample of points for plots, and the span of each
 * phase that {@link SteadyState} cuts into windows. Warm-up records are excluded (counted in
 * {@link #warmupCount()}); only successful requests enter the latency statistics, the others are
 * counted by outcome name.
 */
public final class RunData {
    /** The default interval of the per-interval series. */
    public static final long DEFAULT_INTERVAL_NANOS = 1_000_000_000L;

    private final Path source;
    private final Manifest manifest;
    private final RunSummary.Accumulator figures = new RunSummary.Accumulator();
    private RunSummary summary;
    private List<String> logProblems = List.of();
    private final IntervalSeries series;
    private final DepartureGaps gaps = new DepartureGaps();
    private final ResponseSample sample = new ResponseSample();
    private final SteadyState.Spans phaseSpans = new SteadyState.Spans();
    /** Read from the run's files on first use: every prediction and table of the run asks for them. */
    private Optional<CpuSpeed> cpuSpeed;
    private ServerWork serverWork;
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
            data.summary = data.figures.finish(in::operationName, in::outcomeName);
            // the count a complete run's manifest gives: a log that holds fewer was cut
            long expected = manifest != null && manifest.complete() ? manifest.totals().map(io.queuelab.core.run.LogTotals::scheduled)
                    .orElse(-1L) : -1;
            data.logProblems = List.copyOf(in.problems(expected));
        }
        data.gaps.finish();
        return data;
    }

    private void add(RequestSource r) {
        long intended = r.intended();
        long completed = r.completed();
        int outcome = r.outcome();
        figures.add(intended, r.sent(), completed, r.operation(), outcome, r.warmup());
        phaseSpans.add(r);
        if (r.warmup()) {
            return;
        }
        if (intended != LogFormat.NONE) {
            series.arrival(intended);
        }
        if (outcome != LogFormat.OK || completed == LogFormat.NONE || intended == LogFormat.NONE) {
            return;
        }
        long response = Math.max(0, completed - intended);
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

    /**
     * The run's self-check failure that names the server's saturation
     * ({@link io.queuelab.core.run.SelfCheck#SERVER_SATURATED}), if any: the run measured a growing
     * queue, not a steady state at its rate. Empty for a run without a self-check (a CSV log).
     */
    public Optional<String> serverSaturation() {
        return manifest().flatMap(Manifest::selfCheck).flatMap(io.queuelab.core.run.SelfCheck::serverSaturation);
    }

    /**
     * The speed of the server's own cpus while the run measured ({@link CpuSpeed}, outside warm-up),
     * when they were probed: a run directory with {@value CpuSpeedProbe#FILE_NAME}.
     */
    public synchronized Optional<CpuSpeed> cpuSpeed() throws IOException {
        if (cpuSpeed == null) {
            cpuSpeed = java.nio.file.Files.isDirectory(source) ? CpuSpeed.read(source, manifest()) : Optional.empty();
        }
        return cpuSpeed;
    }

    /** The run's server measured apart from its response times ({@link ServerWork}), read once. */
    public synchronized ServerWork serverWork() throws IOException {
        if (serverWork == null) {
            serverWork = ServerWork.of(this);
        }
        return serverWork;
    }

    /** "measured" or "simulated" from the manifest; "measured" without one. */
    public String kind() {
        return manifest == null ? Manifest.MEASURED : manifest.kind();
    }

    public boolean simulated() {
        return kind().equals("simulated");
    }

    /** The run's figures, as {@code queuelab summary} prints them. */
    /**
     * Each problem of the run's log, one line each (damage, a torn tail, fewer records than its
     * manifest counts): its figures are then those of the records read. Empty for an intact log.
     */
    public List<String> logProblems() {
        return logProblems;
    }

    public RunSummary summary() {
        return summary;
    }

    /** Every record of the log, warm-up included. */
    public long records() {
        return summary.records;
    }

    public long warmupCount() {
        return summary.warmupRecords;
    }

    /** Requests after warm-up with a scheduled instant (whatever their outcome). */
    public long arrivals() {
        return summary.arrivals;
    }

    /** Successful requests after warm-up: the population of the latency statistics. */
    public long okCount() {
        return summary.okCount();
    }

    /** Requests after warm-up that did not succeed, by outcome name (dropped, unfinished, errors). */
    public Map<String, Long> notOkByOutcome() {
        return summary.notOkByOutcome();
    }

    public long notOkCount() {
        return summary.notOkCount();
    }

    /** Response times of the successful requests, ns. */
    public Histogram responseNanos() {
        return summary.all.response;
    }

    /** Service times (completed - sent) where the log knows the send instant, ns. */
    public Histogram serviceNanos() {
        return summary.all.service;
    }

    /** Exact mean response time in seconds (from the sum, not the histogram). */
    public double meanResponseSeconds() {
        return summary.meanResponseSeconds();
    }

    /** Response-time quantile in seconds (q in [0, 1]) from the histogram. */
    public double quantileSeconds(double q) {
        return responseNanos().getValueAtPercentile(q * 100) / 1e9;
    }

    /** Length of the run in seconds: {@link RunSummary}'s measured span. */
    public double spanSeconds() {
        return summary.spanSeconds();
    }

    /** Arrival rate per second, as {@link RunSummary#arrivalRate()}. */
    public double arrivalRate() {
        return summary.arrivalRate();
    }

    /** Throughput: successful completions per second over the measured span, as {@link RunSummary#throughput()}. */
    public double throughput() {
        return summary.throughput();
    }

    /** Time-average number of successful requests in the system over the run's span (N of a closed run). */
    public double meanInFlight() {
        double span = spanSeconds();
        return span <= 0 ? Double.NaN : inFlightNanos / 1e9 / span;
    }

    public IntervalSeries series() {
        return series;
    }

    /** Each phase's span of ok measured requests, which the steady state's windows divide. */
    SteadyState.Spans phaseSpans() {
        return phaseSpans;
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
            merged.add(run.responseNanos());
        }
        return merged;
    }
}
