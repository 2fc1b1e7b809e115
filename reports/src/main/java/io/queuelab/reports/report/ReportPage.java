package io.queuelab.reports.report;

import io.queuelab.reports.text.ValidationText;
import io.queuelab.core.manifest.LoadConfig;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.summary.SummaryText;
import io.queuelab.core.run.SelfCheck;
import io.queuelab.core.telemetry.CpuSpeed;
import io.queuelab.core.telemetry.ResourceUse;
import io.queuelab.fit.compare.LittlesLawCheck;
import io.queuelab.fit.compare.Verdict;
import io.queuelab.fit.runs.MachineStalls;
import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.runs.RunShape;
import io.queuelab.fit.runs.ServerWork;
import io.queuelab.fit.runs.SteadyState;
import io.queuelab.fit.DpbFit;
import io.queuelab.fit.HeldOutValidation;
import io.queuelab.fit.RepeatedRuns;
import io.queuelab.fit.RunPrediction;
import io.queuelab.fit.ModelFit;
import io.queuelab.fit.Parameter;
import io.queuelab.fit.Residual;
import io.queuelab.sim.Estimate;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.XYChart;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The report's XHTML page, written from a {@link ReportAnalysis}: the sections in a fixed order
 * (held-out predictions, runs, self-check, Little's law, steady state, M/M/1, dirty-page buffer, response time vs time,
 * host resources, measured vs simulated, closed runs), each figure's chart through
 * {@link ReportFigures}.
 *
 * <p>Guarantees: the page is well-formed XHTML (every text escaped by {@link Html}) and needs no
 * network; a section whose runs are missing, or whose figure could not be computed, says what it
 * needs or why instead of being left out silently (host resources, shown only when sampled, are
 * the one exception); it computes nothing but the formatting of the analysis's figures.
 */
final class ReportPage {
    private final Html body = new Html();
    private final ReportAnalysis analysis;
    private final ReportFigures figures;
    /** The held-out runs whose CDF the lead's pictures draw, so that the comparisons below do not draw it again. */
    private final java.util.Set<RunData> drawnInTheLead = new java.util.HashSet<>();

    private ReportPage(ReportAnalysis analysis, ReportFigures figures) {
        this.analysis = analysis;
        this.figures = figures;
    }

    /** The page of the analysis, its charts drawn into {@code figures}. */
    static String of(ReportAnalysis analysis, ReportFigures figures) throws IOException {
        ReportPage page = new ReportPage(analysis, figures);
        page.heldOutSection();
        page.runsSection();
        page.selfCheckSection();
        page.littleSection();
        page.steadySection();
        page.mm1Section();
        page.dpbSection();
        page.timeSection();
        page.resourceSection();
        page.comparisonSection();
        page.closedSection();
        return page.page();
    }

    /** What the models predict for runs they were not fitted to: the report's lead (queuelab validate). */
    private void heldOutSection() throws IOException {
        body.heading("What the models predict for runs they were not fitted to");
        ReportAnalysis.HeldOut heldOut = analysis.heldOut;
        body.paragraph(heldOut.plan());
        if (heldOut.result().isEmpty()) {
            return;
        }
        HeldOutValidation.Result result = heldOut.result().get();
        body.paragraph("System: " + result.limits() + "." + result.clientTime().map(t -> " The " + t.describeUse() + ".").orElse("")
                + " Selected: " + (result.selected() == null ? "none (no model is identified)"
                : result.selected() + ", the smallest held-out error (mean |relative error| of mean, p50 and p99, plus the KS D beyond its yardstick; ties to the simpler).")
                + " Each model is judged twice on the runs it was fitted to: identified (its parameters are determined) and fits"
                + " (residuals against their errors, and each run's CDF against the simulation-noise yardstick).");
        List<List<String>> models = new ArrayList<>();
        for (HeldOutValidation.ModelOutcome o : result.models()) {
            ModelFit fit = o.fit().fit();
            models.add(List.of(o.fit().name(), fit.identified() ? "yes" : fit.identification().summary(),
                    !fit.identified() ? "not tested" : fit.fits() ? "yes" : fit.fitVerdict(),
                    o.predictions().isEmpty() ? "" : o.describeHeldOutError()));
        }
        body.table(List.of("model", "identified", "fits", "held-out error"), models);
        if (result.selected() == null) {
            return;
        }
        heldOutPictures(result);
        if (analysis.openCurves.isPresent()) {
            HeldOutValidation.ModelOutcome selected = result.model(result.selected());
            chart("held-out-vs-rate", Charts.responseVsRate(analysis.openCurves.get(), selected.fitRuns(), selected.predictions()),
                    "Mean (blue) and p99 (red) response time against the arrival rate: the open runs " + result.selected() + " was"
                            + " fitted to (circles) and those it predicted from the rate alone (diamonds), with its own curves, each point"
                            + " of them simulated from the rate alone as a held-out run is (" + OpenModelCurves.CUSTOMERS
                            + " requests each; the curves end where the model can no longer carry the load).");
        }
        List<List<String>> rows = new ArrayList<>();
        boolean server = result.fitServer().known();
        for (RunPrediction p : result.model(result.selected()).predictions()) {
            // a load the model cannot carry has no predicted figure: its cells say so rather than print a number
            java.util.function.DoubleFunction<String> ms = v -> p.saturated() ? "-" : Html.millis(v);
            List<String> row = new ArrayList<>(List.of(p.name(), p.closed() ? "N = " + (int) p.level() : Html.number(p.level()) + "/s",
                    Html.millis(p.measuredMean()) + " / " + ms.apply(p.predictedMean()),
                    Html.millis(p.measuredP50()) + " / " + ms.apply(p.predictedP50()),
                    Html.millis(p.measuredP99()) + " / " + ms.apply(p.predictedP99()),
                    Html.number(p.measuredThroughput()) + " / " + (p.saturated() ? "-" : Html.number(p.predictedThroughput())),
                    (p.saturated() ? "" : Html.number(p.ks()) + " / " + Html.number(p.ksYardstick()) + " ") + p.cdfVerdict()));
            if (server) {
                ServerWork atItsLoad = result.fitServer().at(p);
                row.add(p.server().over(atItsLoad).ratios()
                        + p.server().differenceFrom(atItsLoad).map(d -> ": another server (" + d + ")").orElse("")
                        + (p.atOwnServer() == null ? "" : "; " + ValidationText.ownServer(p))
                        + (p.replay() == null ? "" : "; " + ValidationText.serverReplay(p)));
            }
            rows.add(row);
        }
        List<String> header = new ArrayList<>(List.of("held-out run (" + result.selected() + ")", "rate or N", "mean ms (measured / predicted)",
                "p50 ms", "p99 ms", "throughput /s", "KS D / yardstick"));
        if (server) {
            header.add("server vs fit runs: cpu speed / cpu per request");
        }
        body.table(header, rows);
        repeatsTable(result);
        if (server) {
            body.paragraph("Server vs fit runs, measured apart from the response times: the median time of the speed probe's fixed unit"
                    + " of work on the server's own cpus over the fit runs' median, and the server processes' cpu time per request"
                    + " (service demand law) over what the fit runs measured at that run's load (theirs interpolated in the server's busy"
                    + " fraction; a closed run's load from its measured throughput; the fit runs' medians: " + result.fitServer().medians() + "):"
                    + " 1.10 means a cpu 10 % slower, or 10 % more cpu per request, during that run than the fit runs' server at that"
                    + " load. The model describes one server; on a"
                    + " shared host the cpu's speed changes from minute to minute, and a run at another speed or with more work per"
                    + " request measured another server: beyond " + Math.round(100 * ServerWork.UNIT_TOLERANCE) + " % in speed or "
                    + Math.round(100 * ServerWork.CPU_PER_REQUEST_TOLERANCE) + " % in cpu per request the row says so, and its"
                    + " error is no test of the model; where the model's only times are its demands, it is predicted again at"
                    + " the run's own server (its demand times the run's cpu per request over the fit runs').");
        }
    }

    /**
     * The lead's pictures: for each held-out load, its measured CDFs (each run of the load) against
     * the selected model's prediction and the band of the model's own replications, on a log time
     * axis (the simulations of the comparison section below, the same as the held-out table's).
     */
    private void heldOutPictures(HeldOutValidation.Result result) throws IOException {
        Map<RunData, ReportAnalysis.Compared> predicted = new LinkedHashMap<>();
        for (ReportAnalysis.Matched m : analysis.matched) {
            if (m instanceof ReportAnalysis.Compared c && c.ofModel() && analysis.heldOut.heldOutRuns().contains(c.measured())) {
                predicted.put(c.measured(), c);
            }
        }
        List<RunData> held = analysis.heldOut.heldOutRuns();
        List<List<Integer>> loads = new ArrayList<>(result.repeats().stream().map(RepeatedRuns.Group::members).toList());
        for (int i = 0; i < held.size(); i++) {
            final int run = i;
            if (loads.stream().noneMatch(g -> g.contains(run))) {
                loads.add(List.of(run));
            }
        }
        for (List<Integer> load : loads) {
            Map<String, Histogram> measured = new LinkedHashMap<>();
            ReportAnalysis.Compared first = null;
            for (int i : load) {
                ReportAnalysis.Compared c = predicted.get(held.get(i));
                if (c != null) {
                    measured.put("measured " + held.get(i).name(), held.get(i).responseNanos());
                    first = first == null ? c : first;
                    drawnInTheLead.add(held.get(i));
                }
            }
            if (first == null) {
                continue; // the model cannot carry the load (the table says so) or the run was beyond the comparisons shown
            }
            String what = RunShape.of(first.measured()).toString();
            chart("held-out-" + slug(first.measured().name()), Charts.heldOutCdf("Held out: " + what, measured, result.selected(),
                    first.simulated(), first.yardstick().replications(), first.measured().responseNanos().getTotalCount()),
                    "Held-out load " + what + ": the measured CDF of each of its " + measured.size() + " run(s) against " + result.selected()
                    + "'s prediction from the rate or N alone, and the band its own replications of the run's size span (log time axis)."
                    + " Inside the band: a shape the model could have produced; outside: one it does not have.");
        }
    }

    /** The loads measured more than once: the server's own spread, and the selected model's prediction against it. */
    private void repeatsTable(HeldOutValidation.Result result) {
        if (result.repeats().isEmpty()) {
            return;
        }
        List<RunPrediction> predictions = result.model(result.selected()).predictions();
        List<List<String>> rows = new ArrayList<>();
        for (RepeatedRuns.Group g : result.repeats()) {
            RepeatedRuns.Verdict v = g.judge(predictions);
            rows.add(List.of(g.load(), g.runs(), g.describe(), v.describe(g)));
        }
        body.table(List.of("load run again", "runs", "measured: the server's own spread", result.selected() + " predicts"), rows);
        body.paragraph("A load run more than once shows how closely the server repeats itself, which the simulation-noise yardstick"
                + " of one run does not contain (a shared host changes between runs). A model predicts such a load within the server's"
                + " own spread when its mean, p50 or p99 is no farther from the runs' pooled value (their response times merged) than"
                + " the runs are from each other, and its distribution is no farther from each run (KS D) than two runs are apart."
                + " With two runs a model that predicts a statistic's expected value exactly is within on it 70 % of the time, with"
                + " four 98 %: a \"beyond\" from two runs is weak evidence.");
    }

    /** The run's server cpu speed: median probe unit and the spread of its seconds; empty when not probed. */
    private static String cpuSpeed(RunData r) {
        try {
            return r.cpuSpeed().map(c -> Double.isNaN(c.secondSpread()) ? String.format(Locale.ROOT, "%.1f", c.medianNanos() / 1e3)
                    : String.format(Locale.ROOT, "%.1f (%.2fx)%s", c.medianNanos() / 1e3, c.secondSpread(),
                    c.secondSpread() > CpuSpeed.UNSTEADY ? " not steady" : "")).orElse("");
        } catch (IOException unreadable) {
            return "unreadable: " + unreadable.getMessage();
        }
    }

    /** The server's cpu per request in the run (the demand law) and the throughput one core gives at it; empty when not sampled. */
    private static String cpuPerRequest(RunData r) {
        try {
            double d = r.serverWork().cpuSecondsPerRequest();
            // the cores' worth the server was busy (X D, the utilization law): the load its cpu per request was measured at
            return Double.isFinite(d) && d > 0 ? String.format(Locale.ROOT, "%.3f (%.4g/s a core; %.2f cores busy)", d * 1e3, 1 / d,
                    r.throughput() * d) : "";
        } catch (IOException unreadable) {
            return "unreadable: " + unreadable.getMessage();
        }
    }

    private void runsSection() {
        body.heading("Runs");
        List<List<String>> rows = new ArrayList<>();
        for (RunData r : analysis.runs) {
            rows.add(List.of(r.name(), r.kind(), RunShape.of(r).toString(), Html.number(r.records()), Html.number(r.okCount()),
                    notOk(r), Html.number(r.warmupCount()), Html.number(r.arrivalRate()), Html.number(r.throughput()),
                    Html.millis(r.meanResponseSeconds()), Html.millis(r.quantileSeconds(0.5)), Html.millis(r.quantileSeconds(0.99)),
                    Html.millis(r.quantileSeconds(0.999)), Html.millis(r.responseNanos().getMaxValue() / 1e9), cpuSpeed(r), cpuPerRequest(r)));
        }
        analysis.merged.forEach((group, merged) -> rows.add(List.of(group, "", "", "", Html.number(merged.getTotalCount()), "", "", "", "",
                Html.millis(merged.getMean() / 1e9), Html.millis(merged.getValueAtPercentile(50) / 1e9),
                Html.millis(merged.getValueAtPercentile(99) / 1e9), Html.millis(merged.getValueAtPercentile(99.9) / 1e9),
                Html.millis(merged.getMaxValue() / 1e9), "", "")));
        body.table(List.of("run", "kind", "workload", "records", "ok", "not ok", "warm-up", "arrivals/s", "throughput/s",
                "mean R (ms)", "p50 (ms)", "p99 (ms)", "p99.9 (ms)", "max (ms)", "server cpu unit us (slowest s / fastest)",
                "server cpu ms per request"), rows);
        body.paragraph("Latency statistics count successful requests after warm-up; failed, dropped and unfinished requests are counted"
                + " apart. Percentiles come from HdrHistograms (3 significant digits); merged rows merge the histograms, never average"
                + " percentiles; the mean of a run is exact. The server columns are measured apart from the response times: the median"
                + " time of the speed probe's fixed unit on the server's own cpus (cpu-speed.csv; the spread of its seconds), and the"
                + " server processes' cpu time over the run's requests (host-resources.csv; the demand law), with the rate one core"
                + " sustains at it (an open run at a higher rate overloaded the server that run measured) and the cores' worth the"
                + " server was busy (throughput x cpu per request): a server may spend more per request when it is less busy.");
    }

    private static String notOk(RunData r) {
        if (r.notOkCount() == 0) {
            return "0";
        }
        StringBuilder s = new StringBuilder();
        r.notOkByOutcome().forEach((k, v) -> s.append(s.length() == 0 ? "" : ", ").append(k).append(' ').append(v));
        return s.toString();
    }

    private void selfCheckSection() {
        body.heading("Generator self-check");
        List<List<String>> rows = new ArrayList<>();
        for (RunData r : analysis.measured) {
            SelfCheck c = r.manifest().flatMap(Manifest::selfCheck).orElse(null);
            if (c == null) {
                continue;
            }
            StringBuilder arrivals = new StringBuilder();
            for (SelfCheck.PhaseCheck p : c.phases()) {
                if (p.warmup() || p.ksSampleSize() == 0) {
                    continue;
                }
                arrivals.append(arrivals.length() == 0 ? "" : "; ").append(Html.number(p.scheduled()))
                        .append(" of ").append(Html.number(p.expected()))
                        .append(", KS D ").append(Html.number(p.ksD()))
                        .append(" p ").append(Html.number(p.ksPValue()))
                        .append(" limit ").append(Html.number(SelfCheck.ksLimit(p.ksSampleSize())));
            }
            rows.add(List.of(r.name(), c.verdict(),
                    Html.number(c.lagP50Nanos() / 1e3), Html.number(c.lagP99Nanos() / 1e3),
                    Html.number(c.lagP999Nanos() / 1e3), arrivals.toString(),
                    Html.number(c.maxQueueLength()), Html.number(c.dropped()),
                    Html.number(c.cpuMicrosPerRequest()), Html.number(c.gcPauseSeconds()),
                    Optional.ofNullable(analysis.stalls.get(r)).map(MachineStalls::describe).orElse("not read"),
                    r.manifest().flatMap(Manifest::placement).map(SummaryText::placement).orElse("cpus: not recorded")));
        }
        if (rows.isEmpty()) {
            body.paragraph("No measured run here has a self-check in its manifest (simulated runs and CSV logs have none).");
            return;
        }
        body.table(List.of("run", "verdict", "lag p50 (us)", "lag p99 (us)", "lag p99.9 (us)",
                "arrivals (scheduled of expected, KS test of realized gaps)", "longest queue", "dropped",
                "client CPU (us/request)", "GC pauses (s)", "client stalls (nothing sent or completed with a request due)", "placement"), rows);
        body.paragraph("Schedule lag is dispatch minus intended instant outside warm-up. The KS test compares the realized"
                + " inter-arrival gaps with Exp(rate); a phase fails it when D exceeds its limit, the tolerance "
                + SelfCheck.KS_TOLERANCE + " plus the 1 % critical distance of its n gaps. A client stall is a gap of "
                + MachineStalls.MIN_NANOS / 1_000_000 + " ms or more in which nothing was sent or completed though a request was due and"
                + " a connection free: the client's process or machine did not run (with requests inside, the server completed"
                + " nothing either: the whole machine stopped); the response times include it. The full self-check of a run is in"
                + " its manifest.json and in 'queuelab summary'.");
    }

    private void littleSection() {
        body.heading("Little's law per window");
        List<List<String>> rows = new ArrayList<>();
        for (ReportAnalysis.LittleWindows l : analysis.little) {
            List<LittlesLawCheck.Window> flagged = l.flagged();
            String worst = flagged.stream().sorted(Comparator.comparingDouble(LittlesLawCheck.Window::relativeDifference).reversed())
                    .limit(5).map(w -> Html.number(w.startSeconds()) + " s (L " + Html.number(w.meanInFlight()) + " vs XR "
                            + Html.number(w.littleProduct()) + ")").reduce((a, b) -> a + "; " + b).orElse("");
            rows.add(List.of(l.run().name(), Html.number(l.windowSeconds()), Integer.toString(l.windows().size()),
                    Integer.toString(flagged.size()), worst));
        }
        body.table(List.of("run", "window (s)", "windows", "inconsistent (>10%)", "worst windows"), rows);
        body.paragraph("L is the time-average number of successful requests in the system, X the completions per second and R their"
                + " mean response time; a window is flagged when they differ by more than 10% (with at least 50 completions).");
    }

    private void steadySection() {
        body.heading("Steady state and confidence intervals per phase");
        List<List<String>> rows = new ArrayList<>();
        for (ReportAnalysis.SteadyPhases s : analysis.steady) {
            RunData r = s.run();
            List<LoadConfig.PhaseConfig> names = r.manifest().flatMap(Manifest::config).map(LoadConfig::phases).orElse(List.of());
            for (SteadyState.Phase p : s.phases()) {
                String transient_ = p.drifting() ? "NO steady state (drifts)"
                        : p.truncationSeconds() > 0 ? "first " + Html.number(p.truncationSeconds()) + " s" : "none";
                rows.add(List.of(r.name(), p.index() < names.size() ? names.get(p.index()).name() : "#" + p.index(), Html.number(p.seconds()),
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

    private void mm1Section() throws IOException {
        body.heading("Mean response time vs arrival rate: M/M/1");
        ReportAnalysis.Mm1Analysis mm1 = analysis.mm1;
        if (mm1.notFitted().isPresent()) {
            body.paragraph("Not fitted: " + mm1.notFitted().get() + ".");
            return;
        }
        if (!mm1.enoughPoints()) {
            body.paragraph("Needs measured open runs at two or more arrival rates (a rate sweep); found " + mm1.points().size() + ".");
            return;
        }
        List<double[]> xy = mm1.points().stream().map(p -> new double[] {p.lambda(), p.meanResponse()}).toList();
        chart("mean-response-vs-rate", Charts.meanResponseVsRate(xy, mm1.fits()),
                "Mean response time vs arrival rate, measured, with the fitted modified M/M/1 curves (seed 001, figures 6-8).");
        for (ModelFit fit : mm1.fits()) {
            fitTables(fit);
        }
        mm1.loadDependent().ifPresent(this::fitTables);
    }

    private void fitTables(ModelFit fit) {
        body.element("h3", fit.model() + " - " + fit.method());
        body.paragraph(fit.identification().summary() + ".");
        if (!fit.identified()) {
            return; // its values are not results: the measured points are in the chart and the runs table
        }
        body.paragraph(fit.fitVerdict() + ".");
        List<List<String>> rows = new ArrayList<>();
        for (Parameter p : fit.parameters()) {
            boolean seconds = p.unit().equals("s");
            rows.add(List.of(p.name(), seconds ? Html.millis(p.value()) : Html.number(p.value()),
                    seconds ? Html.millis(p.standardError()) : Html.number(p.standardError()), seconds ? "ms" : p.unit()));
        }
        body.table(List.of("parameter", fit.lackOfFit() != null && !fit.fits() ? "value (of a model that does not fit)" : "value",
                "standard error", "unit"), rows);
        List<List<String>> residuals = new ArrayList<>();
        for (Residual r : fit.residuals()) {
            residuals.add(List.of(r.name(), Html.number(r.x()), Html.millis(r.measured()), Html.millis(r.fitted()),
                    Html.number(100 * r.relative()) + " %"));
        }
        body.table(List.of("run", "arrival rate (1/s)", "measured mean (ms)", "fitted (ms)", "residual"), residuals);
    }

    private void dpbSection() {
        body.heading("Dirty-page-buffer model (seed 004, Table 1 form)");
        ReportAnalysis.DpbAnalysis dpb = analysis.dpb;
        if (dpb.failure().isPresent()) {
            body.paragraph("No dirty-page-buffer fit: " + dpb.failure().get());
            return;
        }
        if (!dpb.hasRuns()) {
            body.paragraph("Needs a measured open run at a high rate, a closed run with N >= 10 and a closed run with N = 1; found "
                    + (dpb.open().isPresent() ? "an open run" : "no open run") + ", "
                    + (dpb.closedHigh().isPresent() ? "a high-N closed run" : "no high-N closed run")
                    + ", " + (dpb.single().isPresent() ? "an N = 1 run" : "no N = 1 run") + ".");
            return;
        }
        DpbFit fit = dpb.fit().orElseThrow();
        body.paragraph(fit.identification().summary() + ".");
        dpb.verdict().ifPresent(v -> body.paragraph("On " + dpb.open().orElseThrow().name() + ": " + v.summary() + "."));
        if (fit.identification().identified()) {
            body.table(List.of("parameter", "value"), fit.table1().stream().map(List::of).toList());
        }
        body.table(List.of("measurement", "value"), fit.measurements().stream().map(List::of).toList());
    }

    private void timeSection() throws IOException {
        body.heading("Response time vs time");
        for (ReportAnalysis.TimeLine t : analysis.timeLines) {
            RunData r = t.run();
            String how = t.flushes() == null ? "No flush detection: " + t.flushFailure() + "."
                    : t.flushes().count() + " flushes detected (departure pauses longer than " + Html.millis(t.flushes().thresholdSeconds())
                    + " ms ending in a response-time spike)"
                    + (t.flushes().count() > 1 ? ", median period " + Html.number(t.flushes().periodSeconds()) + " s" : "") + "."
                    + t.causes().map(c -> " Server telemetry: " + c.summary() + ".").orElse("");
            String server = t.telemetry().map(s -> " Server telemetry (" + s.axisTitle() + ") on the right axis, same clock: "
                    + String.join(", ", s.series().keySet()) + ".").orElse("");
            String cpu = t.resources().map(u -> " CPU of " + String.join(", ", u.processes().keySet())
                    + " (host resources, % of one core) on the outer right axis.").orElse("");
            chart("time-" + slug(r.kind() + "-" + r.name()), Charts.responseOverTime(r, t.flushes(), t.telemetry(), t.resources()),
                    "Response time vs time of " + r.name() + " (" + RunShape.of(r) + ", " + r.kind() + "). " + how + server + cpu);
        }
        if (analysis.runs.size() > ReportAnalysis.MAX_TIME_CHARTS) {
            body.paragraph((analysis.runs.size() - ReportAnalysis.MAX_TIME_CHARTS) + " more runs not drawn.");
        }
    }

    /** Seed 002's resource table of every measured run that sampled host resources. */
    private void resourceSection() throws IOException {
        List<List<String>> rows = new ArrayList<>();
        for (Map.Entry<RunData, ResourceUse> e : analysis.resources.entrySet()) {
            RunData r = e.getKey();
            // the server's own count of its traffic with its clients: the namespace's counters hold every process's
            String serverTraffic = io.queuelab.fit.runs.ResourceTable.serverTraffic(r.source())
                    .map(t -> Html.number(t.bytesPerSecond() / 1e3)).orElse("-");
            for (ResourceUse.Samples p : e.getValue().processes().values()) {
                rows.add(List.of(r.name(), p.role() + " (pid " + p.pid() + ")", Html.number(p.spanSeconds()), Html.number(p.cpuPercent()),
                        Html.number(p.maxRssBytes() / 1e6), Html.number(p.readBytesPerSecond() / 1e3),
                        Html.number(p.writeBytesPerSecond() / 1e3), Html.number(p.dataDirGrowthBytes() / 1e6),
                        Html.number(p.netBytesPerSecond() / 1e3), p.role().equals("server") ? serverTraffic : "-"));
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        body.heading("Host resources");
        body.table(List.of("run", "process", "sampled (s)", "CPU (% of one core)", "max RSS (MB)", "disk read (kB/s)",
                "disk write (kB/s)", "data dir growth (MB)", "network namespace (kB/s)", "server's traffic with its clients (kB/s)"), rows);
        body.paragraph("From host-resources.csv (--telemetry-interval), first to last sample: CPU as ps %cpu counts it, disk bytes the"
                + " process caused to be read from and written to storage (/proc/<pid>/io, as pidstat), the data directory's disk space"
                + " (du), and the bytes received + sent on every interface of the process's network namespace (loopback included:"
                + " on one machine, client and server traffic counted once each way per interface, and every other process's too),"
                + " and beside it the server's own count of its traffic with its clients (MariaDB's Bytes_received + Bytes_sent less the"
                + " telemetry session's own, or InfluxDB's request and response bodies).");
    }

    private void comparisonSection() throws IOException {
        body.heading("Measured vs simulated response times");
        analysis.heldOut.selected().ifPresent(selected -> body.paragraph("Each run the held-out validation fitted or predicted against"
                + " the selected model, " + selected.fit().name() + ", simulated at the run's rate or N alone (fitted on the fit runs; the"
                + " held-out runs are predictions): its CDF, and mean, p50, p99 and KS D against the yardstick of the model's own"
                + " replications of the run's size."));
        for (ReportAnalysis.Matched entry : analysis.matched) {
            if (entry instanceof ReportAnalysis.Compared c) {
                comparison(c);
            } else if (entry instanceof ReportAnalysis.NotSimulated n) {
                body.paragraph("No simulation of the fitted model for " + n.measured().name() + ": " + n.reason() + ".");
            }
        }
        if (analysis.matched.isEmpty()) {
            body.paragraph("Needs measured runs and either simulated runs with the same workload (same mode, rate or N within 5%)"
                    + " or a fitted model to simulate.");
        }
    }

    private void comparison(ReportAnalysis.Compared c) throws IOException {
        RunData m = c.measured();
        Map<String, Histogram> cdfs = new LinkedHashMap<>();
        // title and legend alike in every chart (the caption names the run): the page draws their glyphs once
        cdfs.put("measured", m.responseNanos());
        cdfs.put(c.simulatedName(), c.simulated());
        if (drawnInTheLead.contains(m)) {
            // the same simulation's CDF, with its band, leads the page: drawn once (a report stays under 1 MB)
            body.paragraph("Response-time CDF of " + m.name() + " against " + c.simulatedName() + ": the picture of its held-out load at the"
                    + " top of the page.");
        } else {
            chart((c.ofModel() ? "cdf-model-" : "cdf-") + slug(m.name()), Charts.cdf("Response-time CDF", cdfs),
                    "Response-time CDF of " + m.name() + ", measured vs " + c.simulatedName() + " (" + RunShape.of(m) + "; seed 004, figure 5).");
        }
        List<List<String>> rows = new ArrayList<>();
        for (Verdict v : c.comparison().rows()) {
            java.util.function.DoubleFunction<String> cell = v.unit().equals("s") ? Html::millis : Html::number;
            rows.add(List.of(v.metric(), cell.apply(v.measured()), cell.apply(v.simulated()), cell.apply(v.distance()),
                    cell.apply(v.yardstick()), v.unit().equals("s") ? "ms" : v.unit(), v.verdict()));
        }
        body.table(List.of("metric", "measured", "simulated", "distance", "yardstick (95%)", "unit", "verdict"), rows);
        int pairs = c.comparison().yardstickPairs();
        body.paragraph("Yardstick: " + c.yardstick().description() + ", compared in " + pairs + " pairs"
                + (pairs == 0 ? " (the simulated run is too short: simulate at least " + 4 * m.okCount() + " requests)" : "")
                + "; a distance at or below the pairs' 95th percentile is within simulation noise.");
    }

    private void closedSection() throws IOException {
        body.heading("Closed runs: N/T and N/P");
        ReportAnalysis.ClosedCurves closed = analysis.closed;
        if (closed.responseMillis().isEmpty()) {
            body.paragraph("No closed runs among the inputs (a closed sweep gives these curves).");
            return;
        }
        Map<String, double[][]> ntModel = new LinkedHashMap<>(), npModel = new LinkedHashMap<>();
        closed.model().ifPresent(m -> {
            ntModel.put(m.name(), new double[][] {m.jobs(), java.util.Arrays.stream(m.responseSeconds()).map(v -> 1e3 * v).toArray()});
            npModel.put(m.name(), new double[][] {m.jobs(), m.throughput()});
        });
        String modelNote = closed.model().map(m -> " The line is the " + m.name() + ".")
                .orElse(!closed.anyMeasured() ? "" : " No model line: it needs an identified M/M/1 fit of open runs or a DPB fit.");
        chart("n-t", Charts.closedCurve("N/T: mean response time vs concurrent requests", "mean response time (ms)",
                closed.responseMillis(), ntModel), "N/T of the closed runs, measured and simulated (seed 004, figures 2 and 6)." + modelNote);
        chart("n-p", Charts.closedCurve("N/P: throughput vs concurrent requests", "throughput (1/s)", closed.throughput(), npModel),
                "N/P of the closed runs, measured and simulated (seed 004, figures 2 and 6)." + modelNote);
    }

    private void chart(String id, XYChart chart, String caption) throws IOException {
        body.raw(figures.figure(id, chart, caption));
    }

    private static String slug(String name) {
        return Html.anchor(name);
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
