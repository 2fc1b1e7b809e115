package io.queuelab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code queuelab resources} on two real runs made with {@code --telemetry-interval}: one whose
 * "server" is a process that keeps a core busy, one whose server sleeps. The table's server CPU
 * is judged against the kernel's own count for the busy process over the run (read from
 * /proc/PID/stat by the test, apart from the sampler).
 */
class ResourcesCommandTest {
    @TempDir
    Path dir;

    /** utime + stime of a process, in seconds (clock ticks of 1/100 s, Linux's USER_HZ). */
    private static double cpuSeconds(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // fields 14 and 15 of the line
    }

    private Path run(String name, Process server) {
        Path out = dir.resolve(name);
        CliTestSupport.Result r = CliTestSupport.run("run", "--backend", "mm1", "--mu", "1000", "--rate", "100",
                "--duration", "3s", "--report-interval", "0", "--telemetry-interval", "250ms",
                "--server-pid", Long.toString(server.pid()), "--server-data-dir", dir.toString(), "--out", out.toString());
        assertEquals(0, r.exitCode(), r.err());
        return out;
    }

    @Test
    void theTableGivesEachRunsServerCpuAsTheKernelCountedIt() throws Exception {
        Process busy = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
        Process idle = new ProcessBuilder("sleep", "60").start();
        try {
            double before = cpuSeconds(busy.pid());
            long start = System.nanoTime();
            Path busyRun = run("busy", busy);
            double wall = (System.nanoTime() - start) / 1e9;
            double used = cpuSeconds(busy.pid()) - before;
            Path idleRun = run("idle", idle);

            CliTestSupport.Result r = CliTestSupport.run("resources", busyRun.toString(), idleRun.toString());
            assertEquals(0, r.exitCode(), r.err());
            List<String> lines = r.out().lines().toList();
            String[] busyRow = lines.stream().filter(l -> l.startsWith("busy ")).findFirst().orElseThrow().trim().split("\\s+");
            String[] idleRow = lines.stream().filter(l -> l.startsWith("idle ")).findFirst().orElseThrow().trim().split("\\s+");
            double busyCpu = Double.parseDouble(busyRow[2]);
            // the kernel's count covers the whole command (set-up and drain too), the table the sampled span
            // inside it: the table's share is at least the count over the command's wall time, and at most
            // the count over the sampled span (3 s less one sampling interval)
            double lowest = 100 * used / wall;
            double highest = 100 * used / 2.75;
            assertTrue(busyCpu >= 0.8 * lowest && busyCpu <= 1.2 * highest,
                    "server CPU " + busyCpu + " %, the kernel counted " + used + " s in " + wall + " s:\n" + r.out());
            assertTrue(busyCpu > 5, "a busy loop shows: " + r.out());
            assertEquals(0, Double.parseDouble(idleRow[2]), 0.5, "a sleeping server uses no CPU:\n" + r.out());
            assertTrue(Double.parseDouble(busyRow[4]) > 0 && Double.parseDouble(idleRow[4]) > 0, "each run's client CPU:\n" + r.out());
            assertTrue(r.out().contains("busy / idle: server CPU "), r.out());
        } finally {
            busy.destroy();
            idle.destroy();
            busy.waitFor();
            idle.waitFor();
        }
    }

    @Test
    void aRunWithoutTelemetryIsRefusedInOneLine() {
        Path bare = dir.resolve("bare");
        assertEquals(0, CliTestSupport.run("run", "--backend", "noop", "--rate", "100", "--duration", "1s",
                "--report-interval", "0", "--out", bare.toString()).exitCode());
        CliTestSupport.assertEachIsRefused(new String[][] {{"resources", bare.toString()}});
    }
}
