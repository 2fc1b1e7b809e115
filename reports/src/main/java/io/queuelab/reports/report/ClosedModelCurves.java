package io.queuelab.reports.report;

import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.runs.RunShape;
import io.queuelab.fit.DpbFit;
import io.queuelab.fit.HeldOutValidation;
import io.queuelab.fit.RunPrediction;
import io.queuelab.fit.ModelFit;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.fit.Mm1Fits;
import io.queuelab.sim.FittedModel;
import io.queuelab.sim.SimulationResult;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The fitted model's N/T and N/P, to draw over a measured closed sweep: the model the held-out
 * validation selected, as it predicted each closed run; else the fitted DPB model, else the fitted
 * modified M/M/1, each simulated at each measured N as every fitted model is ({@link FittedModel}:
 * its latency inside the closed cycle, so each point obeys Little's law X(N) R(N) = N).
 *
 * @param jobs            populations N
 * @param responseSeconds mean response time at each N
 * @param throughput      throughput (1/s) at each N
 */
record ClosedModelCurves(String name, double[] jobs, double[] responseSeconds, double[] throughput) {

    /**
     * The held-out validation's selected model at the N of each closed run it predicted (from the
     * open fit runs alone: the predictions of its held-out table); empty when it predicted none.
     */
    static Optional<ClosedModelCurves> predicted(HeldOutValidation.ModelOutcome selected) {
        List<RunPrediction> closed = selected.predictions().stream().filter(p -> p.closed() && !p.saturated())
                .sorted(java.util.Comparator.comparingDouble(RunPrediction::level)).toList();
        if (closed.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ClosedModelCurves(selected.fit().name() + " predicted from the open fit runs (held out)",
                closed.stream().mapToDouble(RunPrediction::level).toArray(), closed.stream().mapToDouble(RunPrediction::predictedMean).toArray(),
                closed.stream().mapToDouble(RunPrediction::predictedThroughput).toArray()));
    }

    /** Empty when there is no model to draw: {@code mm1} must be an identified fit. */
    static Optional<ClosedModelCurves> of(List<RunData> closedMeasured, Optional<ModelFit> mm1, Optional<DpbFit> dpb, long seed)
            throws IOException {
        if (dpb.isEmpty() && mm1.isEmpty()) {
            return Optional.empty();
        }
        FittedModel model = dpb.isPresent() ? dpb.get().fitted() : Mm1Fits.fitted("mm1", mm1.get());
        double[] jobs = closedMeasured.stream().mapToDouble(r -> RunShape.of(r).jobs()).toArray();
        double[] response = new double[jobs.length], throughput = new double[jobs.length];
        for (int i = 0; i < jobs.length; i++) {
            RunData run = closedMeasured.get(i);
            SimulationResult r = model.simulation(ArrivalProcess.closed((int) jobs[i])).duration(Math.max(1, run.spanSeconds())).seed(seed).run();
            response[i] = r.meanResponse().value();
            throughput[i] = r.throughput().value();
        }
        return Optional.of(new ClosedModelCurves((dpb.isPresent() ? "fitted DPB model" : "fitted modified M/M/1") + " (model-sim at each N)",
                jobs, response, throughput));
    }
}
