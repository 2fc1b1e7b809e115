package io.queuelab.sim;

import org.apache.commons.math3.distribution.TDistribution;

/**
 * A point estimate with a two-sided confidence interval [value - halfWidth, value + halfWidth].
 * {@code halfWidth} is NaN when the interval cannot be computed (fewer than two samples).
 *
 * @param samples the number of independent (or batch) samples the interval rests on
 */
public record Estimate(double value, double halfWidth, double confidence, int samples) {

    /** The Student-t interval of the mean of independent, roughly normal samples. */
    public static Estimate ofSamples(double[] samples, double confidence) {
        int n = samples.length;
        if (n == 0) {
            return new Estimate(Double.NaN, Double.NaN, confidence, 0);
        }
        double mean = 0;
        for (double s : samples) {
            mean += s;
        }
        mean /= n;
        if (n < 2) {
            return new Estimate(mean, Double.NaN, confidence, n);
        }
        double ss = 0;
        for (double s : samples) {
            ss += (s - mean) * (s - mean);
        }
        double sd = Math.sqrt(ss / (n - 1));
        double t = new TDistribution(null, n - 1).inverseCumulativeProbability(0.5 + confidence / 2);
        return new Estimate(mean, t * sd / Math.sqrt(n), confidence, n);
    }

    public double lower() {
        return value - halfWidth;
    }

    public double upper() {
        return value + halfWidth;
    }

    /** Half-width relative to the value (e.g. 0.02 for +-2%). */
    public double relativeHalfWidth() {
        return halfWidth / Math.abs(value);
    }

    /** Whether the interval contains {@code x}. */
    public boolean covers(double x) {
        return x >= lower() && x <= upper();
    }

    /** The same estimate with value and half-width multiplied by {@code factor} (e.g. 1e3 for ms). */
    public Estimate scaled(double factor) {
        return new Estimate(value * factor, halfWidth * factor, confidence, samples);
    }
}
