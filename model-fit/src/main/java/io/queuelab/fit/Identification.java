package io.queuelab.fit;

import org.apache.commons.math3.stat.regression.SimpleRegression;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether a fit's parameters are determined by its data. Guarantees: {@link #identified()} is
 * false exactly when {@link #reason()} names the first check that failed; {@link #evidence()}
 * lists what every check measured (utilization reached, trend, relative standard errors), so an
 * identified fit also shows how close it came to failing.
 */
public record Identification(String reason, List<String> evidence) {
    /** Above this standard error relative to its scale, a parameter is not identified. */
    public static final double MAX_RELATIVE_ERROR = 0.5;
    /** A slope this many standard errors below zero is a significant fall. */
    static final double SIGNIFICANT_T = 2;
    /**
     * A fall between two points this many combined standard errors deep is not noise; above 2
     * because every pair of a sweep is tried.
     */
    static final double SIGNIFICANT_FALL = 3;

    public Identification {
        evidence = List.copyOf(evidence);
    }

    public boolean identified() {
        return reason == null;
    }

    /** "identified (evidence...)" or "not identified: reason". */
    public String summary() {
        return identified() ? "identified (" + String.join("; ", evidence) + ")" : "not identified: " + reason;
    }

    /** Collects checks in order; the first failed one becomes the reason. */
    public static final class Checks {
        private final List<String> evidence = new ArrayList<>();
        private String reason;

        public Checks note(String text) {
            evidence.add(text);
            return this;
        }

        public Checks require(boolean passed, String reasonIfNot) {
            if (!passed && reason == null) {
                reason = reasonIfNot;
            }
            return this;
        }

        /**
         * Standard error over a scale: the parameter's own value for a rate or a service time,
         * or a response time for an additive part of it that may legitimately be near 0 (a
         * latency), whose error only matters against the response it is part of.
         */
        public Checks relativeError(String name, double standardError, double scale, String scaleName) {
            double relative = Math.abs(standardError / scale);
            if (Double.isNaN(relative)) {
                note(name + " has no standard error");
                return require(false, "no standard error for " + name + " (as many parameters as points: nothing left to judge the fit by)");
            }
            note(String.format(Locale.ROOT, "standard error of %s %.0f %% of %s", name, 100 * relative, scaleName));
            return require(relative <= MAX_RELATIVE_ERROR, String.format(Locale.ROOT,
                    "the standard error of %s is %.0f %% of %s (above %.0f %%)", name, 100 * relative, scaleName,
                    100 * MAX_RELATIVE_ERROR));
        }

        public Checks notPinned(String name, double value, double lower, double upper) {
            // within 0.1 %: a least-squares optimum that close to a bound is held there by it (e.g. a
            // utilization of 0.999 at the highest rate fitting one overloaded point), not found freely
            double tolerance = 1e-3 * Math.abs(value);
            boolean atLower = value - lower <= tolerance;
            boolean atUpper = upper - value <= tolerance;
            return require(!atLower && !atUpper, String.format(Locale.ROOT, "%s = %.4g is pinned at its bound %.4g", name, value,
                    atLower ? lower : upper));
        }

        /**
         * The measured mean response must not fall with the arrival rate, since a model with one
         * demand for every load can only rise. With standard errors on the points: no point may lie more
         * than {@link #SIGNIFICANT_FALL} combined standard errors below a point at a lower rate.
         * Without: the least-squares slope must not be more than {@link #SIGNIFICANT_T} standard
         * errors below 0 (with two points, no fall at all).
         */
        public Checks risingTrend(List<Mm1Point> sorted) {
            return trend(sorted, true);
        }

        /**
         * The {@link #risingTrend} measurement as evidence only, for a model whose demand is the
         * server's own at each load: when the server's cpu per request falls with its load faster
         * than the queue grows, such a model predicts a falling mean too, so a fall does not leave
         * its parameters undetermined; its residuals and CDFs judge whether it follows the fall.
         */
        public Checks trendFollowedByDemand(List<Mm1Point> sorted) {
            return trend(sorted, false);
        }

        /** The trend's measurement: a significant fall is the reason ({@code required}) or a note. */
        private Checks trend(List<Mm1Point> sorted, boolean required) {
            if (sorted.stream().allMatch(p -> Double.isFinite(p.standardError()) && p.standardError() > 0)) {
                double worst = Double.NEGATIVE_INFINITY;
                Mm1Point from = null, to = null;
                for (int i = 0; i < sorted.size(); i++) {
                    for (int j = i + 1; j < sorted.size(); j++) {
                        Mm1Point a = sorted.get(i), b = sorted.get(j);
                        double z = (a.meanResponse() - b.meanResponse()) / Math.hypot(a.standardError(), b.standardError());
                        if (z > worst) {
                            worst = z;
                            from = a;
                            to = b;
                        }
                    }
                }
                note(String.format(Locale.ROOT, "largest fall %.1f standard errors", Math.max(0, worst)));
                return fall(required, !(worst > SIGNIFICANT_FALL), String.format(Locale.ROOT,
                        "the measured mean response falls as the rate rises, from %.4g s at %.4g/s to %.4g s at %.4g/s"
                                + " (%.1f standard errors)", from.meanResponse(), from.lambda(), to.meanResponse(), to.lambda(), worst));
            }
            SimpleRegression regression = new SimpleRegression();
            sorted.forEach(p -> regression.addData(p.lambda(), p.meanResponse()));
            double slope = regression.getSlope();
            if (sorted.size() < 3) {
                note(String.format(Locale.ROOT, "trend: slope %.3g s per 1/s (two points, no error)", slope));
                return fall(required, slope >= 0, String.format(Locale.ROOT, "the measured mean response falls as the rate rises, from %.4g s"
                        + " to %.4g s", sorted.get(0).meanResponse(), sorted.get(1).meanResponse()));
            }
            double t = slope / regression.getSlopeStdErr();
            note(String.format(Locale.ROOT, "trend: slope %.3g s per 1/s, t = %.1f", slope, t));
            return fall(required, !(t < -SIGNIFICANT_T), String.format(Locale.ROOT,
                    "the measured mean response falls as the rate rises (slope %.3g s per 1/s, %.1f standard errors below 0)", slope, -t));
        }

        /** A measured fall: the reason the model is not identified ({@code required}), or a note for one that may follow it. */
        private Checks fall(boolean required, boolean passed, String fall) {
            return required ? require(passed, fall + ", where the model can only rise")
                    : passed ? this : note(fall + ", which the measured demand may follow");
        }

        /**
         * How far the curve misses the points, as evidence only: identified parameters of a model
         * that does not describe the data are estimates of the wrong model, which the reader
         * should see, but the residuals do not decide identification.
         */
        public Checks residuals(List<Mm1Point> points, List<Residual> residuals) {
            double worst = 0, worstErrors = Double.NaN;
            for (int i = 0; i < residuals.size(); i++) {
                Residual r = residuals.get(i);
                if (Math.abs(r.relative()) > Math.abs(worst)) {
                    worst = r.relative();
                    worstErrors = r.residual() / points.get(i).standardError();
                }
            }
            return note(String.format(Locale.ROOT, "largest residual %.0f %%%s", 100 * worst, Double.isNaN(worstErrors) ? ""
                    : String.format(Locale.ROOT, " (%.1f standard errors of its point)", Math.abs(worstErrors))));
        }

        public Checks utilization(double serviceTime, double highestRate) {
            return note(String.format(Locale.ROOT, "utilization reached %.2f at %.4g/s", serviceTime * highestRate, highestRate));
        }

        public Identification result() {
            return new Identification(reason, evidence);
        }
    }
}
