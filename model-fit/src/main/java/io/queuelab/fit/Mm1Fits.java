package io.queuelab.fit;

import org.apache.commons.math3.analysis.UnivariateFunction;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer;
import org.apache.commons.math3.fitting.leastsquares.MultivariateJacobianFunction;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.optim.MaxEval;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.apache.commons.math3.optim.univariate.BrentOptimizer;
import org.apache.commons.math3.optim.univariate.SearchInterval;
import org.apache.commons.math3.optim.univariate.UnivariateObjectiveFunction;
import org.apache.commons.math3.optim.univariate.UnivariatePointValuePair;
import org.apache.commons.math3.util.Pair;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Fits of the modified M/M/1 model E[R](lambda) = x / (1 - lambda x) + l (models.md section 1)
 * to (arrival rate, mean response time) points of open-loop runs.
 */
public final class Mm1Fits {
    static final String MODEL = "modified M/M/1: E[R] = x/(1 - lambda x) + l";

    private Mm1Fits() {
    }

    /**
     * The modified M/M/1 fitted as {@code fit} (its x and l), as model-sim simulates it: the latency l
     * on the way to an M/M/1 queue of mean service x. A joint fit may leave l a little below 0,
     * which is noise around none: the model's latency is then 0.
     */
    public static io.queuelab.sim.FittedModel fitted(String name, ModelFit fit) {
        return new io.queuelab.sim.FittedModel(name, io.queuelab.sim.MM1Model.exponential(fit.value("x")), Math.max(0, fit.value("l")));
    }

    /** E[R](lambda) of the modified M/M/1 model; NaN beyond saturation. */
    public static double meanResponse(double lambda, double x, double l) {
        double rho = lambda * x;
        return rho < 1 ? x / (1 - rho) + l : Double.NaN;
    }

    /**
     * The paper's method (seed 001, section 6.1): R0 is the mean response time of the run with the
     * lowest rate, mu = 1 / (R0 - l), and l is chosen by least squares of the curve against every
     * point's mean. The standard error of l is the least-squares one for that single parameter
     * (R0 taken as exact); mu's follows by the delta method.
     */
    public static ModelFit paper(List<Mm1Point> points) {
        List<Mm1Point> sorted = sortedAtLeast(points, 2);
        double r0 = sorted.get(0).meanResponse();
        double lambdaMax = sorted.get(sorted.size() - 1).lambda();
        // x = R0 - l must keep every point below saturation: l > R0 - 1/lambdaMax
        double lo = Math.max(0, r0 - 1 / lambdaMax) + 1e-12 * r0;
        double hi = r0 * (1 - 1e-9);
        if (!(lo < hi)) {
            throw new IllegalArgumentException("the lowest-rate run's mean response " + r0
                    + " s is not below 1/lambda of the highest rate: no M/M/1 curve fits");
        }
        UnivariateFunction ssr = l -> sumOfSquares(sorted, r0 - l, l);
        UnivariatePointValuePair best = new BrentOptimizer(1e-12, 1e-15).optimize(new MaxEval(10_000),
                new UnivariateObjectiveFunction(ssr), GoalType.MINIMIZE, new SearchInterval(lo, hi, (lo + hi) / 2));
        double l = best.getPoint();
        double x = r0 - l;
        double mu = 1 / x;
        // d E[R]/d l at fixed R0: with x = R0 - l, dE/dl = 1 - 1/(1 - lambda x)^2
        double jtj = 0;
        for (Mm1Point p : sorted) {
            double d = 1 - 1 / Math.pow(1 - p.lambda() * x, 2);
            jtj += d * d;
        }
        int dof = sorted.size() - 1;
        double seL = dof > 0 && jtj > 0 ? Math.sqrt(best.getValue() / dof / jtj) : Double.NaN;
        List<Parameter> parameters = List.of(
                new Parameter("mu", mu, mu * mu * seL, "1/s"),
                new Parameter("x", x, seL, "s"),
                new Parameter("l", l, seL, "s"),
                Parameter.of("R0", r0, "s"));
        Identification.Checks checks = new Identification.Checks().risingTrend(sorted).utilization(x, lambdaMax);
        // x -> 0 (l -> R0) and x -> 1/lambda_max (saturation) are bounds of the search, not estimates;
        // l = 0 is a physical bound that a model without latency reaches legitimately
        checks.notPinned("x", x, r0 - hi, r0 - 1 / lambdaMax > 0 ? r0 - lo : Double.POSITIVE_INFINITY)
                .relativeError("x", seL, x, "x")
                .relativeError("l", seL, r0, "R0");
        List<Residual> residuals = residuals(sorted, x, l);
        checks.residuals(sorted, residuals);
        return new ModelFit(MODEL, "paper: R0 from the lowest rate, mu = 1/(R0 - l), l by least squares",
                parameters, residuals, lambda -> meanResponse(lambda, x, l), checks.result());
    }

    /**
     * The joint fit of x and l by Levenberg-Marquardt, weighted by 1/R^2 (relative errors),
     * started from the paper's estimate. Standard errors come from the covariance scaled by the
     * residual variance; they are NaN with only two points.
     */
    public static ModelFit joint(List<Mm1Point> points) {
        List<Mm1Point> sorted = sortedAtLeast(points, 2);
        ModelFit start = paper(sorted);
        double lambdaMax = sorted.get(sorted.size() - 1).lambda();
        int n = sorted.size();
        MultivariateJacobianFunction model = params -> {
            double x = params.getEntry(0), l = params.getEntry(1);
            RealVector value = new ArrayRealVector(n);
            RealMatrix jacobian = new Array2DRowRealMatrix(n, 2);
            for (int i = 0; i < n; i++) {
                double lambda = sorted.get(i).lambda();
                double oneMinusRho = 1 - lambda * x;
                value.setEntry(i, x / oneMinusRho + l);
                jacobian.setEntry(i, 0, 1 / (oneMinusRho * oneMinusRho));
                jacobian.setEntry(i, 1, 1);
            }
            return new Pair<>(value, jacobian);
        };
        String method = "joint least squares of x and l (Levenberg-Marquardt, weights 1/R^2)";
        Optional<LeastSquaresOptimizer.Optimum> found = WeightedLeastSquares.fit(sorted, model,
                new double[] {start.value("x"), start.value("l")}, p -> {
                    // keep every point below saturation and the service time positive; a latency is a time, never below 0
                    // (runs whose means rise faster than an M/M/1's once gave l = -1.388 ms and a negative fitted mean: at l = 0
                    // such runs are a fit whose residuals say it does not fit, not a negative time printed as a result)
                    p.setEntry(0, Math.min(Math.max(p.getEntry(0), 1e-12), (1 - 1e-9) / lambdaMax));
                    p.setEntry(1, Math.max(p.getEntry(1), 0));
                    return p;
                });
        if (found.isEmpty()) {
            return WeightedLeastSquares.failed(MODEL, method, sorted);
        }
        LeastSquaresOptimizer.Optimum optimum = found.get();
        double x = optimum.getPoint().getEntry(0);
        double l = optimum.getPoint().getEntry(1);
        double[] se = standardErrors(optimum, n, 2);
        List<Parameter> parameters = List.of(
                new Parameter("mu", 1 / x, se[0] / (x * x), "1/s"),
                new Parameter("x", x, se[0], "s"),
                new Parameter("l", l, se[1], "s"));
        List<Residual> residuals = residuals(sorted, x, l);
        Identification identification = new Identification.Checks().risingTrend(sorted).utilization(x, lambdaMax)
                .notPinned("x", x, 1e-12, (1 - 1e-9) / lambdaMax)
                .relativeError("x", se[0], x, "x")
                .relativeError("l", se[1], sorted.get(0).meanResponse(), "the lowest rate's mean response")
                .residuals(sorted, residuals)
                .result();
        return new ModelFit(MODEL, method, parameters, residuals, lambda -> meanResponse(lambda, x, l), identification);
    }

    /** Standard errors: sqrt of the covariance diagonal scaled by the weighted residual variance. */
    static double[] standardErrors(LeastSquaresOptimizer.Optimum optimum, int points, int parameters) {
        double[] se = new double[parameters];
        int dof = points - parameters;
        if (dof <= 0) {
            java.util.Arrays.fill(se, Double.NaN);
            return se;
        }
        double variance = optimum.getCost() * optimum.getCost() / dof;
        try {
            RealMatrix covariance = optimum.getCovariances(1e-14);
            for (int i = 0; i < parameters; i++) {
                se[i] = Math.sqrt(covariance.getEntry(i, i) * variance);
            }
        } catch (org.apache.commons.math3.linear.SingularMatrixException e) {
            java.util.Arrays.fill(se, Double.NaN);
        }
        return se;
    }

    static List<Mm1Point> sortedAtLeast(List<Mm1Point> points, int minimum) {
        if (points.size() < minimum) {
            throw new IllegalArgumentException("an M/M/1 fit needs runs at " + minimum + " or more arrival rates, got " + points.size());
        }
        List<Mm1Point> sorted = new ArrayList<>(points);
        sorted.sort(Comparator.comparingDouble(Mm1Point::lambda));
        return sorted;
    }

    private static double sumOfSquares(List<Mm1Point> points, double x, double l) {
        double sum = 0;
        for (Mm1Point p : points) {
            double r = meanResponse(p.lambda(), x, l);
            if (Double.isNaN(r)) {
                return Double.MAX_VALUE;
            }
            sum += (p.meanResponse() - r) * (p.meanResponse() - r);
        }
        return sum;
    }

    private static List<Residual> residuals(List<Mm1Point> points, double x, double l) {
        return points.stream().map(p -> new Residual(p.name(), p.lambda(), p.meanResponse(), meanResponse(p.lambda(), x, l))).toList();
    }
}
