package io.queuelab.fit;

import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer;
import org.apache.commons.math3.fitting.leastsquares.MultivariateJacobianFunction;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.util.Pair;

import java.util.List;
import java.util.Optional;

/**
 * The load-dependent M/M/1 model of seed 001 section 3.2 (models.md section 2): with n requests
 * in the system the mean service time is x (1+p)^(n-1), a birth-death chain with capacity K
 * (arrivals beyond K are refused, as in model-sim's LoadDependentModel). Fits x, p and the
 * latency l to (arrival rate, mean response) points by Levenberg-Marquardt, weighted 1/R^2.
 */
public final class LoadDependentFit {
    public static final int DEFAULT_CAPACITY = 1000;
    static final String MODEL = "load-dependent M/M/1: x_n = x (1+p)^(n-1), capacity K";

    private LoadDependentFit() {
    }

    /**
     * Mean sojourn time (s) of accepted requests: E[N] / (lambda (1 - P[N = top])), from the law
     * P[N = n] ~ (lambda x)^n (1+p)^(n(n-1)/2) computed in logarithms. With p > 0 these weights
     * fall and then grow without bound, so an open load-dependent server is only metastable: it
     * stays near the empty state for a long time and eventually saturates. The quasi-stationary
     * law used here truncates the chain where the weights start to grow (or at the capacity,
     * whichever comes first), which is what a finite run of the server shows.
     */
    public static double meanSojourn(double lambda, double x, double p, int capacity) {
        double logRho = Math.log(lambda * x);
        double logGrowth = Math.log1p(p);
        double total = 1, population = 0, logWeight = 0, last = 1;
        for (int n = 1; n <= capacity; n++) {
            double step = logRho + (n - 1) * logGrowth; // log of lambda / mu_n
            if (step > 0) {
                break;
            }
            logWeight += step;
            last = Math.exp(logWeight);
            total += last;
            population += n * last;
        }
        return population / total / (lambda * (1 - last / total));
    }

    /** Fits x, l and p (x and l trade off against p: prefer {@link #fitWithLatency} when l is known). */
    public static ModelFit fit(List<Mm1Point> points, int capacity) {
        return fit(points, capacity, Double.NaN);
    }

    /** Fits x and p with the latency l held at a known value (e.g. 0, or from another fit). */
    public static ModelFit fitWithLatency(List<Mm1Point> points, int capacity, double latency) {
        if (!(latency >= 0)) {
            throw new IllegalArgumentException("latency must be >= 0 s, got " + latency);
        }
        return fit(points, capacity, latency);
    }

    private static ModelFit fit(List<Mm1Point> points, int capacity, double fixedLatency) {
        boolean latencyFixed = !Double.isNaN(fixedLatency);
        List<Mm1Point> sorted = Mm1Fits.sortedAtLeast(points, latencyFixed ? 2 : 3);
        ModelFit start = Mm1Fits.joint(sorted);
        int n = sorted.size();
        MultivariateJacobianFunction model = params -> {
            RealVector value = new ArrayRealVector(n);
            RealMatrix jacobian = new Array2DRowRealMatrix(n, 3);
            double[] base = params.toArray();
            for (int i = 0; i < n; i++) {
                double lambda = sorted.get(i).lambda();
                double f = predict(lambda, base, capacity);
                value.setEntry(i, f);
                for (int k = 0; k < 3; k++) {
                    if (k == 1 && latencyFixed) {
                        continue; // a zero column: LM leaves l where it started
                    }
                    double[] moved = base.clone();
                    double h = Math.max(1e-7, Math.abs(base[k]) * 1e-6);
                    moved[k] += h;
                    jacobian.setEntry(i, k, (predict(lambda, moved, capacity) - f) / h);
                }
            }
            return new Pair<>(value, jacobian);
        };
        String method = latencyFixed ? "least squares of x and p with l fixed (Levenberg-Marquardt, weights 1/R^2)"
                : "joint least squares of x, l, p (Levenberg-Marquardt, weights 1/R^2)";
        Optional<LeastSquaresOptimizer.Optimum> found = WeightedLeastSquares.fit(sorted, model,
                new double[] {start.value("x"), latencyFixed ? fixedLatency : start.value("l"), 0.01}, p -> {
                    p.setEntry(0, Math.max(p.getEntry(0), 1e-12));
                    if (latencyFixed) {
                        p.setEntry(1, fixedLatency);
                    }
                    p.setEntry(2, Math.min(Math.max(p.getEntry(2), 0), 0.999));
                    return p;
                });
        if (found.isEmpty()) {
            // typically the points fall where the model rises, or say nothing of p
            return WeightedLeastSquares.failed(MODEL, method, sorted);
        }
        LeastSquaresOptimizer.Optimum optimum = found.get();
        double[] best = optimum.getPoint().toArray();
        double[] se = standardErrors(optimum, n, latencyFixed);
        List<Parameter> parameters = List.of(
                new Parameter("x", best[0], se[0], "s"),
                new Parameter("l", best[1], se[1], "s"),
                new Parameter("p", best[2], se[2], ""),
                Parameter.of("K", capacity, "requests"));
        List<Residual> residuals = sorted.stream()
                .map(p -> new Residual(p.name(), p.lambda(), p.meanResponse(), predict(p.lambda(), best, capacity))).toList();
        Identification.Checks checks = new Identification.Checks().risingTrend(sorted)
                .utilization(best[0], sorted.get(n - 1).lambda())
                .notPinned("x", best[0], 1e-12, Double.POSITIVE_INFINITY)
                .notPinned("p", best[2], 0, 0.999)
                .relativeError("x", se[0], best[0], "x")
                .relativeError("p", se[2], best[2], "p");
        if (!latencyFixed) {
            checks.relativeError("l", se[1], sorted.get(0).meanResponse(), "the lowest rate's mean response");
        }
        checks.residuals(sorted, residuals);
        return new ModelFit(MODEL, method, parameters, residuals, lambda -> predict(lambda, best, capacity), checks.result());
    }

    /** With l fixed, its zero Jacobian column makes the covariance singular: drop it. */
    private static double[] standardErrors(LeastSquaresOptimizer.Optimum optimum, int n, boolean latencyFixed) {
        if (!latencyFixed) {
            return Mm1Fits.standardErrors(optimum, n, 3);
        }
        RealMatrix j = optimum.getJacobian();
        RealMatrix reduced = new Array2DRowRealMatrix(n, 2);
        for (int i = 0; i < n; i++) {
            reduced.setEntry(i, 0, j.getEntry(i, 0));
            reduced.setEntry(i, 1, j.getEntry(i, 2));
        }
        double[] se = {Double.NaN, 0, Double.NaN};
        int dof = n - 2;
        if (dof > 0) {
            double variance = optimum.getCost() * optimum.getCost() / dof;
            try {
                RealMatrix cov = new org.apache.commons.math3.linear.QRDecomposition(reduced.transpose().multiply(reduced))
                        .getSolver().getInverse();
                se[0] = Math.sqrt(cov.getEntry(0, 0) * variance);
                se[2] = Math.sqrt(cov.getEntry(1, 1) * variance);
            } catch (org.apache.commons.math3.linear.SingularMatrixException e) {
                se[0] = Double.NaN; // p at a bound zeroes its column: nothing to say of the errors, and the checks say not identified
                se[2] = Double.NaN;
            }
        }
        return se;
    }

    private static double predict(double lambda, double[] xlp, int capacity) {
        return meanSojourn(lambda, xlp[0], xlp[2], capacity) + xlp[1];
    }
}
