package io.queuelab.fit;

import org.apache.commons.math3.exception.MathIllegalStateException;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresBuilder;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer;
import org.apache.commons.math3.fitting.leastsquares.LevenbergMarquardtOptimizer;
import org.apache.commons.math3.fitting.leastsquares.MultivariateJacobianFunction;
import org.apache.commons.math3.fitting.leastsquares.ParameterValidator;
import org.apache.commons.math3.linear.DiagonalMatrix;

import java.util.List;
import java.util.Optional;

/**
 * Levenberg-Marquardt on mean response times weighted by 1/R^2 (relative errors), as the
 * closed-form curve fits of this package do it, or by given weights. A search that fails (no
 * convergence within its budget, or a Jacobian without a QR decomposition: the points cannot tell
 * the parameters apart) is an empty result, which a fit reports as "not identified", never an
 * exception out of a report.
 */
final class WeightedLeastSquares {
    private WeightedLeastSquares() {
    }

    static Optional<LeastSquaresOptimizer.Optimum> fit(List<Mm1Point> points, MultivariateJacobianFunction model, double[] start,
                                             ParameterValidator validator) {
        double[] weights = new double[points.size()];
        for (int i = 0; i < weights.length; i++) {
            weights[i] = 1 / (points.get(i).meanResponse() * points.get(i).meanResponse());
        }
        return fit(points, weights, model, start, validator);
    }

    static Optional<LeastSquaresOptimizer.Optimum> fit(List<Mm1Point> points, double[] weights, MultivariateJacobianFunction model,
                                                       double[] start, ParameterValidator validator) {
        double[] target = points.stream().mapToDouble(Mm1Point::meanResponse).toArray();
        try {
            return Optional.of(new LevenbergMarquardtOptimizer().optimize(new LeastSquaresBuilder()
                .model(model)
                .target(target)
                .weight(new DiagonalMatrix(weights))
                .start(start)
                .parameterValidator(validator)
                .maxEvaluations(10_000)
                .maxIterations(10_000)
                .build()));
        } catch (MathIllegalStateException failed) { // TooManyEvaluations/Iterations, ConvergenceException (singular Jacobian)
            return Optional.empty();
        }
    }

    /** The fit of a model whose search failed: not identified, with the reason, and no parameter values. */
    static ModelFit failed(String model, String method, List<Mm1Point> sorted) {
        Identification failed = new Identification.Checks().risingTrend(sorted)
                .require(false, "the least-squares search found no optimum (it did not converge, or the points cannot tell the"
                        + " parameters apart)").result();
        return ModelFit.unidentified(model, method, sorted, failed);
    }
}
