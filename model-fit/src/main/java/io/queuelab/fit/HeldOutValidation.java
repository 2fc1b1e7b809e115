package io.queuelab.fit;

import io.queuelab.core.manifest.BackendInfo;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.fit.runs.RunArguments;
import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.runs.RunShape;
import io.queuelab.fit.runs.ServerWork;
import io.queuelab.sim.FittedModel;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code queuelab validate}: fits every candidate model on some runs and judges it by what it
 * predicts for runs it was not fitted to (the held-out runs), from their workload alone.
 *
 * <p>Per model: the fit's two verdicts (identified; fits, {@link LackOfFit}), and per held-out run
 * the measured and predicted mean, p50 and p99 and the CDF distance against the yardstick
 * ({@link RunPrediction}). The selected model is the identified one with the smallest held-out
 * error (the mean over held-out runs of the relative errors of mean, p50 and p99, plus the KS D by
 * which the predicted CDF lies beyond its yardstick: {@link RunPrediction#error}); a model within
 * {@link #TIE} of a simpler one loses to it.
 */
public final class HeldOutValidation {
    /** Held-out errors closer than this (absolute, e.g. 0.5 percentage points) are a tie, won by the simpler model. */
    public static final double TIE = 0.005;
    /**
     * The seed of every simulation of a validation unless one is chosen: the report's, so that
     * {@code queuelab validate} on a report's runs prints the report's numbers (a model's prediction
     * moves with the seed by its simulation noise, a few per cent at a busy load).
     */
    public static final long DEFAULT_SEED = 1_000_003;

    /** The most cores a server may be said to have: the largest NR_CPUS a Linux kernel is built with. */
    public static final int MAX_SERVER_CORES = 8192;

    /** The fewest open loads of a rate sweep that {@link #heldOutLoads} holds two of out. */
    public static final int MIN_LOADS_TO_HOLD_OUT = 5;

    /**
     * The loads of a rate sweep (in order of rate) that the report holds out and the demo runs again:
     * the third and the last but one (0.5 and 0.8 X_max of the demo's 0.1, 0.3, 0.5, 0.7, 0.8, 0.9),
     * so that fit loads lie on both sides of each; none with fewer than {@link #MIN_LOADS_TO_HOLD_OUT}.
     */
    public static <T> List<T> heldOutLoads(List<T> loadsByRate) {
        int n = loadsByRate.size();
        return n < MIN_LOADS_TO_HOLD_OUT ? List.of() : List.of(loadsByRate.get(2), loadsByRate.get(n - 2));
    }

    /** One model's outcome. */
    public record ModelOutcome(CandidateFit fit, List<RunPrediction> fitRuns, List<RunPrediction> predictions) {
        /** The mean held-out error; infinite for a model that predicts nothing or cannot carry a held-out load (a miss). */
        public double heldOutError() {
            return predictions.isEmpty() ? Double.POSITIVE_INFINITY
                    : predictions.stream().mapToDouble(RunPrediction::error).average().orElseThrow();
        }

        /** The held-out error in words: "12.3 %", or the loads the model could not carry. */
        public String describeHeldOutError() {
            long saturated = predictions.stream().filter(RunPrediction::saturated).count();
            return saturated > 0 ? String.format(Locale.ROOT, "a miss: the model saturates at %d of the %d held-out runs", saturated,
                    predictions.size()) : String.format(Locale.ROOT, "%.1f %%", 100 * heldOutError());
        }
    }

    /**
     * The outcome of a validation: each model's, the limits used, the selected model's name (null
     * when none is identified), and the fit runs' server ({@link FitServer}: the medians of their
     * cpu speed and cpu time per request, and their cpu per request by load), against which each
     * held-out run's own is compared: a model of one server fitted on its runs cannot be held to a
     * run that measured another (a slower cpu, or more work per request than at the same load); and
     * the held-out runs made at one load more than once ({@link RepeatedRuns}: the server's own
     * run-to-run spread, which each model's prediction of that load is judged against); and a note
     * for each run left out of the fit or of the predictions ({@link FitData#leftOut}: one that
     * measured nothing, or a growing queue); and the notes on runs used but not vouched for
     * ({@link RunNotes}: a damaged log, servers or hosts that differ).
     */
    public record Result(SystemLimits limits, List<ModelOutcome> models, String selected, FitServer fitServer,
                         List<RepeatedRuns.Group> repeats, List<String> leftOut, List<String> notes, Optional<ClientTime> clientTime) {
        public ModelOutcome model(String name) {
            return models.stream().filter(m -> m.fit().name().equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no model " + name));
        }
    }

    private HeldOutValidation() {
    }

    /**
     * Validates {@code models} fitted on the runs of {@code fit} (run or sweep directories, CSV
     * logs) against the runs of {@code holdout}. Bad input is an IllegalArgumentException with a
     * one-line message.
     */
    public static Result run(List<Path> fit, List<Path> holdout, List<CandidateModel> models, Integer connections, Integer cores,
                             long seed) throws IOException {
        if (connections != null && connections < 1) {
            throw new IllegalArgumentException("--connections must be a whole number of at least 1, got " + connections);
        }
        if (cores != null && (cores < 1 || cores > MAX_SERVER_CORES)) {
            throw new IllegalArgumentException("--server-cores must be a whole number from 1 to " + MAX_SERVER_CORES
                    + " (the most cpus a Linux kernel is built for, NR_CPUS), got " + cores);
        }
        List<Path> fitRuns = RunArguments.expand(fit);
        List<Path> heldOut = RunArguments.expand(holdout);
        if (heldOut.isEmpty()) {
            throw new IllegalArgumentException("give the held-out runs with --holdout RUN[,RUN...]");
        }
        RunArguments.refuseTwice(fitRuns, "each run is one point of the fit");
        RunArguments.refuseTwice(heldOut, "each held-out run is predicted once");
        for (Path h : heldOut) {
            for (Path f : fitRuns) {
                if (same(h, f)) {
                    throw new IllegalArgumentException("held-out run " + h + " is also a fit run: a model is judged on runs it was not fitted to");
                }
            }
        }
        List<RunData> fitData = RunArguments.read(fitRuns);
        List<RunData> heldOutData = RunArguments.read(heldOut);
        // the system's K and c are those of the runs fitted, not of the round trip's one connection
        return of(fitData, heldOutData, heldOut.stream().map(Path::toString).toList(), models,
                SystemLimits.of(ClientTime.withoutRoundTrips(fitData), connections, cores), seed);
    }

    /**
     * Validates {@code models} fitted on {@code fitRuns} against {@code heldOut} (named
     * {@code heldOutNames} in the outcome), runs already read. A round-trip run among the fit runs
     * is the client time ({@link ClientTime}) the models take, not a run to fit.
     */
    public static Result of(List<RunData> fitRuns, List<RunData> heldOut, List<String> heldOutNames, List<CandidateModel> models,
                            SystemLimits limits, long seed) throws IOException {
        for (RunData h : heldOut) {
            if (ClientTime.isRoundTrip(h)) {
                throw new IllegalArgumentException("held-out run " + h.name() + " is a round trip (SELECT 1), which measures the client time"
                        + " and predicts nothing: give it among the fit runs");
            }
        }
        ClientTime.Split trips = ClientTime.Split.of(fitRuns);
        for (RunData trip : trips.roundTrips()) {
            refuseOtherServer(trip, trips.runs());
        }
        fitRuns = trips.runs();
        List<RunData> all = new ArrayList<>(fitRuns);
        all.addAll(heldOut);
        refuseMixedRuns(all);
        List<String> allNames = new ArrayList<>(fitRuns.stream().map(RunData::name).toList());
        allNames.addAll(heldOutNames);
        List<String> notes = RunNotes.of(all, allNames);
        // a held-out run that measured a growing queue is no test of a steady-state prediction, as it is no point of a fit
        List<String> leftOut = new ArrayList<>(FitData.leftOut(fitRuns));
        List<RunData> predicted = new ArrayList<>();
        List<String> predictedNames = new ArrayList<>();
        for (int i = 0; i < heldOut.size(); i++) {
            RunData h = heldOut.get(i);
            if (FitData.saturatedOpen(h)) {
                leftOut.add("note: held-out run " + heldOutNames.get(i) + ": " + h.serverSaturation().orElseThrow()
                        + ": left out of the predictions, a steady-state model has no answer at its rate to compare");
            } else {
                predicted.add(h);
                predictedNames.add(heldOutNames.get(i));
            }
        }
        if (predicted.isEmpty()) {
            throw new IllegalArgumentException("every held-out run measured a saturated server (a queue that grew through it): nothing"
                    + " a steady-state model could be judged on");
        }
        heldOut = predicted;
        heldOutNames = predictedNames;
        FitData data = FitData.of(fitRuns, limits, seed).withClientTime(trips.clientTime()).requireRates(2, "validate");
        for (RunData h : heldOut) {
            if (h.okCount() == 0) {
                throw new IllegalArgumentException("held-out run " + h.source() + " has no successful request to predict");
            }
        }
        FitServer fitServer = FitServer.of(data);
        List<Optional<ServerWorkByInterval>> byInterval = new ArrayList<>();
        for (RunData h : heldOut) {
            byInterval.add(RunShape.of(h).open() ? ServerWorkByInterval.of(h) : Optional.empty());
        }
        List<RunData> predictedRuns = heldOut;
        List<String> predictedRunNames = heldOutNames;
        List<ModelOutcome> outcomes = evaluateEach(models,
                model -> evaluate(model, data, predictedRunNames, predictedRuns, byInterval, fitServer, seed));
        return new Result(data.limits(), outcomes, select(outcomes), fitServer, RepeatedRuns.of(heldOut, heldOutNames), List.copyOf(leftOut),
                notes, trips.clientTime());
    }

    /** One model's evaluation, which may read the runs again. */
    private interface Evaluation {
        ModelOutcome of(CandidateModel model) throws IOException;
    }

    /**
     * Every model's outcome, in the order of {@code models}, evaluated side by side on the machine's
     * cores: each model's fit and simulations are its own (seeded by {@code seed}, sharing only the
     * runs read, whose lazily read parts are synchronized), so the outcomes are those of one model
     * after another, in less time (validate on a demo's sweep spent nearly all of its 6-8 s fitting
     * and simulating, one model at a time, on one of two cores).
     */
    private static List<ModelOutcome> evaluateEach(List<CandidateModel> models, Evaluation evaluation) throws IOException {
        int threads = Math.min(models.size(), Runtime.getRuntime().availableProcessors());
        if (threads <= 1) {
            List<ModelOutcome> outcomes = new ArrayList<>();
            for (CandidateModel model : models) {
                outcomes.add(evaluation.of(model));
            }
            return outcomes;
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "queuelab-validate");
            t.setDaemon(true);
            return t;
        });
        try {
            // the list goes from the simplest model to the most elaborate, which cost the most (on a
            // demo's UPDATE sweep client-slice and group-commit took 5.5 and 4.5 s, mm1-ld and dpb
            // 0.1 s): started last, they would run on after the rest, one beside nothing
            List<java.util.concurrent.Future<ModelOutcome>> futures = new ArrayList<>(java.util.Collections.nCopies(models.size(), null));
            for (int i = models.size() - 1; i >= 0; i--) {
                CandidateModel model = models.get(i);
                futures.set(i, pool.submit(() -> evaluation.of(model)));
            }
            List<ModelOutcome> outcomes = new ArrayList<>();
            for (java.util.concurrent.Future<ModelOutcome> f : futures) {
                outcomes.add(f.get());
            }
            return outcomes;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the models were evaluated", e);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * One model's outcome; a model that cannot be fitted or simulated on these runs (an absurd
     * parameter the runs gave it, a load beyond a bound of the simulator) is that model's verdict,
     * "not identified" with the reason, and the other models go on.
     */
    private static ModelOutcome evaluate(CandidateModel candidate, FitData data, List<String> heldOutNames, List<RunData> heldOut,
                                         List<Optional<ServerWorkByInterval>> byInterval, FitServer fitServer, long seed) throws IOException {
        try {
            return evaluateOrThrow(candidate, data, heldOutNames, heldOut, byInterval, fitServer, seed);
        } catch (IllegalArgumentException | IllegalStateException e) {
            return new ModelOutcome(CandidateFit.unidentified(candidate, "not fitted", data.points(),
                    "the model could not be fitted or simulated on these runs: " + e.getMessage()), List.of(), List.of());
        }
    }

    private static ModelOutcome evaluateOrThrow(CandidateModel candidate, FitData data, List<String> heldOutNames, List<RunData> heldOut,
                                                List<Optional<ServerWorkByInterval>> byInterval, FitServer fitServer, long seed)
            throws IOException {
        TestedFit tested = TestedFit.of(candidate.fit(data), data);
        CandidateFit fit = tested.fit();
        if (!fit.identified()) {
            return new ModelOutcome(fit, List.of(), List.of());
        }
        List<RunPrediction> predictions = new ArrayList<>();
        for (int i = 0; i < heldOut.size(); i++) {
            RunData run = heldOut.get(i);
            String name = heldOutNames.get(i);
            FittedModel model = fit.modelFor(run);
            RunPrediction p = RunPrediction.of(name, run, model, seed);
            // at its own server: the run's cpu per request over what the model's demand was taken from
            ServerWork reference = candidate.demandFollowsLoad() ? fitServer.at(p) : fitServer.medians();
            double factor = p.server().demandFactor(reference);
            if (candidate.demandScalable() && Double.isFinite(factor)) {
                p = p.withOwnServer(run, model, factor, seed);
            }
            // the run's server interval by interval, against the same reference
            double perRequest = reference.cpuSecondsPerRequest();
            if (candidate.demandScalable() && byInterval.get(i).isPresent() && perRequest > 0 && Double.isFinite(perRequest)) {
                double overall = p.server().cpuSecondsPerRequest() / perRequest;
                ServerWorkByInterval w = byInterval.get(i).get();
                p = p.withServerReplay(run, model, w.periodSeconds(), w.factors(perRequest, Double.isFinite(overall) ? overall : 1),
                        w.measuredFrom(), seed);
            }
            predictions.add(p);
        }
        return new ModelOutcome(fit, tested.fitRuns(), predictions);
    }

    /** The identified model with the smallest held-out error; a later (less simple) one must beat it by more than {@link #TIE}. */
    static String select(List<ModelOutcome> outcomes) {
        ModelOutcome best = null;
        for (ModelOutcome o : outcomes) {
            if (!o.fit().identified() || !Double.isFinite(o.heldOutError())) {
                continue;
            }
            if (best == null || o.heldOutError() < best.heldOutError() - TIE) {
                best = o;
            }
        }
        return best == null ? null : best.fit().name();
    }

    private static boolean same(Path a, Path b) {
        try {
            return a.toRealPath().equals(b.toRealPath());
        } catch (IOException e) {
            return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
        }
    }

    /** Refuses runs whose manifests name different operations or servers: one model describes one workload on one server. */
    public static void refuseMixedRuns(List<RunData> runs) {
        mixedRuns(runs).ifPresent(why -> {
            throw new IllegalArgumentException(why);
        });
    }

    /**
     * Why {@code runs} cannot be fitted together ("runs of different workloads or servers mixed: A
     * has backend noop, B has mm1"), or empty when their manifests name one workload on one server
     * (a run without a manifest, a CSV log, says nothing and mixes with any). The one rule of
     * {@code validate}, {@code fit} and the report, which shows such runs side by side, unfitted.
     */
    public static Optional<String> mixedRuns(List<RunData> runs) {
        RunData first = null;
        Map<String, Object> firstIdentity = null;
        for (RunData run : runs) {
            Map<String, Object> identity = identity(run);
            if (identity == null) {
                continue; // a CSV log says nothing of its workload
            }
            if (first == null) {
                first = run;
                firstIdentity = identity;
                continue;
            }
            for (String key : identity.keySet()) {
                if (firstIdentity.containsKey(key) && !Objects.equals(firstIdentity.get(key), identity.get(key))) {
                    return Optional.of("runs of different workloads or servers mixed: " + first.name() + " has " + key
                            + " " + firstIdentity.get(key) + ", " + run.name() + " has " + identity.get(key));
                }
            }
        }
        return Optional.empty();
    }

    /** Refuses a round trip whose manifest names another server than {@code runs}' (its statement and workload differ; its server may not). */
    private static void refuseOtherServer(RunData trip, List<RunData> runs) {
        Map<String, Object> tripServer = identity(trip);
        for (RunData r : runs) {
            Map<String, Object> server = identity(r);
            if (tripServer == null || server == null) {
                continue;
            }
            for (String key : tripServer.keySet()) {
                if (!key.equals("operations") && !key.equals("workload") && server.containsKey(key) && !Objects.equals(server.get(key), tripServer.get(key))) {
                    throw new IllegalArgumentException("the round trip " + trip.name() + " was measured on another server: it has " + key
                            + " " + tripServer.get(key) + ", " + r.name() + " has " + server.get(key));
                }
            }
        }
    }

    private static Map<String, Object> identity(RunData run) {
        BackendInfo backend = run.manifest().flatMap(Manifest::backend).orElse(null);
        if (backend == null) {
            return null;
        }
        Map<String, Object> id = new LinkedHashMap<>();
        id.put("operations", backend.operations().stream().map(BackendInfo.Operation::name).sorted().toList().toString());
        if (backend.server() != null) {
            for (String key : RunNotes.IDENTITY_KEYS) {
                if (backend.server().containsKey(key)) {
                    String value = String.valueOf(backend.server().get(key));
                    // the embedded server listens on a free port of each run's own: the same server on this machine
                    id.put(key, key.equals("jdbcUrl") ? value.replaceFirst("//(127\\.0\\.0\\.1|localhost):\\d+/", "//$1/") : value);
                }
            }
        }
        return id;
    }

    /** The relative difference of a prediction from a measurement, in per cent. */
    public static double percent(double predicted, double measured) {
        return 100 * (predicted - measured) / measured;
    }

}
