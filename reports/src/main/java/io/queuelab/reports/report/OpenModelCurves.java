package io.queuelab.reports.report;

import io.queuelab.fit.HeldOutValidation;
import io.queuelab.fit.RunPrediction;
import io.queuelab.sim.FittedModel;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The selected model's mean and p99 response time against the arrival rate, predicted from the
 * rate alone as each held-out open run is ({@link RunPrediction#atRate}), on an even grid from half
 * the lowest measured open rate to a little beyond the highest; the grid stops at the first rate the
 * model cannot carry (its curve rises without bound there, and a point would be a number it does
 * not have).
 *
 * @param name        the model's name
 * @param rates       arrival rates, per second, ascending
 * @param meanSeconds the predicted mean at each rate
 * @param p99Seconds  the predicted p99 at each rate
 */
record OpenModelCurves(String name, double[] rates, double[] meanSeconds, double[] p99Seconds) {
    /** Rates of the grid. */
    static final int POINTS = 24;
    /** Answered requests simulated at each rate: the p99 of 20,000 is within a few per cent of the model's own. */
    static final long CUSTOMERS = 20_000;

    /** Empty when the selected model predicted no open run (nothing to set the range by). */
    static Optional<OpenModelCurves> predicted(HeldOutValidation.ModelOutcome selected, long seed) throws IOException {
        List<RunPrediction> open = new ArrayList<>(selected.fitRuns());
        open.addAll(selected.predictions());
        double lowest = open.stream().filter(p -> !p.closed()).mapToDouble(RunPrediction::level).min().orElse(Double.NaN);
        double highest = open.stream().filter(p -> !p.closed()).mapToDouble(RunPrediction::level).max().orElse(Double.NaN);
        if (!(lowest > 0)) {
            return Optional.empty();
        }
        double from = 0.5 * lowest;
        double to = 1.05 * highest;
        List<double[]> points = new ArrayList<>();
        for (int i = 0; i < POINTS; i++) {
            double rate = from + (to - from) * i / (POINTS - 1);
            FittedModel model = selected.fit().model(rate);
            Optional<FittedModel.Prediction> p = RunPrediction.atRate(model, rate, CUSTOMERS, seed + i);
            if (p.isEmpty()) {
                break;
            }
            points.add(new double[] {rate, p.get().meanResponse(), p.get().quantile(0.99)});
        }
        if (points.size() < 2) {
            return Optional.empty();
        }
        return Optional.of(new OpenModelCurves(selected.fit().name(), points.stream().mapToDouble(p -> p[0]).toArray(),
                points.stream().mapToDouble(p -> p[1]).toArray(), points.stream().mapToDouble(p -> p[2]).toArray()));
    }
}
