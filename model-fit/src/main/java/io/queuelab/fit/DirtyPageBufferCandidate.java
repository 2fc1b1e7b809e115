package io.queuelab.fit;

import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.runs.RunShape;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.FittedModel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The dirty-page-buffer model (seed 004) as a candidate of {@code validate}: {@link DpbFit}'s
 * measurement method (section 4.2) on the runs given, which must hold a closed run of one job, a
 * closed run of many and open runs (the highest-rate one gives the flush period); without them it
 * is "not identified" and never selected. It is then judged as every other candidate is: its mean
 * curve (simulated) against the open runs' means, each fit run's CDF against the yardstick, and the
 * held-out runs predicted from their rate or N alone.
 *
 * <p>Unlike the curve models, nothing is fitted to the open runs' means: the parameters are
 * measured from the three runs, and of the open runs only the highest-rate one enters (its
 * throughput and flush period), which is the one degree of freedom the residual test takes.
 */
final class DirtyPageBufferCandidate implements CandidateModel {
    /** Customers of each simulated point of the mean curve drawn over the runs (a residual's point has more). */
    static final long CURVE_CUSTOMERS = 50_000;

    @Override
    public String name() {
        return "dpb";
    }

    @Override
    public Card card() {
        return new Card("a network delay, then one FCFS server with normal periods of processing and, every DPB_max requests,"
                + " a flush of the dirty-page buffer (seed 004)",
                "measured from a closed run of one job, a closed run of many and the highest-rate open run (seed 004, section 4.2)",
                "writes that pause the server for a flush of a fixed buffer size, whatever the rate",
                "a write workload on slow storage whose response times show periodic flush pauses",
                "`dpb`, the network delay its own stage");
    }

    @Override
    public String description() {
        return "dirty-page-buffer model (seed 004): normal periods of processing, flushes of the buffer's dirty pages";
    }

    /** Its flushes and network part are the storage's and the network's times, not the server's cpu. */
    @Override
    public boolean demandScalable() {
        return false;
    }

    @Override
    public int parameters() {
        return 1;
    }

    @Override
    public CandidateFit fit(FitData data) throws IOException {
        String method = "measured as seed 004 section 4.2: T_pause and P from the closed run of most jobs, the flush period"
                + " from the highest-rate open run, E[T] from the closed run of one job";
        List<Mm1Point> points = data.points();
        RunData single = data.closedRuns().stream().filter(r -> RunShape.of(r).jobs() == 1).findFirst().orElse(null);
        RunData many = data.closedRuns().stream().filter(r -> RunShape.of(r).jobs() > 1)
                .max(Comparator.comparingInt(r -> RunShape.of(r).jobs())).orElse(null);
        if (single == null || many == null || points.isEmpty()) {
            return unidentified(method, points, "the model is measured from a closed run of one job, a closed run of many and an"
                    + " open run; the fit runs have " + (single == null ? "no closed run of one job" : many == null
                    ? "no closed run of more than one job" : "no open run"));
        }
        DpbFit dpb;
        try {
            dpb = DpbFit.fit(data.runs().get(data.runs().size() - 1), many, single);
        } catch (IllegalArgumentException e) {
            return unidentified(method, points, e.getMessage());
        }
        FittedModel model = dpb.fitted();
        List<Parameter> parameters = List.of(
                new Parameter("E[T_proc]", dpb.processingMean(), Double.NaN, "s"),
                new Parameter("T_nd constant", dpb.networkDelayConstant(), Double.NaN, "s"),
                new Parameter("T_nd exponential mean", dpb.networkDelayMean(), Double.NaN, "s"),
                Parameter.of("DPB_max", dpb.bufferPages(), "pages"),
                new Parameter("E[T_dp]", dpb.dirtyPageMean(), Double.NaN, "s"));
        List<Residual> residuals = new ArrayList<>();
        double[] curveErrors = new double[points.size()];
        for (int i = 0; i < points.size(); i++) {
            Mm1Point p = points.get(i);
            long measured = Math.max(1, data.runs().get(i).okCount());
            long customers = Math.min(RunPrediction.MAX_PREDICTION, Math.max(CURVE_CUSTOMERS, RunPrediction.PREDICTION_FACTOR * measured));
            FittedModel.Prediction predicted = meanAt(model, p.lambda(), customers, data.seed());
            residuals.add(new Residual(p.name(), p.lambda(), p.meanResponse(), predicted == null ? Double.NaN : predicted.meanResponse()));
            // the simulation is the same kind of process as the run (flush cycles make its responses correlated), so its
            // mean's relative error is the run's, shrunk by the square root of how many more customers it has
            curveErrors[i] = predicted == null ? Double.NaN
                    : p.standardError() / p.meanResponse() * Math.sqrt((double) measured / customers);
        }
        Identification identification = dpb.identification();
        ModelFit fit = new ModelFit(description(), method + (dpb.normalPeriod() == null ? "" : "; T_proc shaped as the N = 1 run's"
                + " normal period"), parameters, residuals, lambda -> {
            FittedModel.Prediction p = meanAt(model, lambda, CURVE_CUSTOMERS, data.seed());
            return p == null ? Double.NaN : p.meanResponse();
        }, identification);
        if (!fit.identified()) {
            return CandidateFit.unidentified(name(), parameters(), fit);
        }
        return new CandidateFit(name(), parameters(), fit, rate -> model, jobs -> model, curveErrors);
    }

    /** The model's mean response at {@code lambda} by simulation; null beyond its capacity. */
    private static FittedModel.Prediction meanAt(FittedModel model, double lambda, long customers, long seed) {
        if (!model.stableAt(lambda)) {
            return null;
        }
        try {
            return model.predict(ArrivalProcess.open(lambda), customers, 2, seed);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private CandidateFit unidentified(String method, List<Mm1Point> points, String reason) {
        return CandidateFit.unidentified(this, method, points, reason);
    }
}
