package io.queuelab.reports.report;

import io.queuelab.core.telemetry.ResourceUse;
import io.queuelab.fit.compare.Comparison;
import io.queuelab.fit.compare.LittlesLawCheck;
import io.queuelab.fit.compare.Replications;
import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.runs.RunShape;
import io.queuelab.fit.runs.MachineStalls;
import io.queuelab.fit.runs.SecondPass;
import io.queuelab.fit.runs.ServerTelemetry;
import io.queuelab.fit.runs.SteadyState;
import io.queuelab.fit.DpbFit;
import io.queuelab.fit.Fits;
import io.queuelab.fit.FlushDetector;
import io.queuelab.fit.Flushes;
import io.queuelab.fit.CandidateFit;
import io.queuelab.fit.CandidateModels;
import io.queuelab.fit.ClientTime;
import io.queuelab.fit.FitData;
import io.queuelab.fit.HeldOutValidation;
import io.queuelab.fit.LackOfFit;
import io.queuelab.fit.LoadDependentFit;
import io.queuelab.fit.SystemLimits;
import io.queuelab.fit.TestedFit;
import io.queuelab.fit.Mm1Fits;
import io.queuelab.fit.Mm1Point;
import io.queuelab.fit.ModelFit;
import io.queuelab.fit.PauseCauses;
import io.queuelab.fit.RepeatedRuns;
import io.queuelab.fit.RunPrediction;
import io.queuelab.sim.FittedModel;
import io.queuelab.sim.Simulation;
import io.queuelab.sim.SimulationResult;
import io.queuelab.sim.ArrivalProcess;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What the report computes from its runs, before a line of it is written: the runs in the report's
 * order, the merged histograms, Little's law per window, the steady state per phase, the M/M/1 and
 * dirty-page-buffer fits, the flushes of each run, the comparisons of measured runs with simulated
 * ones or with a simulation of the fitted model, and the closed runs' N/T and N/P.
 *
 * <p>Guarantees: the same runs give the same analysis (every simulation has a fixed seed); a figure
 * that cannot be computed (a fit that fails, a model with no steady state at a run's rate) is kept
 * as its reason rather than thrown, so the report can say what it could not compute; nothing is
 * written. Each run's log is read twice at most: by {@link RunData} and once more by
 * {@link SecondPass} (the steady state, and the arrivals of a run simulated trace-driven).
 */
final class ReportAnalysis {
    /** Response-time-vs-time charts drawn at most (measured runs first). */
    static final int MAX_TIME_CHARTS = 12;
    /** Simulated replications (segments) per yardstick. */
    static final int YARDSTICK_REPLICATIONS = 20;
    /** Seed of the yardstick's replications: fixed, so a report is reproducible. */
    static final long YARDSTICK_SEED = HeldOutValidation.DEFAULT_SEED;
    /** Measured runs compared with a simulation of the fitted model at most. */
    static final int MAX_MODEL_COMPARISONS = 6;
    /** Measured runs compared with the selected model's prediction at most (the demo's open and closed sweeps: 13). */
    static final int MAX_SELECTED_COMPARISONS = 16;

    /** Open runs before closed ones, each by rate or N. */
    private static final Comparator<RunData> BY_WORKLOAD = Comparator.comparing((RunData r) -> RunShape.of(r).closed())
            .thenComparingDouble(r -> RunShape.of(r).level());

    /** Little's law windows of one run. */
    record LittleWindows(RunData run, double windowSeconds, List<LittlesLawCheck.Window> windows) {
        List<LittlesLawCheck.Window> flagged() {
            return windows.stream().filter(LittlesLawCheck.Window::flagged).toList();
        }
    }

    /** The steady state of each phase of one run. */
    record SteadyPhases(RunData run, List<SteadyState.Phase> phases) {
    }

    /**
     * The M/M/1 fits of the measured open runs (the paper's and the joint one; a fit that failed is
     * one whose identification says why), each with its lack-of-fit verdict, and the load-dependent
     * fit when there are three points or more.
     */
    record Mm1Analysis(List<Mm1Point> points, List<ModelFit> fits, Optional<ModelFit> loadDependent, Optional<String> notFitted) {
        Mm1Analysis(List<Mm1Point> points, List<ModelFit> fits, Optional<ModelFit> loadDependent) {
            this(points, fits, loadDependent, Optional.empty());
        }

        /** Whether the points span two arrival rates or more: with fewer there is nothing to fit. */
        boolean enoughPoints() {
            return points.stream().map(Mm1Point::lambda).distinct().count() >= 2;
        }

        /** The identified joint fit, the one the report simulates. */
        Optional<ModelFit> forSimulation() {
            return fits.stream().filter(f -> f.method().startsWith("joint") && f.identified()).findFirst();
        }
    }

    /**
     * What the models predict for measured runs they were not fitted to (as {@code queuelab
     * validate}): the outcome, and which runs were fitted and held out, or why there is none.
     */
    record HeldOut(Optional<HeldOutValidation.Result> result, String plan, List<RunData> fitRuns, List<RunData> heldOutRuns) {
        HeldOut(Optional<HeldOutValidation.Result> result, String plan) {
            this(result, plan, List.of(), List.of());
        }

        /** The selected model's outcome, when a model was selected. */
        Optional<HeldOutValidation.ModelOutcome> selected() {
            return result.filter(r -> r.selected() != null).map(r -> r.model(r.selected()));
        }
    }

    /**
     * Fits every model on the measured open runs but those of two loads (the third and the last but
     * one by configured rate, the measured one for a run that does not say: 0.5 and 0.8 X_max of the
     * demo's 0.1, 0.3, 0.5, 0.7, 0.8, 0.9; every run made at such a load, the demo's repeats
     * included) and predicts those and every measured closed run.
     * Open runs that measured a saturated server are neither ({@link FitData#steadyOpen}); the plan
     * names them.
     */
    private static HeldOut heldOut(List<RunData> measured, List<RunData> roundTrips) throws IOException {
        Map<String, List<RunData>> byLoad = new LinkedHashMap<>();
        // by the configured rate, as the sweep chose its repeats: two loads close in rate may measure in either order
        measured.stream().filter(FitData::steadyOpen)
                .sorted(Comparator.comparingDouble(r -> RunShape.configuredRate(r).orElse(r.arrivalRate())))
                .forEach(r -> byLoad.computeIfAbsent(RepeatedRuns.configuredLoad(r).orElse(r.name()), k -> new ArrayList<>()).add(r));
        List<String> saturated = measured.stream().filter(FitData::saturatedOpen).map(RunData::name).toList();
        String leftOut = saturated.isEmpty() ? "" : " Left out, the server saturated (a queue that grew through the run, no steady state"
                + " to fit or predict; see the self-check): " + String.join(", ", saturated) + ".";
        List<List<RunData>> loads = new ArrayList<>(byLoad.values());
        List<List<RunData>> heldLoads = HeldOutValidation.heldOutLoads(loads);
        if (heldLoads.isEmpty()) {
            return new HeldOut(Optional.empty(), "Needs measured open runs at " + HeldOutValidation.MIN_LOADS_TO_HOLD_OUT
                    + " or more rates (a rate sweep) to fit on some and predict others; found " + loads.size() + "." + leftOut);
        }
        List<RunData> held = new ArrayList<>(heldLoads.stream().flatMap(List::stream).toList());
        List<RunData> fit = loads.stream().flatMap(List::stream).filter(r -> !held.contains(r)).toList();
        measured.stream().filter(r -> RunShape.of(r).closed() && r.okCount() > 0).forEach(held::add);
        String plan = "Fitted on " + String.join(", ", fit.stream().map(RunData::name).toList()) + "; predicted from their rate or N alone: "
                + String.join(", ", held.stream().map(RunData::name).toList()) + "." + leftOut;
        try {
            List<RunData> fitAndTrip = new ArrayList<>(fit);
            fitAndTrip.addAll(roundTrips);
            return new HeldOut(Optional.of(HeldOutValidation.of(fitAndTrip, held, held.stream().map(RunData::name).toList(),
                    CandidateModels.STANDARD.all(), SystemLimits.of(fit, null, null), YARDSTICK_SEED)), plan, fit, held);
        } catch (IllegalArgumentException e) {
            return new HeldOut(Optional.empty(), "No held-out validation: " + e.getMessage() + ".");
        }
    }

    /** The dirty-page-buffer fit: the three runs it needs, and the fit or why it failed. */
    record DpbAnalysis(Optional<RunData> open, Optional<RunData> closedHigh, Optional<RunData> single, Optional<DpbFit> fit,
                       Optional<String> failure, Optional<LackOfFit> verdict) {
        boolean hasRuns() {
            return open.isPresent() && closedHigh.isPresent() && single.isPresent();
        }

        /** The identified fit, the one the report simulates. */
        Optional<DpbFit> forSimulation() {
            return fit.filter(f -> f.identification().identified());
        }
    }

    /**
     * One run's response time vs time: its flushes (null when detection failed, with the reason in
     * {@code flushFailure}), the pauses' causes, the server's telemetry and the host resources.
     */
    record TimeLine(RunData run, Flushes flushes, String flushFailure, Optional<PauseCauses> causes,
                    Optional<ServerTelemetry> telemetry, Optional<ResourceUse> resources) {
    }

    /** One entry of the measured-vs-simulated section, in order. */
    sealed interface Matched permits Compared, NotSimulated {
    }

    /**
     * A measured run against a simulated histogram: a simulated run of the same shape
     * ({@code ofModel} false) or a simulation of the fitted model.
     */
    record Compared(RunData measured, String simulatedName, Histogram simulated, boolean ofModel,
                    Replications.Yardstick yardstick, Comparison comparison) implements Matched {
    }

    /** A measured run the fitted model could not be simulated for, and why. */
    record NotSimulated(RunData measured, String reason) implements Matched {
    }

    /**
     * The closed runs' mean response time and throughput vs N, per kind of run ("measured",
     * "simulated": N, then the value), and the model's curves when there is a fit to draw.
     */
    record ClosedCurves(Map<String, double[][]> responseMillis, Map<String, double[][]> throughput, boolean anyMeasured,
                        Optional<ClosedModelCurves> model) {
    }

    final List<RunData> runs;
    final List<RunData> measured;
    final List<RunData> simulated;
    /** Merged response-time histograms of every group of more than one run, by the group's name. */
    final Map<String, Histogram> merged = new LinkedHashMap<>();
    final List<LittleWindows> little = new ArrayList<>();
    final List<SteadyPhases> steady = new ArrayList<>();
    final HeldOut heldOut;
    final Mm1Analysis mm1;
    final DpbAnalysis dpb;
    /** The first {@link #MAX_TIME_CHARTS} runs' time lines. */
    final List<TimeLine> timeLines = new ArrayList<>();
    /** Host resources of the measured runs that sampled them. */
    final Map<RunData, ResourceUse> resources = new LinkedHashMap<>();
    final List<Matched> matched = new ArrayList<>();
    final ClosedCurves closed;
    /** The selected model's mean and p99 against the open arrival rate; empty when no model was selected. */
    final Optional<OpenModelCurves> openCurves;
    /** The instants each run's client stopped with a request due and a connection free (none for a simulated run). */
    final Map<RunData, MachineStalls> stalls = new LinkedHashMap<>();

    /**
     * The round trip among the runs given (a run of {@code SELECT 1}, {@link ClientTime}): the client time the models take,
     * not a run of the workload, so none of the report's tables and fits has it.
     */
    final List<RunData> roundTrips;

    private ReportAnalysis(List<RunData> given) throws IOException {
        roundTrips = given.stream().filter(ClientTime::isRoundTrip).toList();
        List<RunData> unordered = ClientTime.withoutRoundTrips(given);
        runs = unordered.stream().sorted(Comparator.comparing(RunData::simulated).thenComparing(BY_WORKLOAD)).toList();
        measured = runs.stream().filter(r -> !r.simulated()).toList();
        simulated = runs.stream().filter(RunData::simulated).toList();
        for (var group : List.of(Map.entry("all measured runs (merged histograms)", measured),
                Map.entry("all simulated runs (merged histograms)", simulated))) {
            if (group.getValue().size() > 1) {
                merged.put(group.getKey(), RunData.mergedResponseNanos(group.getValue()));
            }
        }
        for (RunData r : runs) {
            little.add(new LittleWindows(r, LittlesLawCheck.defaultWindowSeconds(r), LittlesLawCheck.check(r)));
        }
        for (RunData r : measured) {
            Optional<ResourceUse> use = Files.isDirectory(r.source()) ? ResourceUse.read(r.source()) : Optional.empty();
            use.ifPresent(u -> resources.put(r, u));
        }
        // runs of different workloads or servers are shown side by side, never fitted together (validate and fit refuse them)
        Optional<String> mixed = HeldOutValidation.mixedRuns(measured);
        if (mixed.isPresent()) {
            String why = mixed.get() + ": a report shows them side by side, never in one fit";
            heldOut = new HeldOut(Optional.empty(), "No held-out validation: " + why + ".");
            mm1 = new Mm1Analysis(Fits.mm1Points(measured), List.of(), Optional.empty(), Optional.of(why));
            dpb = new DpbAnalysis(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(why), Optional.empty());
        } else {
            heldOut = heldOut(measured, roundTrips);
            mm1 = mm1(measured);
            dpb = dpb(measured);
        }
        List<Matched> withSelected = withSelectedModel();
        List<Planned> plan = plan(withSelected.isEmpty());
        Map<RunData, Matched> withModel = new LinkedHashMap<>();
        for (RunData r : runs) {
            // the second and last read of each log: the steady state, and the arrivals of a run simulated trace-driven
            Optional<Planned> simulatedRun = plan.stream().filter(p -> p.measured() == r && p.twin().isEmpty()).findFirst();
            boolean traced = simulatedRun.isPresent() && traceable(r);
            // K as the run configured it: one inferred from the log's own concurrency would make "a connection free" hold always
            SecondPass pass = SecondPass.read(r, traced, r.simulated() ? 0 : SystemLimits.configuredConnections(r));
            steady.add(new SteadyPhases(r, pass.steadyState().phases()));
            stalls.put(r, pass.stalls());
            if (simulatedRun.isPresent()) {
                withModel.put(r, withFittedModel(r, pass.arrivalInstants()));
            }
        }
        for (Planned p : plan) {
            matched.add(p.twin().isPresent() ? compared(p.measured(), p.twin().get()) : withModel.get(p.measured()));
        }
        matched.addAll(withSelected);
        for (RunData r : runs.subList(0, Math.min(MAX_TIME_CHARTS, runs.size()))) {
            timeLines.add(timeLine(r));
        }
        closed = closed();
        openCurves = heldOut.selected().isPresent() ? OpenModelCurves.predicted(heldOut.selected().get(), YARDSTICK_SEED - 3)
                : Optional.empty();
    }

    /** Computes every figure of the report of these runs. */
    static ReportAnalysis of(List<RunData> runs) throws IOException {
        return new ReportAnalysis(runs);
    }

    /**
     * The report's lead in a few lines of text, for a terminal: the selected model, its held-out
     * error and whether it fits its runs, and its prediction of each held-out run (mean and p99
     * against the measured, the CDF's verdict, a closed run's X(N)); or why there is none. The
     * numbers are the report's own.
     */
    List<String> headline() {
        if (heldOut.result().isEmpty()) {
            return List.of("held out: " + heldOut.plan());
        }
        Optional<HeldOutValidation.ModelOutcome> selected = heldOut.selected();
        if (selected.isEmpty()) {
            return List.of("held out: no model is identified by the fit runs (" + heldOut.fitRuns().size() + " runs)");
        }
        HeldOutValidation.ModelOutcome o = selected.get();
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "selected model: %s, held-out error %s; %s", o.fit().name(),
                o.describeHeldOutError(), o.fit().fit().fits() ? "it fits its runs" : o.fit().fit().fitVerdict()));
        for (RunPrediction p : o.predictions()) {
            String load = p.closed() ? "N = " + (int) p.level() : String.format(Locale.ROOT, "%.4g/s", p.level());
            if (p.saturated()) {
                lines.add(String.format(Locale.ROOT, "  %s (%s): the %s", p.name(), load, p.cdfVerdict()));
                continue;
            }
            lines.add(String.format(Locale.ROOT, "  %s (%s): mean %.3g ms, predicted %.3g (%+.1f %%); p99 %.3g ms, predicted %.3g"
                            + " (%+.1f %%); CDF %s%s", p.name(), load, 1e3 * p.measuredMean(), 1e3 * p.predictedMean(), 100 * p.meanError(),
                    1e3 * p.measuredP99(), 1e3 * p.predictedP99(), 100 * p.p99Error(), p.cdfVerdict(),
                    p.closed() ? String.format(Locale.ROOT, "; X(N) %.4g/s, predicted %.4g/s (%+.1f %%)", p.measuredThroughput(),
                            p.predictedThroughput(), 100 * p.throughputError()) : ""));
        }
        return lines;
    }

    private static Mm1Analysis mm1(List<RunData> measured) throws IOException {
        List<Mm1Point> points = Fits.mm1Points(measured);
        List<ModelFit> fits = new ArrayList<>();
        Optional<ModelFit> loadDependent = Optional.empty();
        Mm1Analysis unfitted = new Mm1Analysis(points, fits, loadDependent);
        if (!unfitted.enoughPoints()) {
            return unfitted;
        }
        // each fit with its lack-of-fit verdict: the runs' CDFs against the fitted model's (fit mm1 does the same)
        FitData data = FitData.of(measured, SystemLimits.of(measured, null, null), YARDSTICK_SEED);
        for (TestedFit tested : TestedFit.all(CandidateModels.STANDARD.named("mm1-paper,mm1"), data)) {
            fits.add(tested.fit().fit());
        }
        if (points.size() >= 3) {
            loadDependent = Optional.of(TestedFit.of(CandidateModels.loadDependent(LoadDependentFit.DEFAULT_CAPACITY, null).fit(data), data)
                    .fit().fit());
        }
        return new Mm1Analysis(points, fits, loadDependent);
    }

    private static DpbAnalysis dpb(List<RunData> measured) throws IOException {
        Optional<RunData> open = measured.stream().filter(r -> RunShape.of(r).open()).max(Comparator.comparingDouble(RunData::arrivalRate));
        Optional<RunData> closedHigh = measured.stream().filter(r -> RunShape.of(r).closed() && RunShape.of(r).jobs() >= 10)
                .max(Comparator.comparingInt(r -> RunShape.of(r).jobs()));
        Optional<RunData> single = measured.stream().filter(r -> RunShape.of(r).closed() && RunShape.of(r).jobs() == 1).findFirst();
        DpbAnalysis unfitted = new DpbAnalysis(open, closedHigh, single, Optional.empty(), Optional.empty(), Optional.empty());
        if (!unfitted.hasRuns()) {
            return unfitted;
        }
        DpbFit fit;
        try {
            fit = DpbFit.fit(open.get(), closedHigh.get(), single.get());
        } catch (RuntimeException e) {
            return new DpbAnalysis(open, closedHigh, single, Optional.empty(), Optional.of(String.valueOf(e.getMessage())), Optional.empty());
        }
        Optional<LackOfFit> verdict = fit.identification().identified()
                ? Optional.of(fit.tested(open.get(), List.of(), YARDSTICK_SEED).lackOfFit()) : Optional.empty();
        return new DpbAnalysis(open, closedHigh, single, Optional.of(fit), Optional.empty(), verdict);
    }

    private TimeLine timeLine(RunData r) throws IOException {
        Optional<ServerTelemetry> telemetry = ServerTelemetry.of(r);
        Flushes flushes = null;
        String failure = null;
        Optional<PauseCauses> causes = Optional.empty();
        try {
            flushes = FlushDetector.detect(r); // the detector of fit dpb, so both give one answer on one log
            causes = PauseCauses.of(r, flushes, telemetry);
        } catch (RuntimeException e) {
            failure = e.getMessage();
        }
        return new TimeLine(r, flushes, failure, causes, telemetry, Optional.ofNullable(resources.get(r)));
    }

    /** A measured run to compare: with its simulated twin, or (no twin) with a simulation of the fitted model. */
    private record Planned(RunData measured, Optional<RunData> twin) {
    }

    /**
     * The model the held-out validation selected against every run it was fitted to or predicted
     * (in the report's order, at most {@link #MAX_SELECTED_COMPARISONS}): each run's CDF against the
     * model's prediction of it, from its rate or N alone, with the yardstick of the model's own
     * replications of the run's size; the simulations and the KS D of the held-out table. Empty
     * when no model was selected.
     */
    private List<Matched> withSelectedModel() throws IOException {
        Optional<HeldOutValidation.ModelOutcome> selected = heldOut.selected();
        if (selected.isEmpty()) {
            return List.of();
        }
        CandidateFit fit = selected.get().fit();
        // simulated again (same model, run and seed: the same histograms) rather than kept from the validation, which would
        // hold every candidate's histograms of every run until one is selected
        List<RunData> judged = new ArrayList<>(heldOut.fitRuns());
        judged.addAll(heldOut.heldOutRuns());
        List<Matched> out = new ArrayList<>();
        for (RunData m : judged.stream().sorted(BY_WORKLOAD).limit(MAX_SELECTED_COMPARISONS).toList()) {
            String name = fit.name() + (heldOut.fitRuns().contains(m) ? ", fitted to this run" : ", predicted (held out)");
            RunPrediction.Simulated simulated = RunPrediction.simulate(m, fit.modelFor(m), YARDSTICK_SEED);
            if (simulated.saturated()) {
                out.add(new NotSimulated(m, fit.name() + " " + simulated.saturation()));
                continue;
            }
            List<Histogram> replications = simulated.replications();
            Replications.Yardstick yardstick = new Replications.Yardstick(replications, replications.size() + " independent replications of "
                    + Replications.describe(Replications.replicationSize(m.okCount()), m.okCount()) + " by model-sim of " + fit.name() + " ("
                    + RunShape.of(m) + ")");
            out.add(compared(m, name, simulated.prediction().responseNanos(), true, yardstick));
        }
        return out;
    }

    /**
     * The comparisons to make, in the order of the measured runs: each with a simulated run of the
     * same shape, else, when {@code withFittedModel} (no model selected by the held-out validation),
     * for at most {@link #MAX_MODEL_COMPARISONS} runs, with the fitted M/M/1 or DPB model.
     */
    private List<Planned> plan(boolean withFittedModel) {
        List<Planned> plan = new ArrayList<>();
        int modelComparisons = 0;
        for (RunData m : measured) {
            RunShape shape = RunShape.of(m);
            Optional<RunData> twin = simulated.stream().filter(s -> sameShape(shape, RunShape.of(s))).findFirst();
            if (twin.isPresent()) {
                plan.add(new Planned(m, twin));
            } else if (withFittedModel && modelComparisons < MAX_MODEL_COMPARISONS && m.okCount() > 0
                    && (dpb.forSimulation().isPresent() || (mm1.forSimulation().isPresent() && shape.open()))) {
                modelComparisons++;
                plan.add(new Planned(m, Optional.empty()));
            }
        }
        return plan;
    }

    private static Compared compared(RunData m, RunData twin) throws IOException {
        return compared(m, "simulated " + twin.name(), twin.responseNanos(), false,
                Replications.forSimulatedRun(twin, m.okCount(), YARDSTICK_REPLICATIONS, YARDSTICK_SEED));
    }

    /** An open run of a run directory is simulated under its own arrival instants. */
    private static boolean traceable(RunData m) {
        return RunShape.of(m).open() && Files.isDirectory(m.source());
    }

    private Matched withFittedModel(RunData m, long[] arrivalInstants) throws IOException {
        try {
            return withFittedModel(m, RunShape.of(m), mm1.forSimulation(), dpb.forSimulation(), arrivalInstants);
        } catch (IllegalArgumentException unstable) {
            // e.g. a fitted model whose capacity is below this run's rate: no steady state to simulate
            return new NotSimulated(m, unstable.getMessage());
        }
    }

    /**
     * Simulates the fitted model (DPB if fitted, else the modified M/M/1) under the measured run's
     * own arrival instants (trace-driven) for an open run, or with its N for a closed run.
     */
    private static Compared withFittedModel(RunData m, RunShape shape, Optional<ModelFit> mm1, Optional<DpbFit> dpb,
                                            long[] arrivalInstants) throws IOException {
        FittedModel model = dpb.isPresent() ? dpb.get().fitted() : Mm1Fits.fitted("mm1", mm1.get());
        String modelName = dpb.isPresent() ? "fitted DPB model" : "fitted modified M/M/1";
        boolean traceable = traceable(m);
        ArrivalProcess arrivalProcess = shape.closed() ? ArrivalProcess.closed(shape.jobs())
                : traceable ? new ArrivalProcess.Trace(arrivalInstants) : ArrivalProcess.open(shape.level());
        Simulation simulation = model.simulation(arrivalProcess).seed(YARDSTICK_SEED - 1);
        // a trace ends by itself; a closed run lasts as long as the measured one; an open run of a CSV log has no
        // trace to replay, so it gets as many customers as the log has successful requests
        SimulationResult result = (shape.closed() ? simulation.duration(Math.max(1, m.spanSeconds()))
                : traceable ? simulation : simulation.customers(m.okCount())).run();
        ArrivalProcess replicated = shape.closed() ? arrivalProcess : ArrivalProcess.open(shape.level());
        long size = Replications.replicationSize(m.okCount());
        Replications.Yardstick yardstick = new Replications.Yardstick(
                model.replications(replicated, size, YARDSTICK_REPLICATIONS, YARDSTICK_SEED),
                YARDSTICK_REPLICATIONS + " independent replications of " + Replications.describe(size, m.okCount()) + " by model-sim of the "
                        + modelName + " (" + replicated.mode() + ")");
        return compared(m, modelName + (traceable ? " (trace-driven)" : ""), result.responseTimes(), true, yardstick);
    }

    private static Compared compared(RunData m, String simulatedName, Histogram simulated, boolean ofModel,
                                     Replications.Yardstick yardstick) {
        List<Histogram> replications = yardstick.replications();
        Comparison c = Comparison.of(m.name(), m.responseNanos(), simulatedName, simulated,
                replications.size() >= 2 ? replications : List.of());
        return new Compared(m, simulatedName, simulated, ofModel, yardstick, c);
    }

    private static boolean sameShape(RunShape a, RunShape b) {
        return a.closed() == b.closed() && Math.abs(a.level() - b.level()) <= 0.05 * Math.max(a.level(), b.level());
    }

    private ClosedCurves closed() throws IOException {
        Map<String, double[][]> nt = new LinkedHashMap<>();
        Map<String, double[][]> np = new LinkedHashMap<>();
        for (var group : List.of(Map.entry("measured", measured), Map.entry("simulated", simulated))) {
            List<RunData> closedRuns = closedByJobs(group.getValue());
            if (closedRuns.isEmpty()) {
                continue;
            }
            double[] n = closedRuns.stream().mapToDouble(r -> RunShape.of(r).jobs()).toArray();
            nt.put(group.getKey(), new double[][] {n, closedRuns.stream().mapToDouble(r -> 1e3 * r.meanResponseSeconds()).toArray()});
            np.put(group.getKey(), new double[][] {n, closedRuns.stream().mapToDouble(RunData::throughput).toArray()});
        }
        List<RunData> closedMeasured = closedByJobs(measured);
        Optional<ClosedModelCurves> predicted = heldOut.selected().flatMap(ClosedModelCurves::predicted);
        Optional<ClosedModelCurves> model = nt.isEmpty() || closedMeasured.isEmpty() ? Optional.empty()
                : predicted.isPresent() ? predicted : ClosedModelCurves.of(closedMeasured, mm1.forSimulation(), dpb.forSimulation(), YARDSTICK_SEED - 2);
        return new ClosedCurves(nt, np, !closedMeasured.isEmpty(), model);
    }

    private static List<RunData> closedByJobs(List<RunData> runs) {
        return runs.stream().filter(r -> RunShape.of(r).closed()).sorted(Comparator.comparingInt(r -> RunShape.of(r).jobs())).toList();
    }
}
