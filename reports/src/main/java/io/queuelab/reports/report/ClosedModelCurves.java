package io.queuelab.reports.report;

import io.queuelab.reports.data.RunData;
import io.queuelab.reports.data.RunShape;
import io.queuelab.reports.fit.DpbFit;
import io.queuelab.reports.fit.HeldOutValidation;
import io.queuelab.reports.fit.RunPrediction;
import io.queuelab.reports.fit.ModelFit;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.Simulation;
import io.queuelab.sim.SimulationResult;
import io.queuelab.sim.analytic.ClosedMva;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * The fitted model's N/T and N/P, to draw over a measured closed sweep: the model the held-out
 * validation selected, as it predicted each closed run; else the DPB model simulated by model-sim
 * at each measured N (flushes have no closed form), else the modified M/M/1 by exact mean value
 * analysis at every N from 1 to the largest measured.
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
        List<RunPrediction> closed = selected.predictions().stream().filter(p -> p.closed() && !p.unstable())
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
        if (dpb.isPresent()) {
            double[] jobs = closedMeasured.stream().mapToDouble(r -> RunShape.of(r).jobs()).toArray();
            double[] response = new double[jobs.length], throughput = new double[jobs.length];
            for (int i = 0; i < jobs.length; i++) {
                RunData run = closedMeasured.get(i);
                SimulationResult r = Simulation.of(dpb.get().model(), ArrivalProcess.closed((int) jobs[i]))
                        .duration(Math.max(1, run.spanSeconds())).seed(seed).run();
                response[i] = r.meanResponse().value();
                throughput[i] = r.throughput().value();
            }
            return Optional.of(new ClosedModelCurves("fitted DPB model (model-sim at each N)", jobs, response, throughput));
        }
        if (mm1.isEmpty()) {
            return Optional.empty();
        }
        int maxJobs = closedMeasured.stream().mapToInt(r -> RunShape.of(r).jobs()).max().orElse(1);
        // the joint fit leaves l free; a latency a little below 0 is noise around none
        ClosedMva mva = new ClosedMva(mm1.get().value("x"), Math.max(0, mm1.get().value("l")));
        return Optional.of(new ClosedModelCurves("fitted modified M/M/1 (exact MVA)",
                IntStream.rangeClosed(1, maxJobs).asDoubleStream().toArray(), mva.responseTimes(maxJobs), mva.throughputs(maxJobs)));
    }
}
