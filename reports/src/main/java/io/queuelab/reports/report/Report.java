package io.queuelab.reports.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.queuelab.core.run.SelfCheck;
import io.queuelab.reports.compare.Comparison;
import io.queuelab.reports.compare.LittlesLawCheck;
import io.queuelab.reports.data.SteadyState;
import io.queuelab.reports.data.ServerTelemetry;
import io.queuelab.core.telemetry.ResourceUse;
import io.queuelab.sim.Estimate;
import io.queuelab.reports.compare.Replications;
import io.queuelab.reports.compare.Verdict;
import io.queuelab.reports.data.RunData;
import io.queuelab.reports.data.RunShape;
import io.queuelab.reports.data.RunArguments;
import io.queuelab.reports.fit.DpbFit;
import io.queuelab.reports.fit.FlushDetector;
import io.queuelab.reports.fit.Flushes;
import io.queuelab.reports.fit.PauseCauses;
import io.queuelab.reports.fit.LoadDependentFit;
import io.queuelab.reports.fit.Mm1Fits;
import io.queuelab.reports.fit.Mm1Point;
import io.queuelab.reports.fit.ModelFit;
import io.queuelab.reports.fit.Parameter;
import io.queuelab.reports.fit.Residual;
import io.queuelab.reports.fit.Fits;
import io.queuelab.sim.Model;
import io.queuelab.sim.Simulation;
import io.queuelab.sim.SimulationResult;
import io.queuelab.sim.ArrivalProcess;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The HTML report of runs and sweeps: one self-contained XHTML file (charts inline as SVG, no
 * network needed) and a PNG of every chart in a folder beside it. Sections: the runs with
 * merged percentiles, the generator's self-check, Little's law per window, the M/M/1 fits, the
 * dirty-page-buffer fit, response time vs time with detected flushes, measured vs simulated CDFs
 * with the yardstick verdicts, and N/T and N/P of closed runs. A section whose runs are missing
 * says what it needs instead of being left out silently.
 */
public final class Report {
    /** Response-time-vs-time charts drawn at most (measured runs first). */
    static final int MAX_TIME_CHARTS = 12;
    /** Simulated replications (segments) per yardstick. */
    static final int YARDSTICK_REPLICATIONS = 20;
    /** Seed of the yardstick's replications: fixed, so a report is reproducible. */
    static final long YARDSTICK_SEED = 1_000_003;
    /** Measured runs compared with a simulation of the fitted model at most. */
    static final int MAX_MODEL_COMPARISONS = 6;

    /** Open runs before closed ones, each by rate or N. */
    private static final Comparator<RunData> BY_WORKLOAD = Comparator.comparing((RunData r) -> RunShape.of(r).closed())
            .thenComparingDouble(r -> RunShape.of(r).level());

    private final Html body = new Html();
    private final Map<String, XYChart> charts = new LinkedHashMap<>();
    private final Path pngDir;
    private final String pngDirName;

    private Report(Path out) {
        String stem = out.getFileName().toString().replaceFirst("\\.x?html?$", "");
        this.pngDirName = stem + "-png";
        Path parent = out.toAbsolutePath().getParent();
        this.pngDir = parent.resolve(pngDirName);
    }

    /** Writes the report of the given runs or sweep directories to {@code out}; returns its path. */
    public static Path write(List<Path> runsOrSweeps, Path out) throws IOException {
        written(runsOrSweeps, out);
        return out;
    }

    /** Writes the report and returns it, with its charts (for tests). */
    static Report written(List<Path> runsOrSweeps, Path out) throws IOException {
        System.setProperty("java.awt.headless", "true");
        List<Path> paths = RunArguments.expand(runsOrSweeps);
        List<RunData> runs = RunArguments.read(paths);
        Report report = new Report(out);
        Files.createDirectories(report.pngDir);
        String html = report.build(runs);
        io.queuelab.core.log.AtomicFile.replace(out, tmp -> Files.writeString(tmp, html, StandardCharsets.UTF_8));
        return report;
    }

    private String build(List<RunData> unordered) throws IOException {
        List<RunData> runs = unordered.stream().sorted(Comparator.comparing(RunData::simulated).thenComparing(BY_WORKLOAD)).toList();
        List<RunData> measured = runs.stream().filter(r -> !r.simulated()).toList();
        List<RunData> simulated = runs.stream().filter(RunData::simulated).toList();
        runsSection(runs, measured, simulated);
        selfCheckSection(measured);
        littleSection(runs);
        steadySection(runs);
        Optional<ModelFit> mm1 = mm1Section(measured);
        Optional<DpbFit> dpb = dpbSection(measured);
        timeSection(runs);
        resourceSection(measured);
        comparisonSection(measured, simulated, mm1, dpb);
        closedSection(measured, simulated, mm1, dpb);
        return page();
    }

    private void runsSection(List<RunData> runs, List<RunData> measured, List<RunData> simulated) {
        body.heading("Runs");
        List<List<String>> rows = new ArrayList<>();
        for (RunData r : runs) {
            rows.add(List.of(r.name(), r.kind(), RunShape.of(r).toString(), Html.number(r.records()), Html.number(r.okCount()),
                    notOk(r), Html.number(r.warmupCount()), Html.number(r.arrivalRate()), Html.number(r.throughput()),
                    Html.millis(r.meanResponseSeconds()), Html.millis(r.quantileSeconds(0.5)), Html.millis(r.quantileSeconds(0.99)),
                    Html.millis(r.quantileSeconds(0.999)), Html.millis(r.responseNanos().getMaxValue() / 1e9)));
        }
        for (var group : List.of(Map.entry("all measured runs (merged histograms)", measured),
                Map.entry("all simulated runs (merged histograms)", simulated))) {
            if (group.getValue().size() > 1) {
                Histogram merged = RunData.mergedResponseNanos(group.getValue());
                long ok = merged.getTotalCount();
                rows.add(List.of(group.getKey(), "", "", "", Html.number(ok), "", "", "", "", Html.millis(merged.getMean() / 1e9),
                        Html.millis(merged.getValueAtPercentile(50) / 1e9), Html.millis(merged.getValueAtPercentile(99) / 1e9),
                        Html.millis(merged.getValueAtPercentile(99.9) / 1e9), Html.millis(merged.getMaxValue() / 1e9)));
            }
        }
        body.table(List.of("run", "kind", "workload", "records", "ok", "not ok", "warm-up", "arrivals/s", "throughput/s",
                "mean R (ms)", "p50 (ms)", "p99 (ms)", "p99.9 (ms)", "max (ms)"), rows);
        body.paragraph("Latency statistics count successful requests after warm-up; failed, dropped and unfinished requests are counted"
                + " apart. Percentiles come from HdrHistograms (3 significant digits); merged rows merge the histograms, never average"
                + " percentiles; the mean of a run is exact.");
    }

    private static String notOk(RunData r) {
        if (r.notOkCount() == 0) {
            return "0";
        }
        StringBuilder s = new StringBuilder();
        r.notOkByOutcome().forEach((k, v) -> s.append(s.length() == 0 ? "" : ", ").append(k).append(' ').append(v));
        return s.toString();
    }

    private void selfCheckSection(List<RunData> measured) {
        body.heading("Generator self-check");
        List<List<String>> rows = new ArrayList<>();
        for (RunData r : measured) {
            JsonNode c = r.manifest().path("selfCheck");
            if (c.isMissingNode()) {
                continue;
            }
            StringBuilder arrivals = new StringBuilder();
            for (JsonNode p : c.path("phases")) {
                if (p.path("warmup").asBoolean() || p.path("ksSampleSize").asInt() == 0) {
                    continue;
                }
                arrivals.append(arrivals.length() == 0 ? "" : "; ").append(Html.number(p.path("scheduled").asDouble()))
                        .append(" of ").append(Html.number(p.path("expected").asDouble()))
                        .append(", KS D ").append(Html.number(p.path("ksD").asDouble()))
                        .append(" p ").append(Html.number(p.path("ksPValue").asDouble()))
                        .append(" limit ").append(Html.number(SelfCheck.ksLimit(p.path("ksSampleSize").asInt())));
            }
            rows.add(List.of(r.name(), c.path("verdict").asText(),
                    Html.number(c.path("lagP50Nanos").asDouble() / 1e3), Html.number(c.path("lagP99Nanos").asDouble() / 1e3),
                    Html.number(c.path("lagP999Nanos").asDouble() / 1e3), arrivals.toString(),
                    Html.number(c.path("maxQueueLength").asDouble()), Html.number(c.path("dropped").asDouble()),
                    Html.number(c.path("cpuMicrosPerRequest").asDouble()), Html.number(c.path("gcPauseSeconds").asDouble())));
        }
        if (rows.isEmpty()) {
            body.paragraph("No measured run here has a self-check in its manifest (simulated runs and CSV logs have none).");
            return;
        }
        body.table(List.of("run", "verdict", "lag p50 (us)", "lag p99 (us)", "lag p99.9 (us)",
                "arrivals (scheduled of expected, KS test of realized gaps)", "longest queue", "dropped",
                "client CPU (us/request)", "GC pauses (s)"), rows);
        body.paragraph("Schedule lag is dispatch minus intended instant outside warm-up. The KS test compares the realized"
                + " inter-arrival gaps with Exp(rate); a phase fails it when D exceeds its limit, the tolerance "
                + SelfCheck.KS_TOLERANCE + " plus the 1 % critical distance of its n gaps. The full self-check of a run is in"
                + " its manifest.json and in 'queuelab summary'.");
    }

    private void littleSection(List<RunData> runs) {
        body.heading("Little's law per window");
        List<List<String>> rows = new ArrayList<>();
        for (RunData r : runs) {
            List<LittlesLawCheck.Window> windows = LittlesLawCheck.check(r);
            List<LittlesLawCheck.Window> flagged = windows.stream().filter(LittlesLawCheck.Window::flagged).toList();
            String worst = flagged.stream().sorted(Comparator.comparingDouble(LittlesLawCheck.Window::relativeDifference).reversed())
                    .limit(5).map(w -> Html.number(w.startSeconds()) + " s (L " + Html.number(w.meanInFlight()) + " vs XR "
                            + Html.number(w.littleProduct()) + ")").reduce((a, b) -> a + "; " + b).orElse("");
            rows.add(List.of(r.name(), Html.number(LittlesLawCheck.defaultWindowSeconds(r)), Integer.toString(windows.size()),
                    Integer.toString(flagged.size()), worst));
        }
        body.table(List.of("run", "window (s)", "windows", "inconsistent (>10%)", "worst windows"), rows);
        body.paragraph("L is the time-average number of successful requests in the system, X the completions per second and R their"
                + " mean response time; a window is flagged when they differ by more than 10% (with at least 50 completions).");
    }

    private void steadySection(List<RunData> runs) throws IOException {
        body.heading("Steady state and confidence intervals per phase");
        List<List<String>> rows = new ArrayList<>();
        for (RunData r : runs) {
            JsonNode names = r.manifest().path("config").path("phases");
            for (SteadyState.Phase p : SteadyState.of(r.source()).phases()) {
                String transient_ = p.drifting() ? "NO steady state (drifts)"
                        : p.truncationSeconds() > 0 ? "first " + Html.number(p.truncationSeconds()) + " s" : "none";
                rows.add(List.of(r.name(), names.path(p.index()).path("name").asText("#" + p.index()), Html.number(p.seconds()),
                        Html.number(p.ok()), transient_, interval(p.mean()), interval(p.p50()), interval(p.p99())));
            }
        }
        body.table(List.of("run", "phase", "length (s)", "ok", "transient (MSER)", "mean R (ms)", "p50 (ms)", "p99 (ms)"), rows);
        body.paragraph("Outside warm-up. MSER runs on the means of " + SteadyState.WINDOWS + " equal time windows of the phase: the"
                + " transient is the start it cuts; a cut near half the phase means the response time drifted all along (an"
                + " overloaded server, or a warm-up far too short). Intervals are 95 % by sectioning: the phase is cut into "
                + SteadyState.SECTIONS + " time sections, and the Student-t interval of their estimates gives the half-width around"
                + " the whole phase's value, which accounts for the correlation of successive response times.");
    }

    private static String interval(Estimate e) {
        return Double.isNaN(e.halfWidth()) ? Html.millis(e.value()) : Html.millis(e.value()) + " ± " + Html.millis(e.halfWidth());
    }

    /** Returns the joint fit (for simulating the model), when there is one. */
    private Optional<ModelFit> mm1Section(List<RunData> measured) throws IOException {
        body.heading("Mean response time vs arrival rate: M/M/1");
        List<Mm1Point> points = Fits.mm1Points(measured);
        if (points.stream().map(Mm1Point::lambda).distinct().count() < 2) {
            body.paragraph("Needs measured open runs at two or more arrival rates (a rate sweep); found " + points.size() + ".");
            return Optional.empty();
        }
        List<ModelFit> fits = new ArrayList<>();
        for (var fit : List.<java.util.concurrent.Callable<ModelFit>>of(() -> Mm1Fits.paper(points), () -> Mm1Fits.joint(points))) {
            try {
                fits.add(fit.call());
            } catch (Exception e) {
                body.paragraph("M/M/1 fit failed: " + e.getMessage());
            }
        }
        List<double[]> xy = points.stream().map(p -> new double[] {p.lambda(), p.meanResponse()}).toList();
        chart("mean-response-vs-rate", Charts.meanResponseVsRate(xy, fits),
                "Mean response time vs arrival rate, measured, with the fitted modified M/M/1 curves (seed 001, figures 6-8).");
        for (ModelFit fit : fits) {
            fitTables(fit);
        }
        if (points.size() >= 3) {
            try {
                fitTables(LoadDependentFit.fit(points, LoadDependentFit.DEFAULT_CAPACITY));
            } catch (RuntimeException e) {
                body.paragraph("Load-dependent fit failed: " + e.getMessage());
            }
        }
        return fits.stream().filter(f -> f.method().startsWith("joint") && f.identified()).findFirst();
    }

    private void fitTables(ModelFit fit) {
        body.element("h3", fit.model() + " - " + fit.method());
        body.paragraph(fit.identification().summary() + ".");
        if (!fit.identified()) {
            return; // its values are not results: the measured points are in the chart and the runs table
        }
        List<List<String>> rows = new ArrayList<>();
        for (Parameter p : fit.parameters()) {
            boolean seconds = p.unit().equals("s");
            rows.add(List.of(p.name(), seconds ? Html.millis(p.value()) : Html.number(p.value()),
                    seconds ? Html.millis(p.standardError()) : Html.number(p.standardError()), seconds ? "ms" : p.unit()));
        }
        body.table(List.of("parameter", "value", "standard error", "unit"), rows);
        List<List<String>> residuals = new ArrayList<>();
        for (Residual r : fit.residuals()) {
            residuals.add(List.of(r.name(), Html.number(r.x()), Html.millis(r.measured()), Html.millis(r.fitted()),
                    Html.number(100 * r.relative()) + " %"));
        }
        body.table(List.of("run", "arrival rate (1/s)", "measured mean (ms)", "fitted (ms)", "residual"), residuals);
    }

    private Optional<DpbFit> dpbSection(List<RunData> measured) {
        body.heading("Dirty-page-buffer model (seed 004, Table 1 form)");
        Optional<RunData> open = measured.stream().filter(r -> RunShape.of(r).open()).max(Comparator.comparingDouble(RunData::arrivalRate));
        Optional<RunData> closedHigh = measured.stream().filter(r -> RunShape.of(r).closed() && RunShape.of(r).jobs() >= 10)
                .max(Comparator.comparingInt(r -> RunShape.of(r).jobs()));
        Optional<RunData> single = measured.stream().filter(r -> RunShape.of(r).closed() && RunShape.of(r).jobs() == 1).findFirst();
        if (open.isEmpty() || closedHigh.isEmpty() || single.isEmpty()) {
            body.paragraph("Needs a measured open run at a high rate, a closed run with N >= 10 and a closed run with N = 1; found "
                    + (open.isPresent() ? "an open run" : "no open run") + ", " + (closedHigh.isPresent() ? "a high-N closed run" : "no high-N closed run")
                    + ", " + (single.isPresent() ? "an N = 1 run" : "no N = 1 run") + ".");
            return Optional.empty();
        }
        try {
            DpbFit fit = DpbFit.fit(open.get(), closedHigh.get(), single.get());
            body.paragraph(fit.identification().summary() + ".");
            if (fit.identification().identified()) {
                body.table(List.of("parameter", "value"), fit.table1().stream().map(List::of).toList());
            }
            body.table(List.of("measurement", "value"), fit.measurements().stream().map(List::of).toList());
            return fit.identification().identified() ? Optional.of(fit) : Optional.empty();
        } catch (RuntimeException e) {
            body.paragraph("No dirty-page-buffer fit: " + e.getMessage());
            return Optional.empty();
        }
    }

    private void timeSection(List<RunData> runs) throws IOException {
        body.heading("Response time vs time");
        List<RunData> ordered = runs;
        for (RunData r : ordered.subList(0, Math.min(MAX_TIME_CHARTS, ordered.size()))) {
            Flushes flushes = null;
            String how;
            Optional<ServerTelemetry> telemetry = ServerTelemetry.of(r);
            try {
                flushes = FlushDetector.detect(r); // the detector of fit dpb, so both give one answer on one log
                how = flushes.count() + " flushes detected (departure pauses longer than " + Html.millis(flushes.thresholdSeconds())
                        + " ms ending in a response-time spike)" + (flushes.count() > 1 ? ", median period " + Html.number(flushes.periodSeconds()) + " s" : "") + "."
                        + PauseCauses.of(r, flushes, telemetry).map(c -> " Server telemetry: " + c.summary() + ".").orElse("");
            } catch (RuntimeException e) {
                how = "No flush detection: " + e.getMessage() + ".";
            }
            String server = telemetry.map(t -> " Server telemetry (" + t.axisTitle() + ") on the right axis, same clock: "
                    + String.join(", ", t.series().keySet()) + ".").orElse("");
            Optional<ResourceUse> resources = r.simulated() ? Optional.empty() : ResourceUse.read(r.source());
            String cpu = resources.map(u -> " CPU of " + String.join(", ", u.processes().keySet())
                    + " (host resources, % of one core) on the outer right axis.").orElse("");
            chart("time-" + slug(r.kind() + "-" + r.name()), Charts.responseOverTime(r, flushes, telemetry, resources),
                    "Response time vs time of " + r.name() + " (" + RunShape.of(r) + ", " + r.kind() + "). " + how + server + cpu);
        }
        if (ordered.size() > MAX_TIME_CHARTS) {
            body.paragraph((ordered.size() - MAX_TIME_CHARTS) + " more runs not drawn.");
        }
    }

    /** Seed 002's resource table of every measured run that sampled host resources. */
    private void resourceSection(List<RunData> measured) throws IOException {
        List<List<String>> rows = new ArrayList<>();
        for (RunData r : measured) {
            if (!java.nio.file.Files.isDirectory(r.source())) {
                continue;
            }
            Optional<ResourceUse> use = ResourceUse.read(r.source());
            if (use.isEmpty()) {
                continue;
            }
            for (ResourceUse.Samples p : use.get().processes().values()) {
                rows.add(List.of(r.name(), p.role() + " (pid " + p.pid() + ")", Html.number(p.spanSeconds()), Html.number(p.cpuPercent()),
                        Html.number(p.maxRssBytes() / 1e6), Html.number(p.readBytesPerSecond() / 1e3),
                        Html.number(p.writeBytesPerSecond() / 1e3), Html.number(p.dataDirGrowthBytes() / 1e6),
                        Html.number(p.netBytesPerSecond() / 1e3)));
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        body.heading("Host resources");
        body.table(List.of("run", "process", "sampled (s)", "CPU (% of one core)", "max RSS (MB)", "disk read (kB/s)",
                "disk write (kB/s)", "data dir growth (MB)", "network (kB/s)"), rows);
        body.paragraph("From host-resources.csv (--telemetry-interval), first to last sample: CPU as ps %cpu counts it, disk bytes the"
                + " process caused to be read from and written to storage (/proc/<pid>/io, as pidstat), the data directory's disk space"
                + " (du), and the bytes received + sent on every interface of the process's network namespace (loopback included:"
                + " on one machine, client and server traffic counted once each way per interface).");
    }

    private void comparisonSection(List<RunData> measured, List<RunData> simulated, Optional<ModelFit> mm1,
                                   Optional<DpbFit> dpb) throws IOException {
        body.heading("Measured vs simulated response times");
        int modelComparisons = 0;
        for (RunData m : measured) {
            RunShape shape = RunShape.of(m);
            Optional<RunData> twin = simulated.stream().filter(s -> sameShape(shape, RunShape.of(s))).findFirst();
            if (twin.isPresent()) {
                RunData s = twin.get();
                comparison(m, "simulated " + s.name(), s.responseNanos(), "cdf-" + slug(m.name()),
                        Replications.forSimulatedRun(s, m.okCount(), YARDSTICK_REPLICATIONS, YARDSTICK_SEED));
            } else if (modelComparisons < MAX_MODEL_COMPARISONS && m.okCount() > 0 && (dpb.isPresent() || (mm1.isPresent() && shape.open()))) {
                modelComparisons++;
                try {
                    compareWithFittedModel(m, shape, mm1, dpb);
                } catch (IllegalArgumentException unstable) {
                    // e.g. a fitted model whose capacity is below this run's rate: no steady state to simulate
                    body.paragraph("No simulation of the fitted model for " + m.name() + ": " + unstable.getMessage() + ".");
                }
            }
        }
        if (measured.isEmpty() || (simulated.isEmpty() && mm1.isEmpty() && dpb.isEmpty())) {
            body.paragraph("Needs measured runs and either simulated runs with the same workload (same mode, rate or N within 5%)"
                    + " or a fitted model to simulate.");
        }
    }

    /**
     * Simulates the fitted model (DPB if fitted, else the modified M/M/1) under the measured run's
     * own arrival instants (trace-driven) for an open run, or with its N for a closed run.
     */
    private void compareWithFittedModel(RunData m, RunShape shape, Optional<ModelFit> mm1, Optional<DpbFit> dpb) throws IOException {
        Model model = dpb.isPresent() ? dpb.get().model() : Mm1Fits.simulationModel(mm1.get().value("x"), mm1.get().value("l"));
        String modelName = dpb.isPresent() ? "fitted DPB model" : "fitted modified M/M/1";
        boolean traceable = shape.open() && java.nio.file.Files.isDirectory(m.source());
        ArrivalProcess workload = shape.closed() ? ArrivalProcess.closed(shape.jobs())
                : traceable ? ArrivalProcess.traceOf(m.source()) : ArrivalProcess.open(shape.level());
        Simulation simulation = Simulation.of(model, workload).seed(YARDSTICK_SEED - 1);
        // a trace ends by itself; a closed run lasts as long as the measured one; an open run of a CSV log has no
        // trace to replay, so it gets as many customers as the log has successful requests
        SimulationResult result = (shape.closed() ? simulation.duration(Math.max(1, m.spanSeconds()))
                : traceable ? simulation : simulation.customers(m.okCount())).run();
        ArrivalProcess replicated = shape.closed() ? workload : ArrivalProcess.open(shape.level());
        Replications.Yardstick yardstick = new Replications.Yardstick(
                Replications.simulate(model, replicated, m.okCount(), YARDSTICK_REPLICATIONS, YARDSTICK_SEED),
                YARDSTICK_REPLICATIONS + " independent replications of " + m.okCount() + " requests by model-sim of the " + modelName
                        + " (" + replicated.mode() + ")");
        comparison(m, modelName + (traceable ? " (trace-driven)" : ""), result.responseTimes(), "cdf-model-" + slug(m.name()), yardstick);
    }

    private void comparison(RunData m, String simulatedName, Histogram simulated, String chartId, Replications.Yardstick yardstick)
            throws IOException {
        Map<String, Histogram> cdfs = new LinkedHashMap<>();
        cdfs.put("measured " + m.name(), m.responseNanos());
        cdfs.put(simulatedName, simulated);
        chart(chartId, Charts.cdf("CDF of response times: " + m.name() + " vs " + simulatedName, cdfs),
                "Response-time CDF, measured vs " + simulatedName + " (" + RunShape.of(m) + "; seed 004, figure 5).");
        List<Histogram> replications = yardstick.replications();
        Comparison c = Comparison.of(m.name(), m.responseNanos(), simulatedName, simulated,
                replications.size() >= 2 ? replications : List.of());
        List<List<String>> rows = new ArrayList<>();
        for (Verdict v : c.rows()) {
            java.util.function.DoubleFunction<String> cell = v.unit().equals("s") ? Html::millis : Html::number;
            rows.add(List.of(v.metric(), cell.apply(v.measured()), cell.apply(v.simulated()), cell.apply(v.distance()),
                    cell.apply(v.yardstick()), v.unit().equals("s") ? "ms" : v.unit(), v.verdict()));
        }
        body.table(List.of("metric", "measured", "simulated", "distance", "yardstick (95%)", "unit", "verdict"), rows);
        body.paragraph("Yardstick: " + yardstick.description() + ", compared in " + c.yardstickPairs() + " pairs"
                + (c.yardstickPairs() == 0 ? " (the simulated run is too short: simulate at least " + 4 * m.okCount() + " requests)" : "")
                + "; a distance at or below the pairs' 95th percentile is within simulation noise.");
    }

    private static boolean sameShape(RunShape a, RunShape b) {
        return a.closed() == b.closed() && Math.abs(a.level() - b.level()) <= 0.05 * Math.max(a.level(), b.level());
    }

    private void closedSection(List<RunData> measured, List<RunData> simulated, Optional<ModelFit> mm1, Optional<DpbFit> dpb)
            throws IOException {
        body.heading("Closed runs: N/T and N/P");
        Map<String, double[][]> nt = new LinkedHashMap<>();
        Map<String, double[][]> np = new LinkedHashMap<>();
        for (var group : List.of(Map.entry("measured", measured), Map.entry("simulated", simulated))) {
            List<RunData> closed = group.getValue().stream().filter(r -> RunShape.of(r).closed())
                    .sorted(Comparator.comparingInt(r -> RunShape.of(r).jobs())).toList();
            if (closed.isEmpty()) {
                continue;
            }
            double[] n = closed.stream().mapToDouble(r -> RunShape.of(r).jobs()).toArray();
            nt.put(group.getKey(), new double[][] {n, closed.stream().mapToDouble(r -> 1e3 * r.meanResponseSeconds()).toArray()});
            np.put(group.getKey(), new double[][] {n, closed.stream().mapToDouble(RunData::throughput).toArray()});
        }
        if (nt.isEmpty()) {
            body.paragraph("No closed runs among the inputs (a closed sweep gives these curves).");
            return;
        }
        List<RunData> closedMeasured = measured.stream().filter(r -> RunShape.of(r).closed())
                .sorted(Comparator.comparingInt(r -> RunShape.of(r).jobs())).toList();
        Optional<ClosedModelCurves> model = closedMeasured.isEmpty() ? Optional.empty()
                : ClosedModelCurves.of(closedMeasured, mm1, dpb, YARDSTICK_SEED - 2);
        Map<String, double[][]> ntModel = new LinkedHashMap<>(), npModel = new LinkedHashMap<>();
        model.ifPresent(m -> {
            ntModel.put(m.name(), new double[][] {m.jobs(), java.util.Arrays.stream(m.responseSeconds()).map(v -> 1e3 * v).toArray()});
            npModel.put(m.name(), new double[][] {m.jobs(), m.throughput()});
        });
        String modelNote = model.map(m -> " The line is the " + m.name() + ".")
                .orElse(closedMeasured.isEmpty() ? "" : " No model line: it needs an identified M/M/1 fit of open runs or a DPB fit.");
        chart("n-t", Charts.closedCurve("N/T: mean response time vs concurrent requests", "mean response time (ms)", nt, ntModel),
                "N/T of the closed runs, measured and simulated (seed 004, figures 2 and 6)." + modelNote);
        chart("n-p", Charts.closedCurve("N/P: throughput vs concurrent requests", "throughput (1/s)", np, npModel),
                "N/P of the closed runs, measured and simulated (seed 004, figures 2 and 6)." + modelNote);
    }

    private void chart(String id, XYChart chart, String caption) throws IOException {
        String unique = id;
        for (int k = 2; charts.containsKey(unique); k++) {
            unique = id + "-" + k;
        }
        charts.put(unique, chart);
        String inline = CompactSvg.of(chart);
        String png = String.format("%02d-%s.png", charts.size(), unique);
        BitmapEncoder.saveBitmap(chart, pngDir.resolve(png).toString(), BitmapEncoder.BitmapFormat.PNG);
        body.raw("<figure class=\"chart\" id=\"" + Html.escape(unique) + "\">\n").raw(inline).raw("\n<figcaption>")
                .raw(Html.escape(caption)).raw(" <a href=\"" + Html.escape(pngDirName + "/" + png) + "\">PNG</a></figcaption>\n</figure>\n");
    }

    private static String slug(String name) {
        return Html.anchor(name);
    }

    /** The charts drawn, by figure id. */
    Map<String, XYChart> charts() {
        return charts;
    }

    private String page() {
        return "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
                + "<title>queuelab report</title>\n<style>\n"
                + "body{font-family:sans-serif;margin:2em;max-width:1100px;color:#222}"
                + "table{border-collapse:collapse;margin:0.5em 0 1em 0;font-size:0.85em}"
                + "td,th{border:1px solid #bbb;padding:2px 6px;text-align:right}th{background:#eee}"
                + "td:first-child,td:last-child{text-align:left}td{overflow-wrap:break-word}figure{margin:1em 0}figure svg{max-width:100%;height:auto}"
                + "figcaption{font-size:0.9em;color:#444}\n</style>\n</head>\n<body>\n<h1>queuelab report</h1>\n"
                + "<p>Generated " + Instant.now() + " by queuelab reports.</p>\n"
                + body.contents() + body + "</body>\n</html>\n";
    }
}
