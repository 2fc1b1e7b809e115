package io.queuelab.reports.report;

import io.queuelab.fit.runs.ResourceTable;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Seed 002's Figures 3 and 4 of a {@link ResourceTable}, with the paper's axes: Figure 3 each
 * criterion of each run in percent of the criterion's maximum over the runs (grouped bars, 0 to
 * 100 %), Figure 4 each run's points stacked by criterion (the weighted components before they are
 * added up; the lower the bar, the higher the score).
 */
public final class ResourceFigures {
    /** The PNG files {@link #write} leaves. */
    public static final String FIGURE_3 = "resources-figure3.png";
    public static final String FIGURE_4 = "resources-figure4.png";

    private ResourceFigures() {
    }

    /** Writes both figures into {@code dir} (which must exist). */
    public static void write(ResourceTable table, Path dir) throws IOException {
        List<String> runs = table.rows().stream().map(ResourceTable.Row::run).toList();
        List<String> criteria = ResourceTable.CRITERIA.subList(0, ResourceTable.MEASURED_COLUMNS);

        CategoryChart relative = chart("Resource use relative to the maximum (seed 002, Figure 3)", "criterion", "% of the maximum");
        relative.getStyler().setYAxisMin(0.0).setYAxisMax(100.0);
        double[][] r = table.relativeToMax();
        for (int k = 0; k < runs.size(); k++) {
            List<Double> percent = new ArrayList<>();
            for (double v : r[k]) {
                percent.add(100 * v);
            }
            relative.addSeries(runs.get(k), criteria, percent);
        }
        PngFile.write(dir.resolve(FIGURE_3), relative);

        CategoryChart points = chart("Weighted points by criterion (seed 002, Figure 4)", "run", "points");
        points.getStyler().setStacked(true);
        double[][] c = table.components();
        int shown = table.graded() ? ResourceTable.CRITERIA.size() : criteria.size();
        for (int i = 0; i < shown; i++) {
            List<Double> values = new ArrayList<>();
            for (double[] row : c) {
                values.add(row[i]);
            }
            points.addSeries(ResourceTable.CRITERIA.get(i), runs, values);
        }
        PngFile.write(dir.resolve(FIGURE_4), points);
    }

    private static CategoryChart chart(String title, String x, String y) {
        CategoryChart chart = new CategoryChartBuilder().width(900).height(500).title(title).xAxisTitle(x).yAxisTitle(y).build();
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        return chart;
    }
}
