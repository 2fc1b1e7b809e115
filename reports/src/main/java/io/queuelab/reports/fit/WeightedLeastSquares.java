package io.queuelab.reports.fit;

import org.apache.commons.math3.fitting.leastsquares.LeastSquaresBuilder;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer;
import org.apache.commons.math3.fitting.leastsquares.LevenbergMarquardtOptimizer;
import org.apache.commons.math3.fitting.leastsquares.MultivariateJacobianFunction;
import org.apache.commons.math3.fitting.leastsquares.ParameterValidator;
import org.apache.commons.math3.linear.DiagonalMatrix;

import java.util.List;

/**
 * Levenberg-Marquardt on mean response times weighted by 1/R^2 (relative errors), as the
 * closed-form curve fits of this package do it, or by given weights.
 */
final class WeightedLeastSquares {
    private WeightedLeastSquares() {
    }

    static LeastSquaresOptimizer.Optimum fit(List<Mm1Point> points, MultivariateJacobianFunction model, double[] start,
                                             ParameterValidator validator) {
        double[] weights = new double[points.size()];
        for (int i = 0; i < weights.length; i++) {
            weights[i] = 1 / (points.get(i).meanResponse() * points.get(i).meanResponse());
        }
        return fit(points, weights, model, start, validator);
    }

    static LeastSquaresOptimizer.Optimum fit(List<Mm1Point> points, double[] weights, MultivariateJacobianFunction model,
                                             double[] start, ParameterValidator validator) {
        double[] target = points.stream().mapToDouble(Mm1Point::meanResponse).toArray();
        return new LevenbergMarquardtOptimizer().optimize(new LeastSquaresBuilder()
                .model(model)
                .target(target)
                .weight(new DiagonalMatrix(weights))
                .start(start)
                .parameterValidator(validator)
                .maxEvaluations(10_000)
                .maxIterations(10_000)
                .build());
    }
}
