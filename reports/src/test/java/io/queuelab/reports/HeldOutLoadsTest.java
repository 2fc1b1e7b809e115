package io.queuelab.reports;

import io.queuelab.fit.SimRuns;
import io.queuelab.fit.runs.RunData;
import io.queuelab.reports.report.Report;
import io.queuelab.sim.ArrivalProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The report holds out the loads a capacity sweep repeated: the third and the last but one by the
 * rate each run was configured with. Two loads close in rate can measure in the other order (the
 * arrivals are random); ordered by the measured rate, the report would hold out another load than
 * the sweep repeated.
 */
class HeldOutLoadsTest {
    @Test
    void loadsCloseInRateAreHeldOutByTheirConfiguredRate(@TempDir Path dir) throws Exception {
        double[] rates = {20, 30, 40, 50, 50.5, 70};
        List<Path> runs = new ArrayList<>();
        for (int i = 0; i < rates.length; i++) {
            runs.add(dir.resolve("load-" + i));
        }
        // seeds for which the 50/s run measures a higher rate than the 50.5/s one
        boolean crossed = false;
        for (long seed = 1; seed < 200 && !crossed; seed++) {
            for (int i = 3; i <= 4; i++) {
                deleteRecursively(runs.get(i));
                SimRuns.write(runs.get(i), SimRuns.modifiedMm1(0.01, 0.002), ArrivalProcess.open(rates[i]), 2000, seed * 7 + i);
            }
            crossed = RunData.read(runs.get(3)).arrivalRate() > RunData.read(runs.get(4)).arrivalRate();
        }
        assertTrue(crossed, "no seed made the two close loads measure in the other order");
        for (int i = 0; i < rates.length; i++) {
            if (i != 3 && i != 4) {
                SimRuns.write(runs.get(i), SimRuns.modifiedMm1(0.01, 0.002), ArrivalProcess.open(rates[i]), 2000, 100 + i);
            }
            SimRuns.relabelAsMeasured(runs.get(i), null); // the report validates measured runs
        }
        String page = Files.readString(Report.write(runs, dir.resolve("report.html")));
        assertTrue(page.contains("predicted from their rate or N alone: load-2, load-4."), "held out: 40/s and 50.5/s");
    }

    private static void deleteRecursively(Path dir) throws java.io.IOException {
        if (Files.exists(dir)) {
            try (var paths = Files.walk(dir)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
