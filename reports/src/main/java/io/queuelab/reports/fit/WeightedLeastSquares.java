package io.queuelab.reports.fit;

import org.apache.commons.math3.fitting.leastsquares.LeastSquaresBuilder;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer;
import org.apache.commons.math3.fitting.leastsquares.LevenbergMarquardtOptimizer;
import org.apache.commons.math3.fitting.leastsquares.MultivariateJacobianFunction;
import org.apache.commons.math3.fitting.leastsquares.ParameterValidator;
import org.apache.commons.math3.linear.DiagonalMatrix;

import java.util.List;

/**
 * Levenberg-Marquardt on mean response times weighted by 1/R^2 (relative errors), as every
 * curve fit of this package does it.
 */
final class WeightedLeastSquares {
    private WeightedLeastSquares() {
    }

    static LeastSquaresOptimizer.Optimum fit(List<Mm1Point> points, MultivariateJacobianFunction model, double[] start,
                                             ParameterValidator validator) {
        int n = points.size();
        double[] target = new double[n];
        double[] weights = new double[n];
        for (int i = 0; i < n; i++) {
            target[i] = points.get(i).meanResponse();
            weights[i] = 1 / (target[i] * target[i]);
        }
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
