package io.queuelab.fit;

import io.queuelab.fit.compare.Distances;
import io.queuelab.fit.runs.RunData;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.FittedModel;
import org.HdrHistogram.Histogram;
import org.apache.commons.math3.exception.TooManyEvaluationsException;
import org.apache.commons.math3.optim.InitialGuess;
import org.apache.commons.math3.optim.MaxEval;
import org.apache.commons.math3.optim.PointValuePair;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.apache.commons.math3.optim.nonlinear.scalar.ObjectiveFunction;
import org.apache.commons.math3.optim.nonlinear.scalar.noderiv.NelderMeadSimplex;
import org.apache.commons.math3.optim.nonlinear.scalar.noderiv.SimplexOptimizer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.function.Function;

/**
 * Refinement by simulation: the parameters that minimise the Wasserstein-1 distance between a
 * measured run's response times and those of the model simulated under the same arrival process (the
 * run's own arrival instants when it is a run directory of an open run). Derivative-free
 * (Nelder-Mead on the logarithms of the parameters, so they stay positive); every evaluation uses
 * the same seed, so the random numbers are common to all candidates and differences between them
 * are not simulation noise.
 */
public final class SimulationRefinement {
    private SimulationRefinement() {
    }

    /**
     * @param parameters the refined parameters, in the order of the start vector
     * @param startDistance W1 (s) at the start vector
     * @param distance      W1 (s) at the refined parameters
     * @param evaluations   the simulations run, the start's included: at most the {@code maxEvaluations} asked for
     */
    public record Result(double[] parameters, double startDistance, double distance, int evaluations) {
    }

    public static Result refine(RunData measured, ArrivalProcess arrivalProcess, Function<double[], FittedModel> model, double[] start,
                                int maxEvaluations, long seed) {
        if (measured.okCount() == 0) {
            throw new IllegalArgumentException("no successful requests in " + measured.name());
        }
        Histogram target = measured.responseNanos();
        double[] logStart = Arrays.stream(start).map(Math::log).toArray();
        Function<double[], Double> w1 = logParams -> {
            double[] p = Arrays.stream(logParams).map(Math::exp).toArray();
            try {
                Histogram simulated = model.apply(p).simulation(arrivalProcess).customers(measured.okCount()).seed(seed)
                        .removeWarmup(false).run().responseTimes();
                return Distances.between(target, simulated).wasserstein();
            } catch (IllegalArgumentException unstable) {
                return Double.MAX_VALUE; // e.g. an open model beyond saturation
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
        double startDistance = w1.apply(logStart);
        // the optimizer throws when the evaluations run out, so the best point seen is kept here
        PointValuePair[] best = {new PointValuePair(logStart, startDistance)};
        int[] evaluations = {1};
        ObjectiveFunction objective = new ObjectiveFunction(p -> {
            if (Arrays.equals(p, logStart)) {
                return startDistance; // the simplex's first vertex, simulated above: the same seed gives the same value
            }
            double value = w1.apply(p);
            evaluations[0]++;
            if (value < best[0].getValue()) {
                best[0] = new PointValuePair(p.clone(), value);
            }
            return value;
        });
        double[] steps = new double[start.length];
        Arrays.fill(steps, 0.1); // +-10 % first moves
        try {
            new SimplexOptimizer(1e-4, 1e-7).optimize(new MaxEval(maxEvaluations), objective, GoalType.MINIMIZE,
                    new InitialGuess(logStart), new NelderMeadSimplex(steps));
        } catch (TooManyEvaluationsException enough) {
            // the best point so far is the answer
        }
        double[] refined = Arrays.stream(best[0].getPoint()).map(Math::exp).toArray();
        return new Result(refined, startDistance, best[0].getValue(), evaluations[0]);
    }

    /**
     * Refines E[T_proc], E[T_dp] and DPB_max of a DPB fit on an open run (T_nd and T_proc's shape
     * kept), starting from the paper-method estimates; each candidate is the fit's own model
     * ({@link DpbFit#fitted}) with those three set.
     */
    public static DpbRefinement refineDpb(RunData open, DpbFit fit, int maxEvaluations, long seed) throws IOException {
        ArrivalProcess arrivalProcess = Files.isDirectory(open.source()) ? ArrivalProcess.traceOf(open.source()) : ArrivalProcess.open(open.arrivalRate());
        Function<double[], DpbFit> refined = p -> fit.withRefined(p[0], p[1], (int) Math.max(1, Math.round(p[2])));
        Result r = refine(open, arrivalProcess, p -> refined.apply(p).fitted(),
                new double[] {fit.processingMean(), fit.dirtyPageMean(), fit.bufferPages()}, maxEvaluations, seed);
        return new DpbRefinement(refined.apply(r.parameters()), r);
    }

    /** A DPB fit refined by simulation, with the distances before and after. */
    public record DpbRefinement(DpbFit fit, Result result) {
    }
}
