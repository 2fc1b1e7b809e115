package io.queuelab.reports;

import io.queuelab.reports.text.ValidationJson;
import io.queuelab.reports.text.ValidationText;
import io.queuelab.fit.SimRuns;
import io.queuelab.core.telemetry.CpuSpeedProbe;
import io.queuelab.core.telemetry.HostResourceSampler;
import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.runs.ServerWork;
import io.queuelab.fit.CandidateModels;
import io.queuelab.fit.HeldOutValidation;
import io.queuelab.fit.RunPrediction;
import io.queuelab.reports.report.Report;
import io.queuelab.sim.ArrivalProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A held-out run measured while the server's cpus were slower, and the server spent less cpu per
 * request, than during the fit runs says so: its speed-probe unit and its server cpu per request
 * over the fit runs' medians, in validate's table, its JSON and the report.
 */
class HeldOutServerWorkTest {
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
            serverCpu(run, 12); // 3,000 requests: 4 ms each
            fit.add(run);
        }
        Path slow = dir.resolve("held-out");
        SimRuns.write(slow, SimRuns.modifiedMm1(0.01, 0.002), ArrivalProcess.open(50), 3000, 99);
        SimRuns.relabelAsMeasured(slow, null);
        speed(slow, 50_000);
        serverCpu(slow, 9); // 3 ms a request
        Path unprobed = dir.resolve("held-out-unprobed");
        SimRuns.write(unprobed, SimRuns.modifiedMm1(0.01, 0.002), ArrivalProcess.open(40), 3000, 98);

        HeldOutValidation.Result result = HeldOutValidation.run(fit, List.of(slow, unprobed), CandidateModels.STANDARD.named("mm1"), null, 1, 1);
        assertEquals(40_000, result.fitServer().medians().cpuUnitNanos(), 1e-9);
        assertEquals(0.004, result.fitServer().medians().cpuSecondsPerRequest(), 1e-12);
        List<RunPrediction> predictions = result.model("mm1").predictions();
        ServerWork slower = predictions.get(0).server().over(result.fitServer().at(predictions.get(0)));
        assertEquals(1.25, slower.cpuUnitNanos(), 1e-9);
        assertEquals(0.75, slower.cpuSecondsPerRequest(), 1e-9);
        assertFalse(predictions.get(1).server().known(), "a run neither probed nor sampled");
        String table = ValidationText.toTable(result);
        assertTrue(table.contains("server of the fit runs (medians): probe unit 40.0 us, server cpu 4.000 ms per request"), table);
        assertTrue(table.matches("(?s).*held-out .* 1\\.25 / 0\\.75 \\(another server: cpu 25 % slower, 25 % less cpu per request\\) .*"),
                table);
        assertTrue(table.matches("(?s).*fit-3 .* 1\\.00 / 1\\.00 within noise.*"), "a fit run on the fit runs' server: " + table);
        assertTrue(table.matches("(?s).*held-out-unprobed .* - / - .*"), table);

        Path json = dir.resolve("validate.json");
        ValidationJson.write(result, json);
        assertTrue(Files.readString(json).contains("\"cpuUnitNanos\" : 50000.0"), Files.readString(json));
        assertTrue(Files.readString(json).contains("\"cpuSecondsPerRequest\" : 0.003"), Files.readString(json));

        List<Path> sweep = new ArrayList<>(fit);
        sweep.add(slow);
        Path html = Report.write(sweep, dir.resolve("report.html"));
        String page = Files.readString(html);
        assertTrue(page.contains("server vs fit runs: cpu speed / cpu per request"), "the held-out table's column");
        assertTrue(page.matches("(?s).*<td>held-out</td>.*<td>1\\.25 / 0\\.75: another server \\(cpu 25 % slower, 25 % less cpu per"
                + " request\\); at its own server \\(the demand x0\\.75\\): mean .*</td>.*"), "the slow run's row");
        assertTrue(page.contains("50.0 (1.00x)"), "the runs table: the held-out run's median unit and its steady seconds");
        // 3 ms a request at about 50/s: 0.15 of a core busy
        assertTrue(page.matches("(?s).*<td>3\\.000 \\(333\\.3/s a core; 0\\.1[45] cores busy\\)</td>.*"),
                "the runs table: its server cpu per request, one core's rate at it, and the load it was measured at");
    }

    @Test
    void aServerWithinTheTolerancesIsTheSameServer() {
        ServerWork fit = new ServerWork(40_000, 0.004);
        assertTrue(new ServerWork(41_900, 0.0043).differenceFrom(fit).isEmpty(), "4.75 % slower, 7.5 % more cpu per request");
        assertEquals("cpu 6 % faster", new ServerWork(37_600, 0.004).differenceFrom(fit).orElseThrow());
        assertEquals("11 % more cpu per request", new ServerWork(Double.NaN, 0.00444).differenceFrom(fit).orElseThrow());
        assertTrue(ServerWork.UNKNOWN.differenceFrom(fit).isEmpty(), "nothing known, nothing to say");
    }

    /**
     * A host-resources file whose server process used {@code seconds} of cpu over the run, beside
     * busy rows of the generator's own machine, as a node and as a merged run name them (not the server's).
     */
    private static void serverCpu(Path run, double seconds) throws Exception {
        Files.writeString(run.resolve(HostResourceSampler.FILE_NAME), HostResourceSampler.HEADER + "\n"
                + "1000,client,7,5,,,,,,,1\n1000,host,0,5,,,,,,,1\n1000,node1.client,8,5,,,,,,,1\n1000,node1.host,0,5,,,,,,,1\n"
                + "1000,server,9,100,,,,,,,1\n"
                + "2000,client,7,9000000000,,,,,,,1\n2000,host,0,9000000000,,,,,,,1\n2000,node1.client,8,9000000000,,,,,,,1\n"
                + "2000,node1.host,0,9000000000,,,,,,,1\n2000,server,9," + (100 + (long) (seconds * 1e9)) + ",,,,,,,1\n");
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
