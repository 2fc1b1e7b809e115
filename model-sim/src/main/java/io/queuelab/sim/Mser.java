package io.queuelab.sim;

/**
 * MSER (White's marginal standard error rule): where the initial transient of an output series
 * ends. Applied to batch means of 5 observations it is MSER-5, the simulator's warm-up removal;
 * applied to the means of time windows of a measured run it tells whether the run's warm-up was
 * long enough.
 */
public final class Mser {
    private Mser() {
    }

    /**
     * The truncation point, in batches, of the first {@code k} batch means {@code y}: the d <= k/2
     * that minimizes Var(y_d..y_k-1) / (k - d). Zero when there are fewer than 10 batches.
     */
    public static int truncation(double[] y, int k) {
        if (k < 10) {
            return 0;
        }
        double sum = 0;
        double sumSquares = 0;
        double[] suffixSum = new double[k + 1];
        double[] suffixSquares = new double[k + 1];
        for (int i = k - 1; i >= 0; i--) {
            sum += y[i];
            sumSquares += y[i] * y[i];
            suffixSum[i] = sum;
            suffixSquares[i] = sumSquares;
        }
        int best = 0;
        double bestValue = Double.POSITIVE_INFINITY;
        for (int d = 0; d <= k / 2; d++) {
            double m = k - d;
            double ss = suffixSquares[d] - suffixSum[d] * suffixSum[d] / m;
            double value = ss / (m * m);
            if (value < bestValue) {
                bestValue = value;
                best = d;
            }
        }
        return best;
    }
}
