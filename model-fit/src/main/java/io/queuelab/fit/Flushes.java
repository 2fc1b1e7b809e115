package io.queuelab.fit;

import java.util.Arrays;
import java.util.List;

/**
 * The flushes detected in one run: pauses in departures longer than {@code thresholdSeconds}
 * that end with a response-time spike.
 *
 * @param thresholdSeconds the lower bound on a pause, min(T_pause)
 * @param starts           instants (s after the run's origin) of the departure that opened each pause
 * @param pauses           the length of each pause (the inter-departure gap), seconds
 */
public record Flushes(double thresholdSeconds, double[] starts, double[] pauses) {

    public int count() {
        return starts.length;
    }

    /** Mean pause length T_pause (the mean of the gaps longer than the threshold); NaN if none. */
    public double meanPauseSeconds() {
        return Arrays.stream(pauses).average().orElse(Double.NaN);
    }

    /**
     * The flush period: the median time between consecutive flushes (robust to a missed or a
     * spurious flush); NaN with fewer than two flushes.
     */
    public double periodSeconds() {
        if (starts.length < 2) {
            return Double.NaN;
        }
        double[] spacing = new double[starts.length - 1];
        for (int i = 1; i < starts.length; i++) {
            spacing[i - 1] = starts[i] - starts[i - 1];
        }
        return new org.apache.commons.math3.stat.descriptive.rank.Median().evaluate(spacing);
    }

    /** Standard error of {@link #meanPauseSeconds()}; NaN with fewer than two pauses. */
    public double meanPauseStandardError() {
        return pauses.length < 2 ? Double.NaN
                : new org.apache.commons.math3.stat.descriptive.moment.StandardDeviation().evaluate(pauses) / Math.sqrt(pauses.length);
    }

    /**
     * Standard error of {@link #periodSeconds()}, the median spacing: sqrt(pi/2) s / sqrt(m) for
     * m spacings of standard deviation s (the median's large-sample error under a roughly
     * symmetric spread); NaN with fewer than three flushes.
     */
    public double periodStandardError() {
        if (starts.length < 3) {
            return Double.NaN;
        }
        double[] spacing = new double[starts.length - 1];
        for (int i = 1; i < starts.length; i++) {
            spacing[i - 1] = starts[i] - starts[i - 1];
        }
        double sd = new org.apache.commons.math3.stat.descriptive.moment.StandardDeviation().evaluate(spacing);
        return Math.sqrt(Math.PI / 2) * sd / Math.sqrt(spacing.length);
    }

    public List<Double> startList() {
        return Arrays.stream(starts).boxed().toList();
    }
}
