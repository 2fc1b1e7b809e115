package io.queuelab.core.telemetry;

import io.queuelab.core.testing.TimingSensitive;

import io.queuelab.core.manifest.LoadConfig;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.ScheduleStart;
import io.queuelab.core.process.CpuPinning;
import io.queuelab.core.process.CpuSet;
import io.queuelab.core.telemetry.HostResourceSampler.SampledProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The server cpus' speed probe on real cpus of this machine (its threads pinned, read back from
 * the kernel), and its file read back: the window outside warm-up, the seconds' medians, a torn line.
 */
@TimingSensitive
class CpuSpeedProbeTest {
    @Test
    void aProbeTimesItsUnitOnItsCpuAboutTwentyTimesASecond(@TempDir Path dir) throws Exception {
        CpuSet mine = CpuSet.ofThisThread();
        int cpu = mine.cpus().get(mine.size() - 1);
        Path file = dir.resolve(CpuSpeedProbe.FILE_NAME);
        long start = System.nanoTime();
        try (CpuSpeedProbe probe = CpuSpeedProbe.start(new CpuSet(List.of(cpu)), file)) {
            Thread.sleep(2_000);
            assertEquals(List.of(), probe.notProbed());
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        List<String> lines = Files.readAllLines(file);
        assertEquals(CpuSpeedProbe.HEADER, lines.get(0));
        long rows = lines.size() - 1;
        // one unit per 50 ms after the warm-up units (a few ms): about 40 in 2 s; a loaded machine delays some
        assertTrue(rows >= 0.5 * seconds * 20 && rows <= seconds * 20 + 2, rows + " rows in " + seconds + " s");
        // the same unit timed here, the fastest of 50 after a warm-up: what the probe's units must show, give or take the machine
        long x = 1;
        for (int i = 0; i < CpuSpeedProbe.WARMUP_UNITS; i++) {
            x = CpuSpeedProbe.unit(x);
        }
        long fastest = Long.MAX_VALUE;
        for (int i = 0; i < 50; i++) {
            long t = System.nanoTime();
            x = CpuSpeedProbe.unit(x);
            fastest = Math.min(fastest, System.nanoTime() - t);
        }
        long[] units = new long[lines.size() - 1];
        for (int i = 0; i < units.length; i++) {
            String[] f = lines.get(i + 1).split(",");
            assertEquals(Integer.toString(cpu), f[1], lines.get(i + 1));
            units[i] = Long.parseLong(f[2]);
            // no unit runs faster than the same work does here (half of it: the two clocks' reads and a faster core)
            assertTrue(units[i] > fastest / 2, "unit " + units[i] + " ns, the same work here at best " + fastest + " ns (" + x + ")");
        }
        java.util.Arrays.sort(units);
        // the median unit is the work's time on a core given to it; a busy machine delays some units, not most
        long median = units[units.length / 2];
        assertTrue(median < 3 * fastest, "median unit " + median + " ns, the same work here at best " + fastest + " ns");
        CpuSpeed speed = CpuSpeed.read(dir, Long.MIN_VALUE).orElseThrow();
        assertEquals(List.of(cpu), speed.cpus());
        assertEquals(rows, speed.units());
    }

    @Test
    void aCpuTheMachineDoesNotHaveWritesNoRowAndSaysWhy(@TempDir Path dir) throws Exception {
        CpuSet online = CpuSet.parse(Files.readString(Path.of("/sys/devices/system/cpu/online")));
        int absent = online.cpus().get(online.size() - 1) + 1;
        Path file = dir.resolve(CpuSpeedProbe.FILE_NAME);
        try (CpuSpeedProbe probe = CpuSpeedProbe.start(new CpuSet(List.of(absent)), file)) {
            Thread.sleep(300);
            assertEquals(1, probe.notProbed().size(), probe.notProbed().toString());
            assertTrue(probe.notProbed().get(0).startsWith("cpu " + absent + ": taskset could not pin thread"), probe.notProbed().toString());
        }
        assertEquals(List.of(CpuSpeedProbe.HEADER), Files.readAllLines(file));
        assertTrue(CpuSpeed.read(dir, Long.MIN_VALUE).isEmpty(), "no unit, no speed");
    }

    @Test
    void onlyTheServersCpusThatTheGeneratorDoesNotUseAreProbed(@TempDir Path dir) throws Exception {
        CpuSet mine = CpuSet.ofThisThread();
        assumeTrue(mine.size() >= 2, "needs 2 cpus: one for the server, one for the generator");
        CpuSet serverCpu = new CpuSet(List.of(mine.cpus().get(0)));
        CpuSet generatorCpu = new CpuSet(List.of(mine.cpus().get(1)));
        Process server = new ProcessBuilder("sleep", "60").start();
        try {
            CpuPinning.pin(server.pid(), serverCpu);
            List<SampledProcess> servers = List.of(new SampledProcess("server", server.pid(), null));
            // sharing every cpu with the generator: nothing to probe, no file
            assertEquals(new CpuSet(List.of()), CpuSpeedProbe.serverOnlyCpus(servers));
            Exception[] failed = new Exception[1];
            Thread generator = new Thread(() -> {
                try {
                    CpuPinning.pinThisThread(generatorCpu);
                    assertEquals(serverCpu, CpuSpeedProbe.serverOnlyCpus(servers));
                    try (AutoCloseable probe = CpuSpeedProbe.companion(() -> servers).start(dir)) {
                        Thread.sleep(1_000);
                    }
                } catch (Exception | AssertionError e) {
                    failed[0] = e instanceof Exception ex ? ex : new Exception(e);
                }
            });
            generator.start();
            generator.join(20_000);
            assertEquals(null, failed[0]);
            CpuSpeed speed = CpuSpeed.read(dir, Long.MIN_VALUE).orElseThrow();
            assertEquals(serverCpu.cpus(), speed.cpus());
        } finally {
            server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void theFileIsReadOutsideWarmUpSecondBySecond(@TempDir Path dir) throws Exception {
        long t0 = 1_800_000_000_000_000_000L;
        StringBuilder csv = new StringBuilder(CpuSpeedProbe.HEADER + "\n");
        for (int i = 0; i < 20; i++) { // warm-up: 100 us units, left out
            csv.append(t0 + i * 50_000_000L).append(",0,100000\n");
        }
        for (int second = 1; second <= 3; second++) { // 40 us, 40 us, then a second at 60 us
            for (int i = 0; i < 20; i++) {
                csv.append(t0 + second * 1_000_000_000L + i * 50_000_000L).append(",0,").append(second == 3 ? 60_000 : 40_000).append('\n');
            }
        }
        csv.append(t0 + 4_000_000_000L).append(",0,12"); // torn by a crash
        Files.writeString(dir.resolve(CpuSpeedProbe.FILE_NAME), csv);
        CpuSpeed speed = CpuSpeed.read(dir, t0 + 1_000_000_000L).orElseThrow();
        assertEquals(60, speed.units());
        assertEquals(40_000, speed.medianNanos());
        assertEquals(3, speed.secondMedians().length);
        assertEquals(1.5, speed.secondSpread(), 1e-12);
        assertTrue(speed.render().contains("the slowest second 1.50x the fastest (not steady"), speed.render());
        CpuSpeed all = CpuSpeed.read(dir, Long.MIN_VALUE).orElseThrow();
        assertEquals(80, all.units());
        assertEquals(2.5, all.secondSpread(), 1e-12);
    }

    @Test
    void theManifestsWarmUpAndPlannedEndBoundTheWindow(@TempDir Path dir) throws Exception {
        long anchor = 1_800_000_000_000_000_000L, scheduleStart = 250_000_000L;
        Manifest m = Manifest.create(Manifest.MEASURED)
                .start(ScheduleStart.of(anchor, scheduleStart))
                .config(new LoadConfig("open", "poisson", 0, null, List.of(new LoadConfig.PhaseConfig("warmup", 3, null, 10.0, true),
                        new LoadConfig.PhaseConfig("main", 2, null, 10.0, false)), 4, 0, 0, null, 0, 0, null));
        long t0 = anchor + scheduleStart;
        StringBuilder csv = new StringBuilder(CpuSpeedProbe.HEADER + "\n");
        for (int i = 0; i < 120; i++) { // 6 s from the schedule start: 3 s warm-up at 90 us, 2 s main at 40 us, 1 s drain at 70 us
            double second = i / 20.0;
            csv.append(t0 + i * 50_000_000L).append(",0,").append(second < 3 ? 90_000 : second < 5 ? 40_000 : 70_000).append('\n');
        }
        Files.writeString(dir.resolve(CpuSpeedProbe.FILE_NAME), csv);
        CpuSpeed speed = CpuSpeed.read(dir, java.util.Optional.of(m)).orElseThrow();
        assertEquals(40, speed.units(), "the main phase's 2 s only");
        assertEquals(40_000, speed.medianNanos());
        assertEquals(1.0, speed.secondSpread(), 1e-12);
    }

    @Test
    void anEmptyFileOrATornHeaderIsAProbeThatMeasuredNothing(@TempDir Path dir) throws Exception {
        for (String text : List.of("", "epoch_ns,cp", CpuSpeedProbe.HEADER, CpuSpeedProbe.HEADER + "\n")) {
            Files.writeString(dir.resolve(CpuSpeedProbe.FILE_NAME), text);
            assertTrue(CpuSpeed.read(dir, Long.MIN_VALUE).isEmpty(), "'" + text + "'");
        }
    }

    @Test
    void aFileOfAnotherKindIsAOneLineError(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(CpuSpeedProbe.FILE_NAME), "epoch_ns,process,pid\n1,2,3\n");
        java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> CpuSpeed.read(dir, Long.MIN_VALUE));
        assertTrue(e.getMessage().contains("is not a cpu-speed file"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
}
