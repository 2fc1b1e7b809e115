package io.queuelab.reports.compare;

/**
 * One row of a comparison: a metric's measured and simulated values, their distance, and the
 * yardstick (the 95th percentile of the same distance between independent simulated
 * replications of the measured sample size).
 */
public record Verdict(String metric, double measured, double simulated, double distance, double yardstick, String unit) {

    public boolean withinNoise() {
        return distance <= yardstick;
    }

    public String verdict() {
        return Double.isNaN(yardstick) ? "no yardstick" : withinNoise() ? "within simulation noise" : "beyond it";
    }
}
