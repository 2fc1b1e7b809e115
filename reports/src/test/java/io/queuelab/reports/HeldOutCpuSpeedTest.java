package io.queuelab.reports;

import io.queuelab.core.telemetry.CpuSpeedProbe;
import io.queuelab.reports.data.RunData;
import io.queuelab.reports.fit.CandidateModels;
import io.queuelab.reports.fit.HeldOutValidation;
import io.queuelab.reports.fit.RunPrediction;
import io.queuelab.reports.report.Report;
import io.queuelab.sim.ArrivalProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A held-out run measured while the server's cpus were slower than during the fit runs says so:
 * its speed-probe unit over the fit runs' median, in validate's table, its JSON and the report.
 */
class HeldOutCpuSpeedTest {
    @Test
    void aHeldOutRunOnASlowerCpuShowsItsSlowdownBesideItsPrediction(@TempDir Path dir) throws Exception {
        // the report holds out the third and the last but one by rate: 50/s (on a slower cpu) and 60/s
        List<Path> fit = new ArrayList<>();
        double[] rates = {20, 30, 60, 70};
        double[] units = {40_000, 44_000, 38_000, 40_000}; // median 40 us
        for (int i = 0; i < rates.length; i++) {
            Path run = dir.resolve("fit-" + i);
            SimRuns.write(run, SimRuns.modifiedMm1(0.01, 0.002), ArrivalProcess.open(rates[i]), 3000, 10 + i);
            SimRuns.relabelAsMeasured(run, null); // the report validates measured runs
            speed(run, units[i]);
            fit.add(run);
        }
        Path slow = dir.resolve("held-out");
        SimRuns.write(slow, SimRuns.modifiedMm1(0.01, 0.002), ArrivalProcess.open(50), 3000, 99);
        SimRuns.relabelAsMeasured(slow, null);
        speed(slow, 50_000);
        Path unprobed = dir.resolve("held-out-unprobed");
        SimRuns.write(unprobed, SimRuns.modifiedMm1(0.01, 0.002), ArrivalProcess.open(40), 3000, 98);

        HeldOutValidation.Result result = HeldOutValidation.run(fit, List.of(slow, unprobed), CandidateModels.named("mm1"), null, 1, 1);
        assertEquals(40_000, result.fitCpuUnitNanos(), 1e-9);
        List<RunPrediction> predictions = result.model("mm1").predictions();
        assertEquals(1.25, predictions.get(0).cpuSlowdown(result.fitCpuUnitNanos()), 1e-9);
        assertTrue(Double.isNaN(predictions.get(1).cpuSlowdown(result.fitCpuUnitNanos())), "a run not probed has no slowdown");
        String table = HeldOutValidation.toTable(result);
        assertTrue(table.contains("the fit runs' median probe unit 40.0 us"), table);
        assertTrue(table.matches("(?s).*held-out .* 1\\.25 .*"), table);

        Path json = dir.resolve("validate.json");
        HeldOutValidation.writeJson(result, json);
        assertTrue(Files.readString(json).contains("\"cpuUnitNanos\" : 50000.0"), Files.readString(json));

        List<Path> sweep = new ArrayList<>(fit);
        sweep.add(slow);
        Path html = Report.write(sweep, dir.resolve("report.html"));
        String page = Files.readString(html);
        assertTrue(page.contains("server cpu time vs fit runs"), "the held-out table's column");
        assertTrue(page.matches("(?s).*<td>held-out</td>.*<td>1\\.25</td>.*"), "the slow run's row");
        assertTrue(page.contains("50.0 (1.00x)"), "the runs table: the held-out run's median unit and its steady seconds");
    }

    /** A cpu-speed file of one steady second per 20 units, at {@code nanos} each. */
    private static void speed(Path run, double nanos) throws Exception {
        StringBuilder csv = new StringBuilder(CpuSpeedProbe.HEADER + "\n");
        long t0 = RunData.read(run).manifest().flatMap(m -> m.start()).map(s -> s.anchorEpochNanos() + s.scheduleStartNanos())
                .orElse(1_800_000_000_000_000_000L);
        for (int i = 0; i < 100; i++) {
            csv.append(t0 + 50_000_000L * i).append(",0,").append((long) nanos).append('\n');
        }
        Files.writeString(run.resolve(CpuSpeedProbe.FILE_NAME), csv);
    }
}
