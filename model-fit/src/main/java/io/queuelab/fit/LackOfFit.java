package io.queuelab.fit;

import org.apache.commons.math3.distribution.ChiSquaredDistribution;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether a fitted model explains the data it was fitted to, tested two ways, apart from whether
 * its parameters are identified ({@link Identification}):
 * <ol>
 *   <li>the residuals of the mean response against their standard errors: the sum of squared
 *       standardized residuals against the chi-square distribution with (points - parameters)
 *       degrees of freedom, failing at the level {@link #LEVEL} (skipped, and said so, when a point
 *       has no standard error or no degree of freedom is left);</li>
 *   <li>each fit run's measured response-time distribution against the model's prediction for
 *       that run: KS D within the simulation-noise yardstick ({@link RunPrediction}).</li>
 * </ol>
 * Guarantee: {@link #fits()} is false exactly when {@link #reason()} names the first test that
 * failed; {@link #evidence()} lists what each test measured.
 */
public record LackOfFit(String reason, List<String> evidence) {
    /** The level of the residual test. */
    public static final double LEVEL = 0.01;

    public LackOfFit {
        evidence = List.copyOf(evidence);
    }

    public boolean fits() {
        return reason == null;
    }

    /** "fits (evidence)" or "does not fit: reason". */
    public String summary() {
        return fits() ? "fits (" + String.join("; ", evidence) + ")" : "does not fit: " + reason;
    }

    /**
     * Tests a fit: its residuals against the points' standard errors (with the prediction's own
     * relative simulation error, 0 for a closed form, added in quadrature) and the CDF of each fit
     * run against the prediction.
     */
    public static LackOfFit test(List<Mm1Point> points, List<Residual> residuals, double[] predictionRelativeErrors,
                                 int parameters, List<RunPrediction> fitRuns) {
        List<String> evidence = new ArrayList<>();
        String reason = null;
        int dof = points.size() - parameters;
        boolean errorsKnown = points.stream().allMatch(p -> Double.isFinite(p.standardError()) && p.standardError() > 0);
        if (points.isEmpty()) {
            // a model fitted from other measurements than a curve of means (the DPB model): its CDFs alone judge it
        } else if (dof < 1) {
            evidence.add("residual test not possible: " + points.size() + " points for " + parameters + " parameters");
        } else if (!errorsKnown) {
            evidence.add("residual test not possible: a point has no standard error (a run too short to cut into sections)");
        } else {
            double chi2 = 0, worst = 0;
            String worstRun = null;
            for (int i = 0; i < points.size(); i++) {
                Residual r = residuals.get(i);
                double predictionError = predictionRelativeErrors == null ? 0 : predictionRelativeErrors[i] * r.fitted();
                double z = r.residual() / Math.hypot(points.get(i).standardError(), Double.isFinite(predictionError) ? predictionError : 0);
                if (!Double.isFinite(z)) {
                    z = Double.POSITIVE_INFINITY; // the model has no value there (beyond its capacity)
                }
                chi2 += z * z;
                if (Math.abs(z) > Math.abs(worst)) {
                    worst = z;
                    worstRun = r.name();
                }
            }
            double p = Double.isFinite(chi2) ? 1 - new ChiSquaredDistribution(dof).cumulativeProbability(chi2) : 0;
            evidence.add(String.format(Locale.ROOT, "residuals: chi-square %.3g on %d degrees of freedom, p = %.2g", chi2, dof, p));
            if (p < LEVEL) {
                reason = String.format(Locale.ROOT,
                        "the mean responses miss the model by more than their errors allow (chi-square %.3g on %d degrees of freedom,"
                                + " p = %.2g < %.2g; worst %s, %.1f standard errors)", chi2, dof, p, LEVEL, worstRun, Math.abs(worst));
            }
        }
        int within = 0;
        RunPrediction worstCdf = null;
        for (RunPrediction r : fitRuns) {
            if (r.withinYardstick()) {
                within++;
            } else if (worstCdf == null || r.ksRatio() > worstCdf.ksRatio()) {
                worstCdf = r;
            }
        }
        if (!fitRuns.isEmpty()) {
            evidence.add(String.format(Locale.ROOT, "response-time CDF within simulation noise at %d of %d runs", within, fitRuns.size()));
        }
        if (reason == null && worstCdf != null && !worstCdf.saturated() && !worstCdf.testing()) {
            reason = String.format(Locale.ROOT, "the model's own runs at the load of %s differ by more than half their CDF (a yardstick"
                    + " of %.3f): it is at its capacity there and predicts no steady distribution; the CDF is within simulation noise at"
                    + " %d of %d runs", worstCdf.name(), worstCdf.ksYardstick(), within, fitRuns.size());
        }
        if (reason == null && worstCdf != null) {
            reason = String.format(Locale.ROOT, "the response-time distribution of %s is beyond simulation noise (KS D %.3f against"
                    + " a yardstick of %.3f%s), at %d of %d runs", worstCdf.name(), worstCdf.ks(), worstCdf.ksYardstick(),
                    worstCdf.saturated() ? ", the " + worstCdf.cdfVerdict() : "", fitRuns.size() - within, fitRuns.size());
        }
        return new LackOfFit(reason, evidence);
    }
}
