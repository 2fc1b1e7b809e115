package io.queuelab.reports.report;

import io.queuelab.fit.SimRuns;
import io.queuelab.sim.FittedModel;
import io.queuelab.sim.ArrivalProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The report of a realistic sweep (the demo's: open runs of 20 s at 0.1 ... 0.9 of a 5,000/s
 * server's capacity, and a closed sweep N = 1 ... 64) stays within 1 MB with all its charts.
 */
class ReportSizeTest {
    static final long MAX_BYTES = 1_000_000;

    @TempDir
    Path tmp;

    @Test
    void aRealisticSweepsReportIsAtMostOneMegabyte() throws IOException {
        FittedModel server = SimRuns.modifiedMm1(0.0002, 0.0001);
        Path sweep = tmp.resolve("select");
        long seed = 7;
        for (double fraction : new double[] {0.1, 0.3, 0.5, 0.7, 0.8, 0.9}) {
            measured(sweep.resolve("rate-" + (int) (5000 * fraction)), server, ArrivalProcess.open(5000 * fraction), seed++);
        }
        for (int n : new int[] {1, 2, 4, 8, 16, 32, 64}) {
            measured(sweep.resolve("closed-" + n), server, ArrivalProcess.closed(n), seed++);
        }
        Path html = tmp.resolve("report.html");
        Report report = Report.written(List.of(sweep), html);
        String text = Files.readString(html);
        int charts = text.split("<figure class=\"chart\"", -1).length - 1;
        assertTrue(charts >= 12 + 1 + 6 + 2, charts + " charts");
        assertTrue(Files.size(html) <= MAX_BYTES, Files.size(html) + " bytes for " + charts + " charts");

        // the model selected on the open runs, as it predicted each closed run the same server generated
        var predicted = report.charts().get("n-t").getSeriesMap().values().stream()
                .filter(s -> s.getName().endsWith(" predicted from the open fit runs (held out)")).findFirst().orElseThrow();
        assertEquals(7, predicted.getXData().length, predicted.getName());
        double measured64 = 1e3 * io.queuelab.fit.runs.RunData.read(sweep.resolve("closed-64")).meanResponseSeconds();
        assertEquals(measured64, predicted.getYData()[6], 0.05 * measured64, predicted.getName());
    }

    private static void measured(Path dir, FittedModel model, ArrivalProcess workload, long seed) throws IOException {
        SimRuns.writeFor(dir, model, workload, 20, seed);
        SimRuns.relabelAsMeasured(dir, null);
    }
}
