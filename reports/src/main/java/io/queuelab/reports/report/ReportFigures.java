package io.queuelab.reports.report;

import org.knowm.xchart.XYChart;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The report's charts as figures: each chart (built by {@link Charts}) becomes an XHTML
 * {@code <figure>} with the chart inline as SVG and a caption linking to a PNG of it, written to a
 * folder beside the report ({@code <stem>-png/NN-<id>.png}, numbered in the order drawn).
 *
 * <p>Guarantees: every figure id is unique within the report (a repeated id gets "-2", "-3", ...),
 * so its anchor and PNG name are too; the PNG exists, whole, once the figure's markup is returned
 * (it is written beside its name and moved there: a full disk leaves no PNG cut short).
 */
final class ReportFigures {
    private final Map<String, XYChart> charts = new LinkedHashMap<>();
    private final Path pngDir;
    private final String pngDirName;

    /** Figures of the report written to {@code report}; creates the PNG folder beside it. */
    ReportFigures(Path report) throws IOException {
        String stem = report.getFileName().toString().replaceFirst("\\.x?html?$", "");
        this.pngDirName = stem + "-png";
        this.pngDir = report.toAbsolutePath().getParent().resolve(pngDirName);
        Files.createDirectories(pngDir);
    }

    /** Paths already drawn on the page, for {@link CompactSvg#shareRepeatedPaths}. */
    private final Map<String, String> drawnPaths = new java.util.HashMap<>();

    /** Writes the chart's PNG and returns the figure's markup. */
    String figure(String id, XYChart chart, String caption) throws IOException {
        String unique = id;
        for (int k = 2; charts.containsKey(unique); k++) {
            unique = id + "-" + k;
        }
        charts.put(unique, chart);
        String inline = CompactSvg.shareRepeatedPaths(CompactSvg.of(chart), drawnPaths);
        String png = String.format("%02d-%s.png", charts.size(), unique);
        PngFile.write(pngDir.resolve(png), chart);
        return "<figure class=\"chart\" id=\"" + Html.escape(unique) + "\">\n" + inline + "\n<figcaption>" + Html.escape(caption)
                + " <a href=\"" + Html.escape(pngDirName + "/" + png) + "\">PNG</a></figcaption>\n</figure>\n";
    }

    /** The charts drawn, by figure id, in the order drawn. */
    Map<String, XYChart> charts() {
        return charts;
    }
}
