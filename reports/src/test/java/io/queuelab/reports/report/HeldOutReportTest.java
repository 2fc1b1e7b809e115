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
        // then mean and p99 against the rate, with the model's curves (issue 39 item 4), still in the lead section
        int vsRate = page.indexOf("id=\"held-out-vs-rate\"");
        int leadHeading = page.indexOf(">What the models predict for runs they were not fitted to</h2>");
        assertTrue(vsRate > page.indexOf("id=\"held-out-closed-4\"") && vsRate < page.indexOf("<h2", leadHeading),
                "the rate picture follows the CDF pictures in the lead");
        assertTrue(!page.contains("No simulation of the fitted model"), "no M/M/1 simulation in its place");
    }

    /**
     * The lead's rate curves are the selected model's predictions from the rate alone: at each
     * held-out rate the curve (interpolated between its grid's rates) agrees with the held-out
     * table's prediction of that run, made by another simulation of the same model (other seed and
     * size: within 10 % on the mean, 15 % on the p99, a few times either's simulation noise at these
     * loads); the grid starts at half the lowest open rate and stops before the model's capacity.
     */
    @Test
    void theRateCurvesAreTheSelectedModelsPredictionsFromTheRateAlone() throws Exception {
        List<io.queuelab.fit.runs.RunData> runs = new ArrayList<>();
        for (Path p : openSweep()) {
            runs.add(io.queuelab.fit.runs.RunData.read(p));
        }
        ReportAnalysis analysis = ReportAnalysis.of(runs);
        OpenModelCurves curves = analysis.openCurves.orElseThrow();
        io.queuelab.fit.HeldOutValidation.ModelOutcome selected = analysis.heldOut.selected().orElseThrow();
        assertEquals(selected.fit().name(), curves.name());
        double lowest = runs.stream().mapToDouble(io.queuelab.fit.runs.RunData::arrivalRate).min().orElseThrow();
        assertEquals(0.5 * lowest, curves.rates()[0], 0.05 * lowest, "the grid starts at half the lowest rate");
        assertTrue(curves.rates()[curves.rates().length - 1] < 1000, "the ground truth's capacity is 1,000/s: " + java.util.Arrays.toString(curves.rates()));
        for (int i = 1; i < curves.rates().length; i++) {
            assertTrue(curves.meanSeconds()[i] > 0.9 * curves.meanSeconds()[i - 1], "the mean rises with the rate: "
                    + java.util.Arrays.toString(curves.meanSeconds()));
        }
        assertTrue(!selected.predictions().isEmpty());
        for (io.queuelab.fit.RunPrediction p : selected.predictions()) {
            double mean = interpolate(curves.rates(), curves.meanSeconds(), p.level());
            double p99 = interpolate(curves.rates(), curves.p99Seconds(), p.level());
            assertEquals(p.predictedMean(), mean, 0.10 * p.predictedMean(), p.name() + " at " + p.level() + "/s: mean");
            assertEquals(p.predictedP99(), p99, 0.15 * p.predictedP99(), p.name() + " at " + p.level() + "/s: p99");
        }
    }

    private static double interpolate(double[] x, double[] y, double at) {
        for (int i = 1; i < x.length; i++) {
            if (at <= x[i]) {
                double w = (at - x[i - 1]) / (x[i] - x[i - 1]);
                return y[i - 1] + w * (y[i] - y[i - 1]);
            }
        }
        throw new AssertionError(at + " is beyond the curve's last rate " + x[x.length - 1]);
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
