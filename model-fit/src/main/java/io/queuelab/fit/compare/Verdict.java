package io.queuelab.fit.compare;

/**
 * One row of a comparison: a metric's measured and simulated values, their distance, and the
 * yardstick (the 95th percentile of the same distance between independent simulated
 * replications of the measured sample size).
 */
public record Verdict(String metric, double measured, double simulated, double distance, double yardstick, String unit) {
    /**
     * A KS D yardstick above this says that the model's own replications of the run's size are
     * mostly unlike one another (a model at its capacity, whose queue drifts differently in each):
     * then no distance tests the model, and "within" would be a pass that cannot fail.
     */
    public static final double MAX_KS_YARDSTICK = 0.5;

    /** Whether the yardstick can tell a model from another: not NaN, and for KS D one that {@link #ksTesting tests}. */
    public boolean testing() {
        return !Double.isNaN(yardstick) && !(metric.equals("KS D") && !ksTesting(yardstick));
    }

    /** Whether a KS D yardstick tests a model: not above {@link #MAX_KS_YARDSTICK} (NaN, no yardstick, is not judged here). */
    public static boolean ksTesting(double yardstick) {
        return !(yardstick > MAX_KS_YARDSTICK);
    }

    public boolean withinNoise() {
        return testing() && distance <= yardstick;
    }

    public String verdict() {
        return Double.isNaN(yardstick) ? "no yardstick" : !testing() ? NO_TEST : withinNoise() ? "within simulation noise" : "beyond it";
    }

    /** The verdict where the model's own replications differ by more than {@link #MAX_KS_YARDSTICK}. */
    public static final String NO_TEST = "no test: the model's own runs of this size differ by more than half their CDF";
}
