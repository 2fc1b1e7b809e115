package io.queuelab.fit;

import io.queuelab.sim.FittedModel;

import java.util.function.DoubleFunction;
import java.util.function.IntFunction;

/**
 * A candidate model fitted to runs: the fit (parameters, residuals, identification, and once
 * tested the lack-of-fit verdict) and, when identified, the model that predicts a run.
 *
 * @param openModel   the fitted model of an open run at an arrival rate (per s): the same model at
 *                    every rate unless the model's demand depends on the load; null when the fit is
 *                    not identified
 * @param closedModel the fitted model for a closed run of N jobs (a client of N connections where
 *                    the model has a connection limit); null when not identified
 * @param parameters  free parameters estimated
 * @param fittedMeanErrors the relative simulation error of each fitted mean (null where the fitted
 *                    curve is a closed form), which the residual test adds to the points' errors
 */
public record CandidateFit(String name, int parameters, ModelFit fit, DoubleFunction<FittedModel> openModel, IntFunction<FittedModel> closedModel,
                           double[] fittedMeanErrors) {

    public boolean identified() {
        return fit.identified() && openModel != null;
    }

    /** The fitted model of an open run at {@code arrivalRate} per second. */
    public FittedModel model(double arrivalRate) {
        if (openModel == null) {
            throw new IllegalStateException(name + " is not identified: it predicts nothing");
        }
        return openModel.apply(arrivalRate);
    }

    /** The fitted model of {@code run}: of an open run at its measured arrival rate, of a closed run for its N. */
    public FittedModel modelFor(io.queuelab.fit.runs.RunData run) {
        io.queuelab.fit.runs.RunShape shape = io.queuelab.fit.runs.RunShape.of(run);
        return shape.closed() ? closedModel.apply(shape.jobs()) : model(run.arrivalRate());
    }

    /** The same fit with its lack-of-fit verdict. */
    public CandidateFit withLackOfFit(LackOfFit lackOfFit) {
        return new CandidateFit(name, parameters, fit.withLackOfFit(lackOfFit), openModel, closedModel, fittedMeanErrors);
    }

    /** {@code model}'s fit of {@code points} by {@code method}, not identified for {@code reason}. */
    static CandidateFit unidentified(CandidateModel model, String method, java.util.List<Mm1Point> points, String reason) {
        return unidentified(model.name(), model.parameters(), ModelFit.unidentified(model.description(), method, points,
                new Identification.Checks().require(false, reason).result()));
    }

    /** A fit that did not identify its parameters. */
    static CandidateFit unidentified(String name, int parameters, ModelFit fit) {
        return new CandidateFit(name, parameters, fit, null, null, null);
    }
}
