package io.queuelab.fit;

import org.apache.commons.math3.distribution.TDistribution;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A ground-truth emulation's mean and p99 response at one load over R independent replications,
 * each the size of the held-out run, and the bound a prediction of that load is judged by.
 *
 * <p>The bound is derived from the replications' own spread s (the standard deviation of one
 * run's figure between replications), not chosen: a prediction differs from the truth's figure
 * (the replications' average) by the fit runs' noise carried through the fitted parameters (taken
 * as one run's, s: the fit runs are runs of the same size at neighbouring loads), the prediction's
 * own simulation noise ({@link RunPrediction#PREDICTION_FACTOR} times a run's requests: s / sqrt(F))
 * and the average's (s / sqrt(R)). Their sum's standard deviation is s sqrt(1 + 1/F + 1/R); the
 * bound is that times Student's t with R - 1 degrees of freedom at 99.5 % (two-sided 1 %), since s
 * is itself estimated from R runs.
 */
record TruthAtLoad(String load, double[] means, double[] p99s) {
    /** The truth's figures over {@code replications} of one load, each after its first {@code warmup} requests. */
    static TruthAtLoad of(String load, List<EmulatedRun> replications, int warmup) {
        return new TruthAtLoad(load, replications.stream().mapToDouble(r -> r.meanResponse(warmup)).toArray(),
                replications.stream().mapToDouble(r -> r.quantile(warmup, 0.99)).toArray());
    }

    double mean() {
        return Arrays.stream(means).average().orElseThrow();
    }

    double p99() {
        return Arrays.stream(p99s).average().orElseThrow();
    }

    /** The bound on |predicted - truth| for a figure whose replications are {@code values}. */
    static double bound(double[] values) {
        int r = values.length;
        double t = new TDistribution(r - 1).inverseCumulativeProbability(0.995);
        return t * spread(values) * Math.sqrt(1 + 1.0 / RunPrediction.PREDICTION_FACTOR + 1.0 / r);
    }

    /** The standard deviation of one replication's figure. */
    static double spread(double[] values) {
        double m = Arrays.stream(values).average().orElseThrow();
        return Math.sqrt(Arrays.stream(values).map(v -> (v - m) * (v - m)).sum() / (values.length - 1));
    }

    /** Asserts that {@code p}'s predicted mean and p99 are within their bounds of this truth. */
    void assertPredicted(RunPrediction p, String model) {
        assertFalse(p.saturated(), () -> model + " at " + load + ": " + p.saturation());
        assertWithin(model + " at " + load, "mean", p.predictedMean(), means);
        assertWithin(model + " at " + load, "p99", p.predictedP99(), p99s);
    }

    /** Asserts that {@code predicted} is within {@link #bound} of the average of {@code replications} (seconds, or a count). */
    static void assertWithin(String what, String figure, double predicted, double[] replications) {
        double truth = Arrays.stream(replications).average().orElseThrow();
        double bound = bound(replications);
        assertTrue(Math.abs(predicted - truth) <= bound, () -> String.format(Locale.ROOT,
                "%s: predicted %s %.4g, the truth's %.4g over %d replications (one run's spread %.4g): off by %.4g (%+.1f %%),"
                        + " bound %.4g", what, figure, predicted, truth, replications.length, spread(replications), predicted - truth,
                100 * (predicted - truth) / truth, bound));
    }

    String describe() {
        return String.format(Locale.ROOT, "%s: mean %.4f ms (spread %.4f, bound %.4f), p99 %.4f ms (spread %.4f, bound %.4f)", load,
                mean() * 1e3, spread(means) * 1e3, bound(means) * 1e3, p99() * 1e3, spread(p99s) * 1e3, bound(p99s) * 1e3);
    }
}
