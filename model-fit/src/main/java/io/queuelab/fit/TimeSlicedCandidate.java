package io.queuelab.fit;

import io.queuelab.fit.compare.Distances;
import io.queuelab.fit.runs.RunData;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.ClientLimitedModel;
import io.queuelab.sim.Distribution;
import io.queuelab.sim.FittedModel;
import org.apache.commons.math3.stat.descriptive.rank.Median;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * The client-limited system as the server's operating system runs it: a client queue, K
 * connections, and c cores time-sliced among the requests holding a connection
 * ({@link ClientLimitedModel} with a slice). A server whose slice is about as long as a query's
 * demand serves a request that finds the core busy after the current slice, not at once at a
 * share of the core, which processor sharing assumes; the response time's distribution tells the
 * two apart where the means do not.
 *
 * <p>The demand is measured, not fitted: at each fit run's load it is the service times of the
 * requests that run's server answered alone ({@link ServedAlone}), which need no assumption about
 * sharing; their means interpolated in the server's busy fraction ({@link LoadDemand}) give the
 * demand's mean at any other load, and the fit run nearest in load its shape. A latency beside the
 * core (network, driver) is the client time measured apart ({@link ClientTime}) when a round trip
 * is among the fit runs, else the fit runs' median of their served-alone mean less their server
 * cpu per request, when the server's cpu was sampled (else 0). The one parameter fitted is the slice:
 * of {@link #SLICES}, the one whose simulated fit runs are nearest the measured ones in KS
 * distance, on average over two independent simulations; the slices whose score is within the
 * scores' simulation noise of it are printed as the range the fit determined (a server whose
 * queries mostly end within one slice looks alike under every longer slice).
 *
 * <p>Two candidates: slices of exponential length ({@value #NAME}), and slices of a fixed length
 * ({@value #FIXED_NAME}), as a scheduler's own slice is (Linux's EEVDF base slice): a demand just
 * over it waits a round of the others for its rest, the mode a round late that closed runs of the
 * embedded server show. The open fit runs hardly tell the two forms apart (on demos q and r the
 * exponential's best mean KS distance was 0.003 below the fixed one's), so each is fitted on its own
 * and validate's held-out error chooses between them (fixed slices: 32.5 % against 38.1 % on demo
 * q, 32.6 % against 36.0 % on demo r).
 *
 * <p>Not identified without K and c, without a fit run of {@link ServedAlone#MIN_REQUESTS}
 * requests served alone, with a fit run beyond the capacity its demand gives (the whole fit, not
 * that run alone: it has no steady state to compare), or when the fit runs' distributions do not
 * tell the slices apart.
 */
final class TimeSlicedCandidate implements CandidateModel {
    static final String NAME = "client-slice";
    /** The same system with slices of a fixed length, as a scheduler's own slice (docs/models.md, "The scheduler of client-slice"). */
    static final String FIXED_NAME = "client-slice-fixed";
    /** The slices tried, seconds: 0 is processor sharing; Linux's EEVDF base slice is 0.75 ms x (1 + log2 of the cpus, up to 8). */
    static final double[] SLICES = {0, 0.25e-3, 0.5e-3, 0.75e-3, 1e-3, 1.25e-3, 1.5e-3, 1.75e-3, 2e-3, 2.5e-3, 3e-3, 4.5e-3, 6e-3};
    /** Customers simulated for each fit run and slice. */
    static final long FIT_CUSTOMERS = 40_000;
    /** Independent simulations each slice is scored on (two: their disagreement measures the scores' noise). */
    static final int SCORE_SEEDS = 2;
    /** The least spread of the slices' mean KS distances that identifies the slice. */
    static final double MIN_KS_SPREAD = 0.01;

    private final boolean fixedSlices;

    /** Slices of exponential length ({@value #NAME}), or of a fixed one ({@value #FIXED_NAME}). */
    TimeSlicedCandidate(boolean fixedSlices) {
        this.fixedSlices = fixedSlices;
    }

    @Override
    public String name() {
        return fixedSlices ? FIXED_NAME : NAME;
    }

    @Override
    public Card card() {
        return fixedSlices
                ? new Card("client queue, K connections, c cores time-sliced by the operating system in slices of a fixed length s",
                "as client-slice, the slice s among the same lengths", "a request served alone measures its demand; every slice as long"
                        + " as the scheduler's own (a demand longer than s waits a round of the others for its rest)",
                "a server on Linux's EEVDF scheduler, whose queries last about its base slice (0.75 ms x (1 + log2 cpus)): closed"
                        + " runs with a mode a round late", "`client-slice` with `--slice-fixed` equal to the slice, the latency outside the queue")
                : new Card("client queue, K connections, c cores time-sliced by the operating system (a slice of mean s)",
                "the demand: the service times of the requests served alone at each load, less the client time of round trips"
                        + " (SELECT 1) where the fit runs include them; the slice s: the fit runs' response-time"
                        + " CDFs (KS distance), with the range of slices the runs could not tell apart",
                "a request served alone measures its demand; exponential slices",
                "a server whose queries last about one scheduler slice, where processor sharing predicts the wrong CDF",
                "`client-slice` (the demand of each load's own, K, c, the slice s), the latency outside the queue");
    }

    @Override
    public String description() {
        return "client queue -> K connections -> c cores time-sliced (" + (fixedSlices ? "fixed " : "") + "slice fitted), the demand the"
                + " requests served alone at each load";
    }

    @Override
    public int parameters() {
        return 1;
    }

    @Override
    public boolean demandFollowsLoad() {
        return true;
    }

    @Override
    public CandidateFit fit(FitData data) throws IOException {
        List<Mm1Point> points = data.points();
        String method = "measured: the demand at each load the service times of the requests served alone (weighted by exp(lambda s)),"
                + " its mean interpolated in the server's busy fraction, its shape the fit run's nearest in load; the slice: least mean KS"
                + " distance of the fit runs over " + slices();
        SystemLimits limits = data.limits();
        if (points.isEmpty()) {
            return unidentified(method, points, "no open run to take the demand from");
        }
        if (limits.whyNotBothKnown().isPresent()) {
            return unidentified(method, points, limits.whyNotBothKnown().get());
        }
        int k = limits.connections(), c = limits.cores();
        List<Shape> shapes = new ArrayList<>();
        for (RunData r : data.runs()) {
            Optional<Distribution> alone = ServedAlone.of(r, DemandModelFit.DEMAND_VALUES);
            if (alone.isPresent() && r.throughput() > 0) {
                shapes.add(new Shape(r, alone.get()));
            }
        }
        if (shapes.isEmpty()) {
            return unidentified(method, points, "no fit run has " + ServedAlone.MIN_REQUESTS + " requests its server answered alone"
                    + " (every run too loaded, or logs without send instants)");
        }
        double latency = data.latency(false, latency(shapes));
        double closedLatency = data.latency(true, latency);
        List<Demand> demands = new ArrayList<>();
        for (Shape s : shapes) {
            Distribution demand = DemandModelFit.shift(s.alone(), latency);
            demands.add(new Demand(new LoadDemand.Point(s.run().name(), s.run().throughput() * demand.mean() / c, demand.mean()), demand));
        }
        LoadDemand load = new LoadDemand(demands.stream().map(Demand::point).toList(), c);
        Models models = new Models(demands, load, k, c, latency, closedLatency, fixedSlices);

        // stability does not depend on the slice: a fit run beyond the capacity its demand gives leaves no steady state to fit
        for (RunData r : data.runs()) {
            if (!models.open(r.arrivalRate(), 0).stableAt(r.arrivalRate())) {
                return unidentified(method, points, String.format(Locale.ROOT, "the fit run %s (%.4g/s) is beyond the capacity its"
                        + " served-alone demand gives (%s)", r.name(), r.arrivalRate(), load.describe()));
            }
        }
        // the slice: the one whose simulated fit runs are nearest the measured ones (mean KS distance), scored on two
        // independent simulations of each (the same two for every slice): their disagreement is the scores' own noise
        double[][] scores = new double[SCORE_SEEDS][SLICES.length];
        double[] score = new double[SLICES.length];
        List<List<FittedModel.Prediction>> predictions = new ArrayList<>();
        int best = -1;
        for (int i = 0; i < SLICES.length; i++) {
            List<FittedModel.Prediction> atSlice = new ArrayList<>();
            for (int simulation = 0; simulation < SCORE_SEEDS; simulation++) {
                double sum = 0;
                for (RunData r : data.runs()) {
                    FittedModel m = models.open(r.arrivalRate(), SLICES[i]);
                    FittedModel.Prediction p = m.predict(ArrivalProcess.open(r.arrivalRate()), FIT_CUSTOMERS, 2, data.seed() + simulation);
                    sum += Distances.between(r.responseNanos(), p.responseNanos()).ks();
                    if (simulation == 0) {
                        atSlice.add(p);
                    }
                }
                scores[simulation][i] = sum / data.runs().size();
                score[i] += scores[simulation][i] / SCORE_SEEDS;
            }
            predictions.add(atSlice);
            if (best < 0 || score[i] < score[best]) {
                best = i;
            }
        }
        Ties ties = Ties.of(scores, score, best);
        StringJoiner table = new StringJoiner(", ");
        for (int i = 0; i < SLICES.length; i++) {
            table.add(String.format(Locale.ROOT, "%s %.3f", sliceName(SLICES[i]), score[i]));
        }
        double worst = java.util.Arrays.stream(score).max().orElseThrow();
        double slice = SLICES[best];
        List<Residual> residuals = new ArrayList<>();
        double[] errors = new double[points.size()];
        for (int i = 0; i < points.size(); i++) {
            Mm1Point p = points.get(i);
            FittedModel.Prediction pred = predictions.get(best).get(i);
            residuals.add(new Residual(p.name(), p.lambda(), p.meanResponse(), pred.meanResponse()));
            errors[i] = Double.isFinite(pred.meanHalfWidth()) ? pred.meanHalfWidth() / 1.96 / pred.meanResponse() : 0;
        }
        Identification.Checks checks = new Identification.Checks().trendFollowedByDemand(points)
                .note(String.format(Locale.ROOT, "slice %s (%s; mean KS distance of the fit runs by slice: %s); demand %s; latency %.3f ms%s,"
                        + " c = %d, K = %d", sliceName(slice), ties.describe(), table, load.describe(), latency * 1e3,
                        data.clientTime().isPresent() ? " (latency: the client time, measured apart)" : "", c, k))
                .require(worst - score[best] >= MIN_KS_SPREAD, String.format(Locale.ROOT, "the fit runs' distributions do not tell the"
                        + " slices apart (mean KS %.3f to %.3f over %s)", score[best], worst, slices()))
                .residuals(points, residuals);
        List<Parameter> parameters = List.of(Parameter.of("slice", slice, "s"), Parameter.of("median E[D]", load.median(), "s"),
                Parameter.of("latency", latency, "s"), Parameter.of("c", c, "cores"), Parameter.of("K", k, "connections"));
        MeanCurve curve = MeanCurve.of(models, slice, data.seed());
        ModelFit fit = new ModelFit(description(), method, parameters, residuals, curve::meanResponse, checks.result());
        if (!fit.identified()) {
            return CandidateFit.unidentified(name(), parameters(), fit);
        }
        return new CandidateFit(name(), parameters(), fit, lambda -> models.open(lambda, slice), jobs -> models.closed(jobs, slice), errors);
    }

    /**
     * The time beside the core (network, driver): the median over the runs whose server's cpu was
     * sampled of their served-alone mean less their cpu per request, none below 0 (0 without a
     * sampled run). The median, because a lightly loaded run's counter also carries the server's
     * background work over few requests (its difference strays by a quarter of a millisecond where
     * the busy runs' agree within a few tens of microseconds).
     */
    private static double latency(List<Shape> shapes) throws IOException {
        List<Double> differences = new ArrayList<>();
        for (Shape s : shapes) {
            double cpu = s.run().serverWork().cpuSecondsPerRequest();
            if (cpu > 0) {
                differences.add(s.alone().mean() - cpu);
            }
        }
        if (differences.isEmpty()) {
            return 0;
        }
        return Math.max(0, new Median().evaluate(differences.stream().mapToDouble(Double::doubleValue).toArray()));
    }

    /**
     * The slices whose mean score is within the scores' simulation noise of the best's: a
     * difference of two slices' scores no larger than twice its standard error, estimated from how
     * much that difference moved between the two simulations, pooled over the slices. A fit whose
     * ties span several slices determined the slice only to that range; the best one is used.
     */
    private record Ties(int first, int last, double standardError) {
        static Ties of(double[][] scores, double[] mean, int best) {
            double sum = 0;
            for (int i = 0; i < mean.length; i++) {
                double moved = (scores[0][i] - scores[0][best]) - (scores[1][i] - scores[1][best]);
                sum += moved * moved / 2; // the variance of one simulation's difference
            }
            double standardError = Math.sqrt(sum / Math.max(1, mean.length - 1) / SCORE_SEEDS);
            int first = best, last = best;
            while (first > 0 && mean[first - 1] - mean[best] <= 2 * standardError) {
                first--;
            }
            while (last < mean.length - 1 && mean[last + 1] - mean[best] <= 2 * standardError) {
                last++;
            }
            return new Ties(first, last, standardError);
        }

        String describe() {
            return first == last
                    ? String.format(Locale.ROOT, "no other slice within the scores' simulation noise, %.4f", standardError)
                    : String.format(Locale.ROOT, "determined only to %s-%s: their scores are within twice the scores' simulation noise,"
                            + " %.4f, of the best's", sliceName(SLICES[first]), sliceName(SLICES[last]), standardError);
        }
    }

    /** A fit run and the weighted service times of its requests served alone. */
    private record Shape(RunData run, Distribution alone) {
    }

    /** A fit run's demand (served alone, less the latency) and its load point. */
    private record Demand(LoadDemand.Point point, Distribution demand) {
    }

    /** The model at a load: the demand's mean at that load, the shape of the fit run nearest in busy fraction. */
    private record Models(List<Demand> demands, LoadDemand load, int connections, int cores, double latency, double closedLatency,
                          boolean fixedSlices) {
        FittedModel open(double lambda, double slice) {
            double busy = load.busyAt(lambda);
            Demand nearest = demands.stream().min(Comparator.comparingDouble(d -> Math.abs(d.point().busy() - busy))).orElseThrow();
            return model(nearest, load.at(busy), connections, slice, latency);
        }

        /** A closed run of N jobs without think time keeps the server busy: the most loaded fit run's demand. */
        FittedModel closed(int jobs, double slice) {
            Demand busiest = demands.stream().max(Comparator.comparingDouble(d -> d.point().busy())).orElseThrow();
            return model(busiest, load.saturated(), jobs, slice, closedLatency);
        }

        private FittedModel model(Demand shape, double mean, int connections, double slice, double outside) {
            Distribution demand = DemandModelFit.scale(shape.demand(), mean / shape.demand().mean());
            return new FittedModel(NAME, new ClientLimitedModel(demand, connections, cores, slice, fixedSlices ? slice : 0, 0), outside);
        }
    }

    /**
     * The model's mean response by arrival rate, for the report's curve: simulated once at the
     * loads of {@link DemandCurve#RHO} (the rate of busy fraction U is U c / D(U)), interpolated
     * in R (1 - U) between them as {@link DemandCurve} does.
     */
    private record MeanCurve(LoadDemand load, double[] busy, double[] h) {
        static MeanCurve of(Models models, double slice, long seed) throws IOException {
            double[] busy = DemandCurve.RHO;
            double[] h = new double[busy.length];
            for (int i = 0; i < busy.length; i++) {
                double lambda = busy[i] * models.cores() / models.load().at(busy[i]);
                FittedModel.Prediction p = models.open(lambda, slice).predict(ArrivalProcess.open(lambda), FIT_CUSTOMERS / 2, 2, seed);
                h[i] = p.meanResponse() * (1 - busy[i]);
            }
            return new MeanCurve(models.load(), busy, h);
        }

        double meanResponse(double lambda) {
            return DemandCurve.meanResponse(busy, h, load.busyAt(lambda));
        }
    }

    private static String sliceName(double slice) {
        return slice == 0 ? "0 (processor sharing)" : String.format(Locale.ROOT, "%.2f ms", slice * 1e3);
    }

    private static String slices() {
        return String.format(Locale.ROOT, "%d slices from 0 (processor sharing) to %.1f ms", SLICES.length, SLICES[SLICES.length - 1] * 1e3);
    }

    private CandidateFit unidentified(String method, List<Mm1Point> points, String reason) {
        return CandidateFit.unidentified(this, method, points, reason);
    }
}
