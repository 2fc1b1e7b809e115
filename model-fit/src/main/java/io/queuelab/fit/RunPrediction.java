package io.queuelab.fit;

import io.queuelab.fit.runs.LogCounters;

import io.queuelab.fit.compare.Comparison;
import io.queuelab.fit.compare.Verdict;
import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.runs.ServerWork;
import io.queuelab.fit.compare.Distances;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.DemandProfile;
import io.queuelab.sim.FittedModel;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.util.List;

/**
 * A fitted model's prediction of one run from its workload alone (its arrival rate, or its N),
 * against what the run measured: mean, p50 and p99 of the response time, and the KS distance of the
 * two distributions against the simulation-noise yardstick (the 95th percentile of the KS D
 * between pairs of independent simulated replications of the measured sample size, as
 * {@link Comparison} judges every measured-vs-simulated pair).
 *
 * @param run     the run as given on the command line
 * @param name    its short name
 * @param level   arrival rate per second (open) or N (closed)
 * @param closed  whether level is a job count
 * @param server  the server's cpu speed and cpu time per request during the run, measured apart from its response times
 * @param atOwnServer the same model's prediction with its demand set to this run's own measured cpu per request, for a run
 *                whose server was not the fit runs' ({@link ServerWork#differenceFrom}); null otherwise
 * @param replay  the same model replaying the run's server interval by interval ({@link ServerReplay}); null where the
 *                run has no server telemetry by interval or the model cannot take a demand profile
 * @param saturation why the model cannot carry the run's load ("saturated at 400/s: capacity 387/s"), in which case
 *                every predicted figure is NaN and the prediction is a miss; null where it can
 * @param commits the model's commits per log flush beside the server's commits per fsync over the run
 *                ({@link CommitsPerFlush}); null for a model whose flushes carry no commits, or saturated
 */
public record RunPrediction(String run, String name, double level, boolean closed,
                            double measuredMean, double measuredP50, double measuredP99, double measuredThroughput,
                            double predictedMean, double predictedP50, double predictedP99, double predictedThroughput,
                            double ks, double ksYardstick, ServerWork server, AtOwnServer atOwnServer, ServerReplay replay,
                            String saturation, CommitsPerFlush commits) {
    /**
     * A prediction with the model's demand multiplied by {@code factor} (the run's cpu per request
     * over the fit runs'): by time scaling, R(lambda; f D) = f R(f lambda; D) and X(N; f D) = X(N; D) / f,
     * the latency outside the queue left alone. Exact for every model whose only times are its
     * demands; not made for the dirty-page-buffer model, whose flushes are the storage's time. For
     * a run whose server was saturated the factor is about 1/X of the run itself, so the predicted
     * X(N) there is close to the measured one by construction: it sizes the miss's cause, it does
     * not test the model.
     */
    public record AtOwnServer(double factor, double mean, double p50, double p99, double throughput) {
    }

    /**
     * The model replaying the run's own server interval by interval: every demand times that
     * interval's server cpu per request over the fit runs' at the run's load ({@link DemandProfile}),
     * over the run's own timeline (its warm-up served but not measured, so a queue a slow warm-up
     * left is in its first measured seconds, as it was in the run), in {@link #REPLAYS} replications
     * with the model's own arrivals at the run's rate (from the start of the interval in which the
     * run's first request fell due: up to one interval of extra, unmeasured warm-up). It
     * compares two measurements made apart, the server's counters and the response times, through
     * the model: where it gives back the run that the plain prediction missed, the miss was the
     * server's changing work per request, not the model's structure. Like {@link AtOwnServer} it
     * explains a run; it does not predict one.
     *
     * @param minFactor the least interval factor
     * @param maxFactor the largest
     * @param ks        KS D of the replay against the run (the prediction's yardstick applies: same sample size)
     */
    public record ServerReplay(double minFactor, double maxFactor, double mean, double p50, double p99, double ks) {
    }

    /** Replications of a run's timeline in a {@link ServerReplay}. */
    static final int REPLAYS = 10;

    /**
     * This prediction with {@code model} (one whose queue takes a demand profile,
     * {@link io.queuelab.sim.Model#withDemandProfile}) replaying the run's server: {@code factors} by
     * interval of {@code periodSeconds} from the run's first interval, measured from
     * {@code measuredFrom} seconds.
     */
    RunPrediction withServerReplay(RunData run, FittedModel model, double periodSeconds, double[] factors, double measuredFrom,
                                   long seed) throws IOException {
        DemandProfile profile = new DemandProfile(periodSeconds, factors);
        java.util.Optional<io.queuelab.sim.Model> profiled = closed ? java.util.Optional.empty() : model.queue().withDemandProfile(profile);
        if (profiled.isEmpty()) {
            return this;
        }
        FittedModel replaying = new FittedModel(model.name(), profiled.get(), model.latency());
        double min = java.util.Arrays.stream(factors).min().orElseThrow(), max = java.util.Arrays.stream(factors).max().orElseThrow();
        FittedModel.Prediction p = replaying.predictOver(ArrivalProcess.open(level), periodSeconds * factors.length, measuredFrom, REPLAYS,
                seed);
        if (p.responseNanos().getTotalCount() == 0 || p.responseNanos().getMaxValue() > MAX_RESPONSE_NANOS) {
            return withReplay(new ServerReplay(min, max, Double.NaN, Double.NaN, Double.NaN, Double.NaN));
        }
        return withReplay(new ServerReplay(min, max, p.meanResponse(), p.quantile(0.5), p.quantile(0.99),
                Distances.between(run.responseNanos(), p.responseNanos()).ks()));
    }

    private RunPrediction withReplay(ServerReplay r) {
        return new RunPrediction(run, name, level, closed, measuredMean, measuredP50, measuredP99, measuredThroughput, predictedMean,
                predictedP50, predictedP99, predictedThroughput, ks, ksYardstick, server, atOwnServer, r, saturation, commits);
    }

    /** This prediction with {@code model} predicting the run again at the run's own server (demand times {@code factor}). */
    RunPrediction withOwnServer(RunData run, FittedModel model, double factor, long seed) throws IOException {
        if (closed) {
            // N jobs load a server f times slower the same way: the plain prediction, its times scaled (no second simulation)
            return saturated() ? with(new AtOwnServer(factor, Double.NaN, Double.NaN, Double.NaN, Double.NaN))
                    : scaled(factor, model.latency(), predictedMean, predictedP50, predictedP99, predictedThroughput);
        }
        Carried carried = carried(model, false, level * factor, customers(run), seed);
        if (carried.saturation() != null) {
            return with(new AtOwnServer(factor, Double.NaN, Double.NaN, Double.NaN, Double.NaN));
        }
        FittedModel.Prediction p = carried.prediction();
        return scaled(factor, model.latency(), p.meanResponse(), p.quantile(0.5), p.quantile(0.99), p.throughput());
    }

    /** This prediction at its own server: the queue's part of each figure times {@code factor}, the latency {@code l} as it is. */
    private RunPrediction scaled(double factor, double l, double mean, double p50, double p99, double throughput) {
        return with(new AtOwnServer(factor, l + factor * (mean - l), l + factor * (p50 - l), l + factor * (p99 - l), throughput / factor));
    }

    private RunPrediction with(AtOwnServer own) {
        return new RunPrediction(run, name, level, closed, measuredMean, measuredP50, measuredP99, measuredThroughput, predictedMean,
                predictedP50, predictedP99, predictedThroughput, ks, ksYardstick, server, own, replay, saturation, commits);
    }

    /** Simulated customers of a prediction: this many times the measured sample, within the bounds below. */
    static final int PREDICTION_FACTOR = 10;
    static final long MIN_PREDICTION = 100_000;
    static final long MAX_PREDICTION = 2_000_000;

    /** The customers a prediction of {@code run} simulates. */
    private static long customers(RunData run) {
        return Math.min(MAX_PREDICTION, Math.max(MIN_PREDICTION, PREDICTION_FACTOR * Math.max(1, run.okCount())));
    }
    /** A predicted response beyond a day: the model has no steady state on the time scale of a run. */
    static final long MAX_RESPONSE_NANOS = 86_400L * 1_000_000_000L;
    /** Replications for the yardstick (8 pairs), each of the measured size or {@link io.queuelab.fit.compare.Replications#replicationSize}. */
    static final int YARDSTICK_REPLICATIONS = 16;

    /** Whether the model cannot carry the run's load ({@link #saturation} says why): no figure is predicted, and it is a miss. */
    public boolean saturated() {
        return saturation != null;
    }

    public boolean withinYardstick() {
        return !saturated() && testing() && ks <= ksYardstick;
    }

    /** Whether the yardstick tests the model here ({@link Verdict#testing}: not where its own replications mostly differ). */
    public boolean testing() {
        return Verdict.ksTesting(ksYardstick);
    }

    /** The CDF's verdict in a word or a phrase: saturated (and why), within, beyond, or no test. */
    public String cdfVerdict() {
        return saturated() ? "model " + saturation : !testing() ? "no test (the model's own runs differ)"
                : withinYardstick() ? "within noise" : "beyond noise";
    }

    /** KS D over its yardstick (infinite where the model has no steady state or its yardstick tests nothing). */
    double ksRatio() {
        return saturated() || !testing() ? Double.POSITIVE_INFINITY : ks / ksYardstick;
    }

    /** Relative error of the predicted mean: (predicted - measured) / measured. */
    public double meanError() {
        return (predictedMean - measuredMean) / measuredMean;
    }

    public double p50Error() {
        return (predictedP50 - measuredP50) / measuredP50;
    }

    public double p99Error() {
        return (predictedP99 - measuredP99) / measuredP99;
    }

    /** Relative error of the predicted throughput, X(N) of a closed run. */
    public double throughputError() {
        return (predictedThroughput - measuredThroughput) / measuredThroughput;
    }

    /**
     * The held-out error used to select a model: the mean of |mean|, |p50| and |p99| relative
     * errors, plus the shape's miss, the KS D beyond its yardstick ({@link #shapeExcess}); infinite
     * (a miss) where saturated. Three quantiles alone let a model with the right mean and the wrong
     * shape win (issue 39: client-ps-cpu selected at 9.8 % with every CDF beyond noise).
     */
    public double error() {
        return saturated() ? Double.POSITIVE_INFINITY
                : (Math.abs(meanError()) + Math.abs(p50Error()) + Math.abs(p99Error())) / 3 + shapeExcess();
    }

    /**
     * How far the predicted CDF lies beyond what simulation noise explains: KS D less its
     * yardstick, 0 within it, and 0 where the yardstick tests nothing (the model's own runs differ
     * more than half).
     */
    public double shapeExcess() {
        return saturated() || !testing() ? 0 : Math.max(0, ks - ksYardstick);
    }

    /** The run predicted from its own shape: an open run from its measured rate, a closed run from its N. */
    public static RunPrediction of(String asGiven, RunData run, FittedModel model, long seed) throws IOException {
        io.queuelab.fit.runs.RunShape shape = io.queuelab.fit.runs.RunShape.of(run);
        return shape.closed() ? predicted(asGiven, run, shape.jobs(), true, model, seed) : open(asGiven, run, model, seed);
    }

    /** Predicts an open run at its measured arrival rate. */
    public static RunPrediction open(String asGiven, RunData run, FittedModel model, long seed) throws IOException {
        return predicted(asGiven, run, run.arrivalRate(), false, model, seed);
    }

    /**
     * The model's simulation of a run as its prediction makes it: the predicted response times
     * ({@link #PREDICTION_FACTOR} times the run's requests, within bounds) and the yardstick, the
     * model's replications of the run's size (see below). The same run, model and seed give the same
     * histograms as {@link #of(String, RunData, FittedModel, long)}, so a report can draw the CDF a
     * prediction's KS D was measured on. A long run's replications are shorter than the run
     * ({@link io.queuelab.fit.compare.Replications#replicationSize}): their distances, and the band a
     * chart draws of them, are scaled to the run's size. Where the model cannot carry the run's load, only
     * {@code saturation} is set: why ({@link #saturation(FittedModel, boolean, double, FittedModel.Prediction)}).
     */
    public record Simulated(FittedModel.Prediction prediction, List<Histogram> replications, String saturation) {
        public boolean saturated() {
            return saturation != null;
        }
    }

    /** {@code run} simulated by {@code model} as its prediction, or why the model cannot carry the run's load. */
    public static Simulated simulate(RunData run, FittedModel model, long seed) throws IOException {
        io.queuelab.fit.runs.RunShape shape = io.queuelab.fit.runs.RunShape.of(run);
        return shape.closed() ? simulate(run, shape.jobs(), true, model, seed) : simulate(run, run.arrivalRate(), false, model, seed);
    }

    /**
     * The one simulation behind every prediction: {@code level} jobs (closed) or arrivals a second
     * (open); saturated where the model cannot carry the load.
     */
    private static Simulated simulate(RunData run, double level, boolean closed, FittedModel model, long seed) throws IOException {
        Carried carried = carried(model, closed, level, customers(run), seed);
        if (carried.saturation() != null) {
            return new Simulated(null, List.of(), carried.saturation());
        }
        ArrivalProcess workload = closed ? ArrivalProcess.closed((int) level) : ArrivalProcess.open(level);
        return new Simulated(carried.prediction(), model.replications(workload,
                io.queuelab.fit.compare.Replications.replicationSize(run.okCount()), YARDSTICK_REPLICATIONS, seed + 1), null);
    }

    /**
     * {@code model}'s prediction of an open load of {@code arrivalRate} a second over {@code customers}
     * answered requests, simulated as every held-out run is; empty where the model cannot carry the
     * load (the same judgement of saturation as a held-out run's).
     */
    public static java.util.Optional<FittedModel.Prediction> atRate(FittedModel model, double arrivalRate, long customers, long seed)
            throws IOException {
        return java.util.Optional.ofNullable(carried(model, false, arrivalRate, customers, seed).prediction());
    }

    /** A model's prediction at a load, or why it cannot carry the load (then no prediction). */
    private record Carried(FittedModel.Prediction prediction, String saturation) {
    }

    /**
     * {@code model} at {@code level} (arrivals a second, or jobs where {@code closed}) over
     * {@code customers}: not simulated where its utilization is 1 or more, and judged by
     * {@link #saturation} where it was.
     */
    private static Carried carried(FittedModel model, boolean closed, double level, long customers, long seed) throws IOException {
        if (!closed && !model.stableAt(level)) {
            return new Carried(null, saturation(model, false, level, null));
        }
        FittedModel.Prediction p = model.predict(closed ? ArrivalProcess.closed((int) level) : ArrivalProcess.open(level), customers, 2, seed);
        String saturation = saturation(model, closed, level, p);
        return new Carried(saturation == null ? p : null, saturation);
    }

    /** The share of an open load a steady model completes at the least: below it, its queue grows through the run. */
    static final double STEADY_THROUGHPUT = 0.98;
    /** The share of the arrivals a model may refuse before it is said to be saturated (a server at its limit of requests inside). */
    static final double MAX_REFUSED = 0.001;

    /**
     * Why {@code model} cannot carry a load of {@code level} (arrivals a second, or jobs where
     * {@code closed}), or null where it can: its utilization at or above 1 ({@code p} null: not
     * simulated); it refused more than {@link #MAX_REFUSED} of the arrivals; an open load of which
     * it completed less than {@link #STEADY_THROUGHPUT} (its queue grew through the run); or
     * responses beyond a day (no steady state on any run's time scale: mm1-ld's service time at its
     * capacity can pass centuries).
     */
    static String saturation(FittedModel model, boolean closed, double level, FittedModel.Prediction p) {
        String load = closed ? "N = " + (int) level : String.format(java.util.Locale.ROOT, "%.4g/s", level);
        if (p == null) {
            return String.format(java.util.Locale.ROOT, "saturated at %s: capacity %.4g/s", load, model.capacity());
        }
        long offered = p.answered() + p.dropped();
        if (offered > 0 && p.dropped() > MAX_REFUSED * offered) {
            return String.format(java.util.Locale.ROOT, "saturated at %s: it refuses %.1f %% of the requests (completes %.4g/s)", load,
                    100.0 * p.dropped() / offered, p.throughput());
        }
        if (!closed && p.throughput() < STEADY_THROUGHPUT * level) {
            return String.format(java.util.Locale.ROOT, "saturated at %s: it completes %.4g/s, its queue grows through the run", load,
                    p.throughput());
        }
        if (p.responseNanos().getMaxValue() > MAX_RESPONSE_NANOS) {
            return "saturated at " + load + ": responses beyond a day, no steady state on a run's time scale";
        }
        return null;
    }

    private static RunPrediction predicted(String asGiven, RunData run, double level, boolean closed, FittedModel model, long seed)
            throws IOException {
        Simulated simulated = simulate(run, level, closed, model, seed);
        if (simulated.saturated()) {
            return new RunPrediction(asGiven, run.name(), level, closed, run.meanResponseSeconds(), run.quantileSeconds(0.5),
                    run.quantileSeconds(0.99), run.throughput(), Double.NaN, Double.NaN, Double.NaN, Double.NaN, 1, Double.NaN,
                    run.serverWork(), null, null, simulated.saturation(), null);
        }
        FittedModel.Prediction p = simulated.prediction();
        Verdict ks = Comparison.of(run.name(), run.responseNanos(), model.name(), p.responseNanos(), simulated.replications()).row("KS D");
        return new RunPrediction(asGiven, run.name(), level, closed, run.meanResponseSeconds(), run.quantileSeconds(0.5),
                run.quantileSeconds(0.99), run.throughput(), p.meanResponse(), p.quantile(0.5), p.quantile(0.99), p.throughput(),
                ks.distance(), ks.yardstick(), run.serverWork(), null, null, null, CommitsPerFlush.of(p, run));
    }

    /**
     * A group commit's size, predicted and counted: the commits one log flush of the model carried
     * on average, and the server's own commits per fsync over the run ({@link LogCounters}; NaN
     * where the run has no such counters). The model is checked against what the server counts,
     * not only against response times.
     */
    public record CommitsPerFlush(double predicted, double counted) {
        static CommitsPerFlush of(FittedModel.Prediction p, RunData run) throws IOException {
            if (!Double.isFinite(p.commitsPerFlush())) {
                return null;
            }
            return new CommitsPerFlush(p.commitsPerFlush(), LogCounters.of(run).map(LogCounters::commitsPerFsync).orElse(Double.NaN));
        }

        /** predicted / counted - 1; NaN without counters. */
        public double error() {
            return predicted / counted - 1;
        }
    }


}
