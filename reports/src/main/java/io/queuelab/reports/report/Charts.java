package io.queuelab.reports.report;

import io.queuelab.fit.runs.IntervalSeries;
import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.runs.ServerTelemetry;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.ScheduleStart;
import io.queuelab.core.telemetry.ResourceUse;
import io.queuelab.fit.Flushes;
import io.queuelab.fit.ModelFit;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;

/**
 * The report's charts, built with XChart: response times in milliseconds, instants in seconds
 * since the run's origin, rates per second.
 */
final class Charts {
    static final int WIDTH = 960;
    static final int HEIGHT = 420;
    /** Points drawn per scatter: more only make the SVG heavy. */
    static final int MAX_POINTS = 1500;
    /** Detected flushes marked per chart at most. */
    static final int MAX_FLUSH_MARKS = 500;

    private Charts() {
    }

    private static XYChart chart(String title, String x, String y) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(x).yAxisTitle(y).build();
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
        chart.getStyler().setMarkerSize(4);
        // solid grid lines: the SVG export writes every dash of a dashed line as a shape of its own (~19 KB a line)
        chart.getStyler().setPlotGridLinesStroke(new java.awt.BasicStroke(0.5f));
        chart.getStyler().setPlotGridLinesColor(new Color(220, 220, 220));
        return chart;
    }

    /**
     * Response time of each (thinned) request vs its completion instant, per-interval max,
     * detected flushes, and the server's telemetry (if any) on a right-hand axis of the same clock.
     */
    static XYChart responseOverTime(RunData run, Flushes flushes, java.util.Optional<ServerTelemetry> telemetry) {
        return responseOverTime(run, flushes, telemetry, java.util.Optional.empty());
    }

    /** As above, with the CPU of every sampled process (host resources) on one more right-hand axis. */
    static XYChart responseOverTime(RunData run, Flushes flushes, java.util.Optional<ServerTelemetry> telemetry,
                                    java.util.Optional<ResourceUse> resources) {
        XYChart chart = chart("Response time vs time: " + run.name(), "time (s)", "response time (ms)");
        double[] at = everyKth(run.sample().atSeconds(), MAX_POINTS);
        if (at.length > 0) {
            double[] response = millis(everyKth(run.sample().responseSeconds(), MAX_POINTS));
            XYSeries points = chart.addSeries("requests (" + at.length + " of " + run.okCount() + ")", at, response);
            points.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            points.setMarker(SeriesMarkers.CIRCLE);
            points.setMarkerColor(new Color(40, 90, 200, 90));
        }
        IntervalSeries s = run.series();
        int group = Math.max(1, (s.length() + MAX_POINTS / 2 - 1) / (MAX_POINTS / 2)); // intervals per drawn point
        List<Double> x = new ArrayList<>(), y = new ArrayList<>();
        for (int start = 0; start < s.length(); start += group) {
            double max = 0;
            long completions = 0;
            for (int i = start; i < Math.min(s.length(), start + group); i++) {
                max = Math.max(max, s.maxResponseSeconds(i));
                completions += s.completions(i);
            }
            if (completions > 0) {
                x.add(s.startSeconds(start) + group * s.intervalSeconds() / 2);
                y.add(1e3 * max);
            }
        }
        if (!x.isEmpty()) {
            XYSeries max = chart.addSeries("max per " + trim(group * s.intervalSeconds()) + " s", x, y);
            max.setMarker(SeriesMarkers.NONE);
            max.setLineColor(new Color(90, 90, 90, 110));
            max.setLineWidth(0.7f);
        }
        if (flushes != null && flushes.count() > 0) {
            double[] ends = new double[flushes.count()];
            for (int i = 0; i < ends.length; i++) {
                ends[i] = flushes.starts()[i] + flushes.pauses()[i];
            }
            // at most MAX_FLUSH_MARKS drawn: thousands of pauses (a busy closed run) are a red band either way
            XYSeries marks = chart.addSeries("flush pauses (" + flushes.count() + ")", everyKth(ends, MAX_FLUSH_MARKS),
                    millis(everyKth(flushes.pauses(), MAX_FLUSH_MARKS)));
            marks.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            marks.setMarker(SeriesMarkers.TRIANGLE_UP);
            marks.setMarkerColor(Color.RED);
        }
        telemetry.ifPresent(t -> addTelemetry(chart, t));
        long anchor = run.manifest().flatMap(Manifest::start).map(ScheduleStart::anchorEpochNanos).orElse(Long.MIN_VALUE);
        if (anchor != Long.MIN_VALUE) {
            resources.ifPresent(r -> addCpu(chart, r, anchor, telemetry.isPresent() ? 2 : 1));
        }
        return chart;
    }

    /** Each process's CPU (percent of one core) on y-axis group {@code group}, on the right. */
    private static void addCpu(XYChart chart, ResourceUse resources, long anchorEpochNanos, int group) {
        Color[] colors = {new Color(150, 0, 150), new Color(0, 140, 160), new Color(120, 80, 0), new Color(90, 90, 160)};
        int k = 0;
        for (ResourceUse.Samples p : resources.processes().values()) {
            double[][] cpu = p.cpuPercentSeries();
            if (cpu[0].length == 0) {
                continue;
            }
            double[] at = new double[cpu[0].length];
            for (int i = 0; i < at.length; i++) {
                at[i] = (cpu[0][i] - anchorEpochNanos) / 1e9;
            }
            XYSeries series = chart.addSeries(p.role() + " CPU %", at, cpu[1]);
            series.setYAxisGroup(group);
            series.setMarker(SeriesMarkers.NONE);
            series.setLineColor(colors[k++ % colors.length]);
            series.setLineWidth(1.2f);
        }
        if (k > 0) {
            chart.setYAxisGroupTitle(group, "CPU (% of one core)");
            chart.getStyler().setYAxisGroupPosition(group, org.knowm.xchart.style.Styler.YAxisPosition.Right);
        }
    }

    /** Telemetry series on y-axis group 1, drawn on the right with its own scale. */
    private static void addTelemetry(XYChart chart, ServerTelemetry telemetry) {
        Color[] colors = {new Color(0, 150, 60), new Color(200, 110, 0)};
        int k = 0;
        for (Map.Entry<String, double[][]> e : telemetry.series().entrySet()) {
            XYSeries series = chart.addSeries(e.getKey(), e.getValue()[0], e.getValue()[1]);
            series.setYAxisGroup(1);
            series.setMarker(SeriesMarkers.NONE);
            series.setLineColor(colors[k++ % colors.length]);
            series.setLineWidth(1.2f);
        }
        chart.setYAxisGroupTitle(1, telemetry.axisTitle());
        chart.getStyler().setYAxisGroupPosition(1, org.knowm.xchart.style.Styler.YAxisPosition.Right);
    }

    /** Empirical CDFs of response times from histograms, one series per named histogram. */
    static XYChart cdf(String title, Map<String, Histogram> histograms) {
        XYChart chart = chart(title, "response time (ms)", "P(R <= t)");
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideSE);
        for (Map.Entry<String, Histogram> e : histograms.entrySet()) {
            List<Double> x = new ArrayList<>(), y = new ArrayList<>();
            double n = e.getValue().getTotalCount();
            long cumulative = 0;
            for (HistogramIterationValue v : e.getValue().recordedValues()) {
                cumulative += v.getCountAddedInThisIterationStep();
                x.add(e.getValue().highestEquivalentValue(v.getValueIteratedTo()) / 1e6);
                y.add(cumulative / n);
            }
            XYSeries series = chart.addSeries(e.getKey(), thin(x), thin(y));
            series.setMarker(SeriesMarkers.NONE);
        }
        return chart;
    }

    /** Points of a CDF on the log-time grid of {@link #heldOutCdf}: enough for its curves, few enough for a small SVG. */
    static final int LOG_GRID_POINTS = 100;

    /**
     * A held-out load at a glance: the measured CDFs (one per run of the load, repeats included),
     * the model's predicted CDF, and the band its own replications of the run's size span (the
     * lowest and highest of their CDFs at each time), on a log time axis, where the body of a
     * distribution and its tail both have room (a linear one within less than a decade). A measured CDF inside the band is one the model
     * could have produced; one outside is a shape the model does not have. A replication of another
     * size than the run's {@code sampleSize} (a long run's are shorter,
     * {@link io.queuelab.fit.compare.Replications#replicationSize}) is drawn as the predicted CDF plus
     * its difference from it times sqrt(its size / the run's): the spread a replication of the run's
     * size would have, as the yardstick scales its distances.
     */
    static XYChart heldOutCdf(String title, Map<String, Histogram> measured, String modelName, Histogram model, List<Histogram> replications,
                              long sampleSize) {
        List<Histogram> all = new ArrayList<>(measured.values());
        all.add(model);
        // from the 0.1th to the 99.9th percentile of the measured and predicted: a few outliers a thousand times the body's
        // length would leave the body a few pixels wide (closed N = 1's step)
        List<Histogram> shown = all.stream().filter(h -> h.getTotalCount() > 0).toList();
        double lo = Math.max(1_000, 0.9 * shown.stream().mapToDouble(h -> h.getValueAtPercentile(0.1)).min().orElse(1_000));
        double hi = Math.max(lo * 2, 1.1 * shown.stream().mapToDouble(h -> h.getValueAtPercentile(99.9)).max().orElse(lo * 2));
        // a log axis labels only its decades: within less than one (a closed run of one job) the linear axis says more
        boolean log = hi / lo >= 10;
        XYChart chart = chart(title, log ? "response time (ms, log scale)" : "response time (ms)", "P(R <= t)");
        chart.getStyler().setXAxisLogarithmic(log);
        chart.getStyler().setXAxisDecimalPattern("#,##0.###");
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideSE);
        double[] grid = new double[LOG_GRID_POINTS];
        for (int i = 0; i < grid.length; i++) {
            grid[i] = log ? lo * Math.pow(hi / lo, (double) i / (grid.length - 1)) : lo + (hi - lo) * i / (grid.length - 1);
        }
        double[] xMillis = java.util.Arrays.stream(grid).map(v -> v / 1e6).toArray();
        if (replications.size() >= 2) {
            double[] low = new double[grid.length], high = new double[grid.length];
            double[] scales = replications.stream().mapToDouble(r -> sampleSize > 0 && r.getTotalCount() < sampleSize
                    ? Math.sqrt((double) r.getTotalCount() / sampleSize) : 1).toArray();
            for (int i = 0; i < grid.length; i++) {
                long t = (long) grid[i];
                double predicted = cdfAt(model, t);
                low[i] = 1;
                high[i] = 0;
                for (int k = 0; k < scales.length; k++) {
                    double at = predicted + scales[k] * (cdfAt(replications.get(k), t) - predicted); // between the two: within [0, 1]
                    low[i] = Math.min(low[i], at);
                    high[i] = Math.max(high[i], at);
                }
            }
            Color band = new Color(190, 190, 190);
            for (var edge : List.of(Map.entry(modelName + ": noise band (" + replications.size() + " replications), low", low),
                    Map.entry(modelName + ": noise band, high", high))) {
                XYSeries series = chart.addSeries(edge.getKey(), xMillis, edge.getValue());
                series.setMarker(SeriesMarkers.NONE);
                series.setLineColor(band);
            }
        }
        XYSeries predicted = chart.addSeries(modelName + ": predicted", xMillis, cdfOnGrid(model, grid));
        predicted.setMarker(SeriesMarkers.NONE);
        predicted.setLineColor(Color.BLACK);
        for (Map.Entry<String, Histogram> e : measured.entrySet()) {
            chart.addSeries(e.getKey(), xMillis, cdfOnGrid(e.getValue(), grid)).setMarker(SeriesMarkers.NONE);
        }
        return chart;
    }

    private static double cdfAt(Histogram h, long t) {
        return h.getTotalCount() == 0 ? 0 : h.getPercentileAtOrBelowValue(t) / 100;
    }

    private static double[] cdfOnGrid(Histogram h, double[] grid) {
        return java.util.Arrays.stream(grid).map(t -> cdfAt(h, (long) t)).toArray();
    }

    /**
     * The lead's second picture: measured mean and p99 of every open run against its arrival rate, the
     * runs the model was fitted to apart from those it predicted, with the model's mean and p99
     * curves from the rate alone ({@link OpenModelCurves}), on a log time axis (mean and p99 are
     * often a decade apart).
     */
    static XYChart responseVsRate(OpenModelCurves model, List<io.queuelab.fit.RunPrediction> fitRuns,
                                  List<io.queuelab.fit.RunPrediction> heldOut) {
        XYChart chart = chart("Mean and p99 response time vs arrival rate: measured and " + model.name(), "arrival rate (1/s)",
                "response time (ms, log scale)");
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisDecimalPattern("#,##0.###");
        Color meanColor = new Color(31, 119, 180);
        Color p99Color = new Color(214, 39, 40);
        for (var curve : List.of(Map.entry(model.name() + ": mean", model.meanSeconds()), Map.entry(model.name() + ": p99", model.p99Seconds()))) {
            XYSeries line = chart.addSeries(curve.getKey(), model.rates(), java.util.Arrays.stream(curve.getValue()).map(v -> 1e3 * v).toArray());
            line.setMarker(SeriesMarkers.NONE);
            line.setLineColor(curve.getKey().endsWith("mean") ? meanColor : p99Color);
        }
        for (var runs : List.of(Map.entry("fitted to", fitRuns), Map.entry("held out", heldOut))) {
            List<io.queuelab.fit.RunPrediction> open = runs.getValue().stream().filter(p -> !p.closed()).toList();
            if (open.isEmpty()) {
                continue;
            }
            double[] x = open.stream().mapToDouble(io.queuelab.fit.RunPrediction::level).toArray();
            boolean fitted = runs.getKey().equals("fitted to");
            for (var statistic : List.of(Map.entry("mean", open.stream().mapToDouble(p -> 1e3 * p.measuredMean()).toArray()),
                    Map.entry("p99", open.stream().mapToDouble(p -> 1e3 * p.measuredP99()).toArray()))) {
                XYSeries points = chart.addSeries("measured, " + runs.getKey() + ": " + statistic.getKey(), x, statistic.getValue());
                points.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                points.setMarker(fitted ? SeriesMarkers.CIRCLE : SeriesMarkers.DIAMOND);
                points.setMarkerColor(statistic.getKey().equals("mean") ? meanColor : p99Color);
            }
        }
        return chart;
    }

    /** Measured mean response vs arrival rate (points in seconds) with the identified fits' curves. */
    static XYChart meanResponseVsRate(List<double[]> points, List<ModelFit> fits) {
        XYChart chart = chart("Mean response time vs arrival rate", "arrival rate (1/s)", "mean response time (ms)");
        double[] x = points.stream().mapToDouble(p -> p[0]).toArray();
        double[] y = points.stream().mapToDouble(p -> 1e3 * p[1]).toArray();
        XYSeries measured = chart.addSeries("measured", x, y);
        measured.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        measured.setMarker(SeriesMarkers.DIAMOND);
        double maxRate = java.util.Arrays.stream(x).max().orElse(1);
        // a curve near saturation would stretch the axis until the points lie flat: drawn up to 3 x the highest mean
        double ceiling = 3 * java.util.Arrays.stream(y).max().orElse(1);
        for (ModelFit fit : fits) {
            if (fit.identified()) { // an unidentified fit's curve would present its values as results
                addCurve(chart, fit.method().split("[: ]")[0] + " fit", fit.curve(), maxRate, ceiling);
            }
        }
        return chart;
    }

    private static void addCurve(XYChart chart, String name, DoubleUnaryOperator curve, double maxRate, double ceilingMillis) {
        List<Double> cx = new ArrayList<>(), cy = new ArrayList<>();
        for (int i = 0; i <= 200; i++) {
            double lambda = maxRate * 1.05 * i / 200;
            double value = curve.applyAsDouble(lambda);
            if (Double.isFinite(value) && 1e3 * value <= ceilingMillis) {
                cx.add(lambda);
                cy.add(1e3 * value);
            }
        }
        if (!cx.isEmpty()) {
            chart.addSeries(name, cx, cy).setMarker(SeriesMarkers.NONE);
        }
    }

    /** N/T or N/P: one series of points per kind of run (measured, simulated), and model curves as lines. */
    static XYChart closedCurve(String title, String yTitle, Map<String, double[][]> points, Map<String, double[][]> models) {
        XYChart chart = chart(title, "concurrent requests N", yTitle);
        for (Map.Entry<String, double[][]> e : points.entrySet()) {
            XYSeries s = chart.addSeries(e.getKey(), e.getValue()[0], e.getValue()[1]);
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            s.setMarker(SeriesMarkers.CIRCLE);
        }
        for (Map.Entry<String, double[][]> e : models.entrySet()) {
            chart.addSeries(e.getKey(), e.getValue()[0], e.getValue()[1]).setMarker(SeriesMarkers.NONE);
        }
        return chart;
    }

    private static double[] millis(double[] seconds) {
        return java.util.Arrays.stream(seconds).map(v -> 1e3 * v).toArray();
    }

    private static double[] everyKth(double[] values, int max) {
        int step = (values.length + max - 1) / max;
        if (step <= 1) {
            return values;
        }
        double[] out = new double[(values.length + step - 1) / step];
        for (int i = 0; i < out.length; i++) {
            out[i] = values[i * step];
        }
        return out;
    }

    private static List<Double> thin(List<Double> values) {
        if (values.size() <= 2000) {
            return values;
        }
        int step = (values.size() + 1999) / 2000;
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < values.size(); i += step) {
            out.add(values.get(i));
        }
        if ((values.size() - 1) % step != 0) {
            out.add(values.get(values.size() - 1));
        }
        return out;
    }

    private static String trim(double v) {
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
