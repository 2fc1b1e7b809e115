package io.queuelab.reports.report;

import io.queuelab.fit.SimRuns;
import io.queuelab.fit.runs.RunData;
import io.queuelab.sim.DirtyPageBufferModel;
import io.queuelab.sim.ArrivalProcess;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A report of a "measured" sweep (simulated Table 1 runs relabelled as measured) and a simulated
 * sweep: parsed as XML, every chart must be there, inline, non-empty, with its PNG beside it.
 */
class ReportTest {
    @TempDir
    static Path tmp;
    static Path html;
    static Document document;
    static Report report;

    @BeforeAll
    static void writeReport() throws Exception {
        DirtyPageBufferModel table1 = DirtyPageBufferModel.table1();
        Path measured = tmp.resolve("measured");
        Path simulated = tmp.resolve("simulated");
        long seed = 1;
        for (double rate : new double[] {5, 12.5, 18.75, 25}) {
            measuredRun(measured.resolve("open-" + rate), table1, ArrivalProcess.open(rate), 600, seed++);
        }
        SimRuns.writeFor(simulated.resolve("open-25"), table1, ArrivalProcess.open(25), 15_000, seed++);
        Files.writeString(measured.resolve("sweep.json"), "{}"); // a sweep's own files are not runs
        for (int n : new int[] {1, 5, 50}) {
            measuredRun(measured.resolve("closed-" + n), table1, ArrivalProcess.closed(n), n == 1 ? 3000 : 600, seed++);
            SimRuns.writeFor(simulated.resolve("closed-" + n), table1, ArrivalProcess.closed(n), 600, seed++);
        }
        html = tmp.resolve("report.html");
        report = Report.written(List.of(measured, simulated), html);
        document = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(html.toFile());
    }

    static void measuredRun(Path dir, DirtyPageBufferModel model, ArrivalProcess workload, double seconds, long seed) throws IOException {
        SimRuns.writeFor(dir, model, workload, seconds, seed);
        SimRuns.relabelAsMeasured(dir, null);
    }

    @Test
    void everyChartIsPresentInlineAndNonEmptyWithItsPng() throws IOException {
        NodeList figures = document.getElementsByTagName("figure");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < figures.getLength(); i++) {
            Element figure = (Element) figures.item(i);
            String id = figure.getAttribute("id");
            ids.add(id);
            NodeList svgs = figure.getElementsByTagName("svg");
            assertEquals(1, svgs.getLength(), id);
            Element svg = (Element) svgs.item(0);
            // a path already drawn on the page is drawn again by reference (use)
            int drawn = svg.getElementsByTagName("path").getLength() + svg.getElementsByTagName("polyline").getLength()
                    + svg.getElementsByTagName("line").getLength() + svg.getElementsByTagName("use").getLength();
            assertTrue(drawn > 20, id + " draws " + drawn + " shapes");
            assertTrue(svg.getTextContent().length() > 10, id + " has no text");
            String caption = figure.getElementsByTagName("figcaption").item(0).getTextContent();
            assertFalse(caption.isBlank(), id);
            String png = ((Element) figure.getElementsByTagName("a").item(0)).getAttribute("href");
            Path file = html.resolveSibling(png);
            assertTrue(Files.size(file) > 5_000, png);
        }
        // runs of a sweep (the measured ones here) are named after it: measured/open-25-0
        for (String expected : List.of("mean-response-vs-rate", "time-measured-measured-open-25-0", "time-simulated-closed-50",
                "cdf-measured-open-25-0", "cdf-measured-closed-1", "cdf-model-measured-open-12-5", "n-t", "n-p")) {
            assertTrue(ids.contains(expected), expected + " missing from " + ids);
        }
        // 7 measured + 4 simulated runs: 11 response-time charts, the rate chart, 4 CDFs of measured runs
        // with a simulated twin, 3 CDFs of measured runs against the fitted DPB model, N/T and N/P
        assertEquals(11 + 1 + 4 + 3 + 2, ids.size(), ids.toString());
    }

    /**
     * The report as a browser shows it (Debian's headless chromium): no console message (the
     * report has no script; any message is an error, e.g. a refused resource), and every figure of
     * the file is rendered with an SVG whose drawn content has a size.
     */
    @Test
    void headlessChromiumRendersEveryChartWithoutConsoleErrors() throws Exception {
        Path chromium = HeadlessChromium.find();
        Assumptions.assumeTrue(chromium != null,
                "chromium is not installed (Debian: apt-get install -y chromium; .ci/run installs it): report not rendered");
        HeadlessChromium.Rendering rendering = HeadlessChromium.render(chromium, html);
        assertEquals(List.of(), rendering.console(), "console messages of the rendered report");
        NodeList figures = document.getElementsByTagName("figure");
        assertEquals(figures.getLength(), rendering.figures().size(), rendering.figures()::toString);
        for (HeadlessChromium.Figure f : rendering.figures()) {
            assertTrue(f.width() > 100 && f.height() > 100 && f.shapes() > 20, () -> "rendered chart " + f);
        }
    }

    @Test
    void everyCdfChartDrawsBothCurvesAndTheClosedChartsDrawTheModel() {
        int cdfs = 0;
        for (var e : report.charts().entrySet()) {
            if (!e.getKey().startsWith("cdf-")) {
                continue;
            }
            cdfs++;
            var series = List.copyOf(e.getValue().getSeriesMap().values());
            assertEquals(2, series.size(), e.getKey());
            assertEquals("measured", series.get(0).getName(), e.getKey());
            for (var s : series) {
                assertTrue(s.getXData().length > 10 && s.getYData()[s.getYData().length - 1] > 0.99,
                        e.getKey() + ": " + s.getName() + " is not a whole CDF");
            }
        }
        assertEquals(7, cdfs);
        for (String id : List.of("n-t", "n-p")) {
            var model = report.charts().get(id).getSeriesMap().get("fitted DPB model (model-sim at each N)");
            assertTrue(model != null && model.getXData().length == 3, id + " has the model at N = 1, 5, 50");
        }
    }

    @Test
    void theReportFindsTheFlushesFitDpbFinds() throws IOException {
        Path measured = tmp.resolve("measured");
        int fitted = io.queuelab.fit.DpbFit.fit(RunData.read(measured.resolve("open-25.0")),
                RunData.read(measured.resolve("closed-50")), RunData.read(measured.resolve("closed-1"))).openFlushes().count();
        assertTrue(fitted > 100, "flushes in 600 s at 25/s: " + fitted);
        NodeList figures = document.getElementsByTagName("figure");
        String caption = null;
        for (int i = 0; i < figures.getLength(); i++) {
            Element f = (Element) figures.item(i);
            if (f.getAttribute("id").equals("time-measured-measured-open-25-0")) {
                caption = f.getElementsByTagName("figcaption").item(0).getTextContent();
            }
        }
        assertTrue(caption != null && caption.contains(" " + fitted + " flushes detected"), fitted + " vs " + caption);
    }

    @Test
    void timesAreInMillisecondsAndColumnsBreakOnlyBetweenWords() throws IOException {
        String text = document.getDocumentElement().getTextContent();
        assertTrue(text.contains("mean R (ms)") && text.contains("measured mean (ms)"), "table headers in ms");
        assertFalse(text.contains("mean R (s)") || text.contains("p99 (s)"), "no response time in seconds");
        RunData single = RunData.read(tmp.resolve("measured").resolve("closed-1"));
        assertTrue(text.contains(Html.millis(single.meanResponseSeconds())), "the N = 1 run's mean in ms: "
                + Html.millis(single.meanResponseSeconds()));
        String style = document.getElementsByTagName("style").item(0).getTextContent();
        assertFalse(style.contains("anywhere") || style.contains("break-all"), "cells must not break inside words: " + style);
    }

    @Test
    void tablesCarryTheFitsTheVerdictsAndTheFlushes() throws IOException {
        String text = document.getDocumentElement().getTextContent();
        assertTrue(text.contains("DPB_max"), "DPB table");
        assertTrue(text.contains("modified M/M/1"), "M/M/1 fit");
        // The "measured" runs are simulations of Table 1 itself, so the DPB model fitted on open-25, closed-50 and
        // closed-1, replayed on the arrival instants of the three other open runs (5, 12.5 and 18.75/s), is the right
        // model: it must be within simulation noise on most of their 3 x 7 metrics. Not on all: each yardstick is the
        // 95th percentile of only 10 pairs of replications, the fitted parameters carry the error of the runs they were
        // fitted on, and the metrics of one run move together. Measured over 20 seeds (this setup with seeds 1, 1001,
        // ..., 19001, the sampler of 2026-11-28): 0-10 of the 21 beyond, mean 3.6, more than 8 on one seed in 20 (10,
        // seed 10001); all 21 within on 2 seeds in 20 (the old claim, "every metric of every run", held by seed 1's
        // luck). A wrong model is far beyond: with the held-out runs' T_proc 10 % longer than the fitted runs', 10-14
        // of the 21 were beyond over the 10 seeds 1-9001; 20 % longer, 14-18.
        java.util.Map<String, List<String>> verdicts = verdictsByChart();
        List<String> modelCharts = verdicts.keySet().stream().filter(id -> id.startsWith("cdf-model-")).toList();
        assertEquals(3, modelCharts.size(), verdicts.keySet().toString());
        long beyond = modelCharts.stream().flatMap(id -> verdicts.get(id).stream()).filter(v -> !v.equals("within simulation noise")).count();
        assertTrue(beyond <= 8, () -> beyond + " of 21 verdicts of the fitted model beyond simulation noise (at most 8): "
                + modelCharts.stream().map(id -> id + " " + verdicts.get(id)).toList());
        // every comparison has its 7 metrics judged against a yardstick
        for (var e : verdicts.entrySet()) {
            assertEquals(7, e.getValue().size(), e.getKey());
            assertTrue(e.getValue().stream().allMatch(v -> v.equals("within simulation noise") || v.equals("beyond it")),
                    e.getKey() + " " + e.getValue());
        }
        assertTrue(text.contains("flushes detected"), "flush detection");
        assertTrue(text.contains("fitted DPB model (trace-driven)"), "trace-driven simulation of the fitted model");
        assertTrue(text.contains("merged histograms"), "merged percentiles");
        assertTrue(text.contains("Steady state and confidence intervals per phase") && text.contains(" ± "),
                "steady state with intervals");
        // nothing is loaded from elsewhere: every src and href is a file beside the report or a fragment, no
        // stylesheet imports or url() outside data:, and no scheme but the SVG/XHTML namespace names
        NodeList all = document.getElementsByTagName("*");
        for (int i = 0; i < all.getLength(); i++) {
            Element e = (Element) all.item(i);
            for (String attribute : List.of("src", "href", "xlink:href", "action", "poster", "srcset")) {
                String value = e.getAttribute(attribute);
                assertTrue(value.isEmpty() || value.startsWith("#") || value.matches("([A-Za-z0-9._-]+/)?[A-Za-z0-9._-]+\\.(png|csv|html)"),
                        e.getTagName() + " " + attribute + "=" + value);
            }
        }
        String source = Files.readString(html).replace("http://www.w3.org/", "");
        for (String remote : List.of("http:", "https:", "ftp:", "//cdn", "@import", "<script", "<link", "<iframe")) {
            assertFalse(source.contains(remote), "the report must not load anything from elsewhere: " + remote);
        }
        assertFalse(source.replace("url(#", "").contains("url("), "no url() but references inside the SVGs");
    }

    /** The verdict column of each comparison table, by the id of the chart just before it. */
    private static java.util.Map<String, List<String>> verdictsByChart() {
        java.util.Map<String, List<String>> byChart = new java.util.LinkedHashMap<>();
        NodeList tables = document.getElementsByTagName("table");
        for (int t = 0; t < tables.getLength(); t++) {
            Element table = (Element) tables.item(t);
            NodeList header = table.getElementsByTagName("th");
            if (header.getLength() == 0 || !header.item(header.getLength() - 1).getTextContent().equals("verdict")) {
                continue;
            }
            org.w3c.dom.Node previous = table.getPreviousSibling();
            while (previous != null && !(previous instanceof Element)) {
                previous = previous.getPreviousSibling();
            }
            String chart = previous == null ? "?" : ((Element) previous).getAttribute("id");
            List<String> column = new ArrayList<>();
            NodeList rows = table.getElementsByTagName("tr");
            for (int r = 1; r < rows.getLength(); r++) {
                NodeList cells = ((Element) rows.item(r)).getElementsByTagName("td");
                column.add(cells.item(cells.getLength() - 1).getTextContent());
            }
            byChart.put(chart, column);
        }
        return byChart;
    }
}
