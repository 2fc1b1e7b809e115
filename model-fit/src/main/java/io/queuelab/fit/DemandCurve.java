package io.queuelab.fit;

import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.Distribution;
import io.queuelab.sim.Estimate;
import io.queuelab.sim.Model;
import io.queuelab.sim.Simulation;
import io.queuelab.sim.SimulationResult;

import java.io.IOException;
import java.util.Arrays;
import java.util.function.Function;

/**
 * The mean response time of a demand-driven model (M/G/1, M/G/c, client-limited PS) at every
 * utilization, tabulated once by simulation, so that a fit of the demand's scale needs no
 * simulation of its own. It rests on time scaling: these models have no time constant but the
 * demand, so with the demand multiplied by s, R(lambda; s D) = s R(lambda s; D). The table holds
 * g(rho) = R at utilization rho of the unscaled demand D; between its points it interpolates
 * h(rho) = g(rho) (1 - rho), which is smooth where g grows without bound.
 *
 * <p>Guarantee: every point of the table comes from the same seed (common random numbers), so the
 * curve is smooth in rho and a fit of s is not chasing simulation noise; {@link #relativeError}
 * says how much noise each point still carries.
 */
final class DemandCurve {
    /** Utilizations tabulated; a fit point beyond the last is refused. */
    static final double[] RHO = {0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7,
            0.75, 0.8, 0.85, 0.88, 0.91, 0.94, 0.97};
    /** A coarse grid, to compare candidate core counts before the chosen one is tabulated on {@link #RHO}. */
    static final double[] COARSE_RHO = {0.02, 0.2, 0.4, 0.6, 0.75, 0.85, 0.91, 0.97};
    /** The highest utilization a fit may put a run at. */
    static final double MAX_RHO = RHO[RHO.length - 1];

    private final double[] rho;
    private final double meanDemand;
    private final int parallelism;
    private final double[] h;
    private final double[] relativeError;

    private DemandCurve(double[] rho, double meanDemand, int parallelism, double[] h, double[] relativeError) {
        this.rho = rho;
        this.meanDemand = meanDemand;
        this.parallelism = parallelism;
        this.h = h;
        this.relativeError = relativeError;
    }

    /**
     * Tabulates {@code model} (built from the demand) by simulation at the utilizations {@code rho}
     * (ascending, ending at {@link #MAX_RHO}): {@code customers} answered requests at low
     * utilization, up to {@code maxFactor} times more near saturation where the mean converges slowly.
     */
    static DemandCurve tabulate(Function<Distribution, Model> model, Distribution demand, int parallelism, double[] rho,
                                long customers, double maxFactor, long seed) throws IOException {
        Model m = model.apply(demand);
        double[] h = new double[rho.length];
        double[] error = new double[rho.length];
        for (int i = 0; i < rho.length; i++) {
            double lambda = rho[i] * parallelism / demand.mean();
            long n = Math.round(customers * Math.min(maxFactor, 1 / (1 - rho[i])));
            SimulationResult r = Simulation.of(m, ArrivalProcess.open(lambda)).customers(n / 2).replications(2).seed(seed).run();
            Estimate mean = pooled(r);
            h[i] = mean.value() * (1 - rho[i]);
            error[i] = mean.halfWidth() / 1.96 / mean.value();
        }
        return new DemandCurve(rho, demand.mean(), parallelism, h, error);
    }

    /**
     * M/G/1 FCFS in closed form (Pollaczek-Khinchine): E[R] = E[D] + rho E[D^2] / (2 E[D] (1 - rho)),
     * so h(rho) = E[D] (1 - rho) + rho E[D^2] / (2 E[D]) is linear and the table is exact (no
     * simulation error).
     */
    static DemandCurve pollaczekKhinchine(Distribution demand) {
        double[] values = ((Distribution.Empirical) demand).values();
        double mean = demand.mean();
        double second = 0;
        for (double v : values) {
            second += v * v;
        }
        second /= values.length;
        double[] h = new double[RHO.length];
        for (int i = 0; i < RHO.length; i++) {
            h[i] = mean * (1 - RHO[i]) + RHO[i] * second / (2 * mean);
        }
        return new DemandCurve(RHO, mean, 1, h, new double[RHO.length]);
    }

    /** The mean over both replications, with the batch-means error of the mean of the two. */
    private static Estimate pooled(SimulationResult r) {
        double sum = 0, variance = 0;
        int k = 0;
        for (var rep : r.replications()) {
            sum += rep.meanResponse();
            double half = rep.batchMeans().halfWidth();
            variance += Double.isFinite(half) ? Math.pow(half / 1.96, 2) : 0;
            k++;
        }
        return new Estimate(sum / k, 1.96 * Math.sqrt(variance) / k, 0.95, k);
    }

    /** Utilization of the unscaled demand at {@code lambda} with the demand scaled by {@code s}. */
    double utilization(double lambda, double s) {
        return lambda * s * meanDemand / parallelism;
    }

    /** The largest scale that keeps {@code lambda} within the table. */
    double maxScale(double lambda) {
        return MAX_RHO * parallelism / (lambda * meanDemand);
    }

    /** Mean response time (s) at {@code lambda} with the demand scaled by {@code s}; NaN beyond the table. */
    double meanResponse(double lambda, double s) {
        return s * meanResponse(rho, h, utilization(lambda, s));
    }

    /** The simulation's relative standard error of the mean at that point. */
    double relativeError(double lambda, double s) {
        double rho = Math.min(utilization(lambda, s), MAX_RHO);
        return interpolate(this.rho, relativeError, rho);
    }

    /**
     * The mean response at utilization {@code at} of the table {@code h} = R (1 - rho) at the
     * utilizations {@code grid} (ascending, ending at {@link #MAX_RHO}); NaN beyond it.
     */
    static double meanResponse(double[] grid, double[] h, double at) {
        return at <= MAX_RHO ? interpolate(grid, h, at) / (1 - at) : Double.NaN;
    }

    private static double interpolate(double[] rho, double[] values, double at) {
        if (at <= rho[0]) {
            return values[0]; // below 2 % nothing queues: h is flat there
        }
        int i = Arrays.binarySearch(rho, at);
        if (i >= 0) {
            return values[i];
        }
        int hi = -i - 1;
        int lo = hi - 1;
        double f = (at - rho[lo]) / (rho[hi] - rho[lo]);
        return values[lo] + f * (values[hi] - values[lo]);
    }
}
