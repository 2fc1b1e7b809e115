package io.queuelab.cli;

import io.queuelab.core.testing.TimingSensitive;

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
@TimingSensitive
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

    /** The busy process's CPU seconds by the epoch instant, read by the test every 20 ms while the run goes. */
    private static final class KernelCount implements AutoCloseable {
        private final java.util.List<double[]> samples = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final Thread reader;
        private volatile boolean stop;

        KernelCount(long pid) {
            reader = new Thread(() -> {
                while (!stop) {
                    try {
                        long before = epochNanos();
                        double cpu = cpuSeconds(pid);
                        samples.add(new double[] {(before + epochNanos()) / 2.0, cpu});
                        Thread.sleep(20);
                    } catch (Exception e) {
                        return;
                    }
                }
            });
            reader.start();
        }

        private static long epochNanos() {
            java.time.Instant now = java.time.Instant.now();
            return now.getEpochSecond() * 1_000_000_000L + now.getNano();
        }

        /** The count at an epoch instant: the last reading at or before it. */
        double at(long epochNanos) {
            double cpu = Double.NaN;
            for (double[] s : samples) {
                if (s[0] <= epochNanos) {
                    cpu = s[1];
                }
            }
            return cpu;
        }

        @Override
        public void close() throws InterruptedException {
            stop = true;
            reader.join();
        }
    }

    @Test
    void theTableGivesEachRunsServerCpuAsTheKernelCountedIt() throws Exception {
        Process busy = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
        Process idle = new ProcessBuilder("sleep", "60").start();
        try {
            Path busyRun;
            double used;
            double span;
            try (KernelCount kernel = new KernelCount(busy.pid())) {
                busyRun = run("busy", busy);
                // the window the table covers: the first and the last sample of the server in host-resources.csv
                List<Long> instants = Files.readAllLines(busyRun.resolve("host-resources.csv")).stream().skip(1)
                        .map(l -> l.split(",")).filter(f -> f[1].equals("server")).map(f -> Long.parseLong(f[0])).toList();
                long first = instants.get(0);
                long last = instants.get(instants.size() - 1);
                used = kernel.at(last) - kernel.at(first);
                span = (last - first) / 1e9;
            }
            Path idleRun = run("idle", idle);

            CliTestSupport.Result r = CliTestSupport.run("resources", busyRun.toString(), idleRun.toString());
            assertEquals(0, r.exitCode(), r.err());
            List<String> lines = r.out().lines().toList();
            String[] busyRow = lines.stream().filter(l -> l.startsWith("busy ")).findFirst().orElseThrow().trim().split("\\s+");
            String[] idleRow = lines.stream().filter(l -> l.startsWith("idle ")).findFirst().orElseThrow().trim().split("\\s+");
            double busyCpu = Double.parseDouble(busyRow[2]);
            // the kernel's count over the same window, read apart from the sampler: the readings are 20 ms
            // apart and the count moves in ticks of 10 ms, so the two agree within 2 x (20 ms of the share +
            // a tick) over the ~3 s window: 1.5 % of the share and 0.7 percentage points; 10 % and 1 point
            double share = 100 * used / span;
            assertEquals(share, busyCpu, 0.1 * share + 1,
                    "server CPU " + busyCpu + " %, the kernel counted " + used + " s in the " + span + " s sampled:\n" + r.out());
            assertTrue(busyCpu > 5, "a busy loop shows: " + r.out());
            assertEquals(0, Double.parseDouble(idleRow[2]), 0.5, "a sleeping server uses no CPU:\n" + r.out());
            assertTrue(Double.parseDouble(busyRow[4]) > 0 && Double.parseDouble(idleRow[4]) > 0, "each run's client CPU:\n" + r.out());
            assertTrue(r.out().contains("busy / idle: server CPU "), r.out());

            // --difficulty from the command line (issue 42 item 4): each run's grade in its row, 0.2 x grade added to
            // its points (the measured columns unchanged), the score on the scale of 9.5 + 0.2 x 5 points
            CliTestSupport.Result graded = CliTestSupport.run("resources", "--difficulty", "busy=5,idle=1",
                    busyRun.toString(), idleRun.toString());
            assertEquals(0, graded.exitCode(), graded.err());
            List<String> gradedLines = graded.out().lines().toList();
            String[] busyGraded = gradedLines.stream().filter(l -> l.startsWith("busy ")).findFirst().orElseThrow().trim().split("\\s+");
            String[] idleGraded = gradedLines.stream().filter(l -> l.startsWith("idle ")).findFirst().orElseThrow().trim().split("\\s+");
            assertEquals("5", busyGraded[10], graded.out());
            assertEquals("1", idleGraded[10], graded.out());
            assertEquals("-", busyRow[10], "ungraded: " + r.out());
            for (String[][] rows : new String[][][] {{busyRow, busyGraded, {"5"}}, {idleRow, idleGraded, {"1"}}}) {
                double ungradedPoints = Double.parseDouble(rows[0][11]);
                double gradedPoints = Double.parseDouble(rows[1][11]);
                assertEquals(ungradedPoints + 0.2 * Integer.parseInt(rows[2][0]), gradedPoints, 0.011, graded.out());
                // the printed score is 100 x (possible - points) / possible, possible 9.5 ungraded and 10.5 graded
                assertEquals(100 * (10.5 - gradedPoints) / 10.5, Double.parseDouble(rows[1][12]), 0.6, graded.out());
                assertEquals(100 * (9.5 - ungradedPoints) / 9.5, Double.parseDouble(rows[0][12]), 0.6, r.out());
            }
            assertTrue(graded.out().contains("weights 2, 0.25, 2.5, 0.25, 2.5, 0.5, 1.5, difficulty 0.2 x grade (seed 002)"),
                    graded.out());
            CliTestSupport.assertEachIsRefused(new String[][] {
                    {"resources", "--difficulty", "busy=6,idle=1", busyRun.toString(), idleRun.toString()},
                    {"resources", "--difficulty", "busy=5,nosuch=1", busyRun.toString(), idleRun.toString()},
                    {"resources", "--difficulty", "busy", busyRun.toString(), idleRun.toString()},
            });
            assertEquals("queuelab: --difficulty names nosuch, which is none of the runs",
                    CliTestSupport.run("resources", "--difficulty", "busy=5,nosuch=1", busyRun.toString(), idleRun.toString())
                            .err().strip());
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

    /**
     * A host-resources.csv whose header is hostile: terminal escapes, a bell, bytes that are not
     * UTF-8 and a 100,000-character line. The refusal is one line naming the file, quotes at most
     * {@value io.queuelab.core.log.InputErrors#MAX_QUOTE} characters of it with every control
     * character and bad byte escaped, and says how long the line was.
     */
    @Test
    void aHostileHeaderIsQuotedEscapedAndCutInOneLine() throws Exception {
        Path bare = dir.resolve("hostile");
        assertEquals(0, CliTestSupport.run("run", "--backend", "noop", "--rate", "100", "--duration", "1s",
                "--report-interval", "0", "--out", bare.toString()).exitCode());
        Path csv = bare.resolve("host-resources.csv");
        java.io.ByteArrayOutputStream header = new java.io.ByteArrayOutputStream();
        header.writeBytes("epoch_ns,\u001b[2J\u001b[31mred\u0007,".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        header.writeBytes(new byte[] {(byte) 0xff, (byte) 0xfe});
        header.writeBytes("x".repeat(100_000).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        header.writeBytes("\n1,server,1,2,3,,,4,5,,6\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        Files.write(csv, header.toByteArray());

        CliTestSupport.assertEachIsRefused(new String[][] {{"resources", bare.toString()}});
        String err = CliTestSupport.run("resources", bare.toString()).err().strip();
        assertTrue(err.startsWith("queuelab: " + csv + " is not a host-resources file (header epoch_ns,\\x1b[2J\\x1b[31mred\\x07,"
                + "\\ufffd\\ufffdxxx"), err);
        assertTrue(err.endsWith("... (100,025 characters in all))"), err);
        assertTrue(err.chars().noneMatch(c -> c < 0x20 || c == 0x7f || c == 0xfffd), "no control character or bad byte: " + err);
        assertTrue(err.length() < csv.toString().length() + 400, "cut: " + err.length() + " characters");
    }
}
