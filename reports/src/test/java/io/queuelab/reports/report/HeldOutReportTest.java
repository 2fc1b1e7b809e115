package io.queuelab.reports.report;

import io.queuelab.fit.ClientServerGroundTruth;
import io.queuelab.reports.report.Report;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The report leads with what the models predict for runs they were not fitted to: on the demo's
 * plan (open runs at 0.1, 0.3, 0.5, 0.7, 0.8, 0.9 of capacity and a closed sweep) of the
 * independent ground truth, 0.5 and 0.8 are held out with the closed runs, and the client-limited
 * model is selected.
 */
class HeldOutReportTest {
    @TempDir
    Path dir;

    /** The demo's open plan of the ground truth: rate-0 ... rate-5 at 0.1, 0.3, 0.5, 0.7, 0.8, 0.9 of its capacity. */
    private List<Path> openSweep() throws Exception {
        List<Path> runs = new ArrayList<>();
        double[] loads = {0.1, 0.3, 0.5, 0.7, 0.8, 0.9};
        for (int i = 0; i < loads.length; i++) {
            runs.add(ClientServerGroundTruth.writeRun(dir.resolve("rate-" + i), loads[i] * 1000, 0, 8, 2, 8_000, 400, 500 + i));
        }
        return runs;
    }

    @Test
    void theReportLeadsWithTheHeldOutPredictions() throws Exception {
        List<Path> runs = openSweep();
        runs.add(ClientServerGroundTruth.writeRun(dir.resolve("closed-4"), 0, 4, 8, 2, 8_000, 400, 600));
        Report report = Report.written(runs, dir.resolve("report.html"));
        String page = Files.readString(report.path());
        int lead = page.indexOf("What the models predict for runs they were not fitted to");
        assertTrue(lead > 0 && lead < page.indexOf(">Runs<"), "the held-out section comes first");
        // the same lead in text, for the demo's terminal: the selected model, then each held-out run with the report's numbers
        List<String> headline = report.headline();
        assertEquals(4, headline.size(), String.join("\n", headline));
        assertTrue(headline.get(0).startsWith("selected model: client-ps, held-out error "), headline.get(0));
        assertTrue(headline.get(1).startsWith("  rate-2 (") && headline.get(2).startsWith("  rate-4 (")
                && headline.get(3).startsWith("  closed-4 (N = 4)"), String.join("\n", headline));
        assertTrue(headline.get(1).matches("  rate-2 \\(.*/s\\): mean .* ms, predicted .* \\([-+][0-9.]+ %\\); p99 .* ms, predicted .*;"
                + " CDF (within|beyond) noise"), headline.get(1));
        assertTrue(headline.get(3).contains("; X(N) "), "a closed run's throughput: " + headline.get(3));
        assertTrue(page.contains("Fitted on rate-0, rate-1, rate-3, rate-5; predicted from their rate or N alone: rate-2, rate-4, closed-4."),
                page.substring(lead, Math.min(page.length(), lead + 3000)));
        assertTrue(page.contains("Selected: client-ps"), page.substring(lead, Math.min(page.length(), lead + 3000)));
        assertTrue(page.contains("held-out run (client-ps)"), "the selected model's predictions");
        assertTrue(page.contains("N = 4"), "the closed run predicted");
        assertTrue(!page.contains("load run again"), "no load was run twice");
        // the CDFs and the N/T, N/P lines are the selected model's, each run at its rate or N alone
        for (String run : List.of("rate-0", "rate-1", "rate-3", "rate-5")) {
            assertTrue(page.contains("Response-time CDF of " + run + ", measured vs client-ps, fitted to this run"), run);
        }
        // a held-out run's CDF, with the model's and its noise band, leads the page (issue 39), and is not drawn twice
        for (String run : List.of("rate-2", "rate-4", "closed-4")) {
            int picture = page.indexOf("id=\"held-out-" + run + "\"");
            int heading = page.indexOf(">What the models predict for runs they were not fitted to</h2>");
            assertTrue(picture > heading && picture < page.indexOf("<h2", heading), run + ": its picture in the lead section");
            assertTrue(page.contains("Response-time CDF of " + run + " against client-ps, predicted (held out): the picture of its held-out"
                    + " load at the top of the page."), run);
            assertTrue(!page.contains("Response-time CDF of " + run + ", measured vs"), run + " drawn once");
        }
        assertTrue(page.contains("prediction from the rate or N alone, and the band its own replications of the run&apos;s size span")
                || page.contains("prediction from the rate or N alone, and the band its own replications of the run's size span"),
                "the band of the model's own replications");
        assertTrue(page.contains("The line is the client-ps predicted from the open fit runs (held out)."), "the closed curves");
        assertTrue(!page.contains("No simulation of the fitted model"), "no M/M/1 simulation in its place");
    }

    @Test
    void everyRunOfAHeldOutLoadIsHeldOutAndTheServersSpreadIsShown() throws Exception {
        List<Path> runs = openSweep();
        // the demo's repeats: 0.5 and 0.8 once more, with arrivals of their own
        runs.add(ClientServerGroundTruth.writeRun(dir.resolve("rate-2-repeat-1"), 500, 0, 8, 2, 8_000, 400, 700));
        runs.add(ClientServerGroundTruth.writeRun(dir.resolve("rate-4-repeat-1"), 800, 0, 8, 2, 8_000, 400, 701));
        Path html = Report.write(runs, dir.resolve("report.html"));
        String page = Files.readString(html);
        int lead = page.indexOf(">What the models predict for runs they were not fitted to</h2>");
        String section = page.substring(lead, page.indexOf("<h2", lead + 1));
        assertTrue(section.contains("Fitted on rate-0, rate-1, rate-3, rate-5; predicted from their rate or N alone: rate-2,"
                + " rate-2-repeat-1, rate-4, rate-4-repeat-1."), section);
        assertTrue(section.contains("load run again"), section);
        assertTrue(section.contains("rate-2, rate-2-repeat-1") && section.contains("rate-4, rate-4-repeat-1"), section);
        assertTrue(section.contains("KS D between the runs"), section);
    }
}
