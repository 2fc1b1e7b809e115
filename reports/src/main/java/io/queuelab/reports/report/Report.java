package io.queuelab.reports.report;

import io.queuelab.core.log.AtomicFile;
import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.runs.RunArguments;
import org.knowm.xchart.XYChart;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The HTML report of runs and sweeps: one self-contained XHTML file (charts inline as SVG, no
 * network needed) and a PNG of every chart in a folder beside it. Sections: the runs with
 * merged percentiles, the generator's self-check, Little's law per window, the M/M/1 fits, the
 * dirty-page-buffer fit, response time vs time with detected flushes, measured vs simulated CDFs
 * with the yardstick verdicts, and N/T and N/P of closed runs. A section whose runs are missing
 * says what it needs instead of being left out silently.
 *
 * <p>Three jobs, three classes: {@link ReportAnalysis} computes the figures from the runs,
 * {@link ReportFigures} turns charts into figures (SVG inline, PNG beside), {@link ReportPage}
 * writes the page. This class reads the runs and puts them together; the report file is replaced
 * atomically, so a reader never sees half a report.
 */
public final class Report {
    private final Path path;
    private final List<String> headline;
    private final Map<String, XYChart> charts;

    private Report(Path path, List<String> headline, Map<String, XYChart> charts) {
        this.path = path;
        this.headline = List.copyOf(headline);
        this.charts = charts;
    }

    /** Writes the report of the given runs or sweep directories to {@code out}; returns its path. */
    public static Path write(List<Path> runsOrSweeps, Path out) throws IOException {
        return written(runsOrSweeps, out).path();
    }

    /** Writes the report and returns it: its path, its lead in text and its charts. */
    public static Report written(List<Path> runsOrSweeps, Path out) throws IOException {
        System.setProperty("java.awt.headless", "true");
        List<RunData> runs = RunArguments.read(RunArguments.expand(runsOrSweeps));
        ReportFigures figures = new ReportFigures(out);
        ReportAnalysis analysis = ReportAnalysis.of(runs);
        String html = ReportPage.of(analysis, figures);
        AtomicFile.replace(out, tmp -> Files.writeString(tmp, html, StandardCharsets.UTF_8));
        return new Report(out, analysis.headline(), figures.charts());
    }

    /** The report file. */
    public Path path() {
        return path;
    }

    /** The report's lead in a few lines of text: the selected model's held-out predictions, or why there are none. */
    public List<String> headline() {
        return headline;
    }

    /** The charts drawn, by figure id. */
    Map<String, XYChart> charts() {
        return charts;
    }
}
