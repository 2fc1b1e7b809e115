package io.queuelab.cli;

import io.queuelab.core.manifest.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunCommandTest {
    @TempDir
    Path dir;

    @Test
    void runSummaryAndExportWorkEndToEnd() throws Exception {
        Path run = dir.resolve("run");
        CliTestSupport.Result r = CliTestSupport.run("run", "--backend", "mm1-async", "--mu", "1000", "--rate", "200",
                "--duration", "2s", "--warmup", "500ms", "--report-interval", "1s", "--seed", "9", "--out", run.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("target 200.0/s"), "a progress line: " + r.out());
        assertTrue(r.out().contains("verdict:"), r.out());
        Manifest m = Manifest.read(run);
        assertTrue(m.complete());
        assertEquals(9, ((Number) m.settings().get("baseSeed")).longValue());
        assertEquals("mm1-async", m.settings().get("backend"));
        assertEquals("async", m.backend().orElseThrow().kind());

        CliTestSupport.Result summary = CliTestSupport.run("summary", run.toString());
        assertEquals(0, summary.exitCode(), summary.err());
        assertTrue(summary.out().contains("response") && summary.out().contains("self-check"), summary.out());

        Path csv = dir.resolve("run.csv");
        assertEquals(0, CliTestSupport.run("export", run.toString(), "--csv", csv.toString(), "--hlog", dir.resolve("h").toString()).exitCode());
        List<String> lines = Files.readAllLines(csv);
        assertTrue(lines.get(0).startsWith("node,worker,operation,outcome"));
        long logged = m.totals().orElseThrow().scheduled();
        assertEquals(logged + 1, lines.size(), "one row a request");
        // HdrHistogram's own reader (what HistogramLogProcessor uses) reads every ok, non-warm-up request back
        long inHlog = 0;
        try (org.HdrHistogram.HistogramLogReader hlog = new org.HdrHistogram.HistogramLogReader(dir.resolve("h").resolve("mm1.hlog").toFile())) {
            for (org.HdrHistogram.EncodableHistogram h; (h = hlog.nextIntervalHistogram()) != null; ) {
                inHlog += ((org.HdrHistogram.Histogram) h).getTotalCount();
            }
        }
        long okOutsideWarmup = lines.stream().skip(1).filter(l -> l.contains(",ok,") && l.split(",")[5].equals("0")).count();
        assertEquals(okOutsideWarmup, inHlog);
        assertTrue(inHlog > 300, "requests in the hlog: " + inHlog);
    }

    @Test
    void telemetrySamplesTheClientAndAServerPidIntoHostResources() throws Exception {
        Process server = new ProcessBuilder("sleep", "60").start();
        try {
            Path run = dir.resolve("run");
            CliTestSupport.Result r = CliTestSupport.run("run", "--backend", "mm1", "--mu", "1000", "--rate", "100",
                    "--duration", "1s", "--telemetry-interval", "200ms", "--server-pid", Long.toString(server.pid()),
                    "--server-data-dir", dir.toString(), "--out", run.toString());
            assertEquals(0, r.exitCode(), r.err());
            assertTrue(r.out().contains("resources (host)") && r.out().contains("  server " + server.pid()), r.out());
            List<String[]> rows = Files.readAllLines(run.resolve("host-resources.csv")).stream().skip(1).map(l -> l.split(",", -1)).toList();
            List<String[]> client = rows.stream().filter(row -> row[1].equals("client")).toList();
            List<String[]> sleeper = rows.stream().filter(row -> row[1].equals("server")).toList();
            assertTrue(client.size() >= 4 && sleeper.size() == client.size(), rows.size() + " rows");
            assertEquals(Long.toString(ProcessHandle.current().pid()), client.get(0)[2], "the client is this JVM");
            assertEquals(Long.toString(server.pid()), sleeper.get(0)[2]);
            assertTrue(Long.parseLong(client.get(client.size() - 1)[3]) > Long.parseLong(client.get(0)[3]), "the client's CPU grows");
            assertFalse(sleeper.get(0)[9].isEmpty(), "the data directory's size");
            // a server of the user's own on this machine is not pinned, but its cpus are what the kernel gives its pid
            io.queuelab.core.manifest.Placement.Side side = Manifest.read(run).placement().orElseThrow().server();
            io.queuelab.core.process.CpuSet cpus = io.queuelab.core.process.CpuSet.of(server.pid());
            assertEquals(cpus.toString(), side.cpus());
            assertEquals(cpus.size(), side.cores());
            assertEquals("--server-pid's affinity", side.source());
        } finally {
            server.destroy();
            server.waitFor();
        }
    }

    /** A server elsewhere: the cores the user states are the manifest's (the models' c), and the summary says where they came from. */
    @Test
    void theCoresOfAServerElsewhereAreRecordedAsStated() throws Exception {
        Path run = dir.resolve("stated");
        CliTestSupport.Result r = CliTestSupport.run("run", "--backend", "mm1", "--mu", "1000", "--rate", "50", "--duration", "1s",
                "--server-cores", "4", "--out", run.toString());
        assertEquals(0, r.exitCode(), r.err());
        io.queuelab.core.manifest.Placement.Side side = Manifest.read(run).placement().orElseThrow().server();
        assertEquals(new io.queuelab.core.manifest.Placement.Side(null, 4, "--server-cores"), side);
        assertTrue(r.out().contains("cpus: server (4 cores, --server-cores)"), r.out());
    }

    @Test
    void anotherNodeThanNodeZeroSamplesItsClientAndHostButNotTheServer() throws Exception {
        Process server = new ProcessBuilder("sleep", "60").start();
        try {
            for (int node = 0; node < 2; node++) {
                Path run = dir.resolve("node-" + node);
                CliTestSupport.Result r = CliTestSupport.run("run", "--backend", "noop", "--rate", "100", "--duration", "1s",
                        "--node-index", Integer.toString(node), "--node-count", "2", "--telemetry-interval", "200ms",
                        "--server-pid", Long.toString(server.pid()), "--out", run.toString());
                assertEquals(0, r.exitCode(), r.err());
                List<String> roles = Files.readAllLines(run.resolve("host-resources.csv")).stream().skip(1)
                        .map(l -> l.split(",", -1)[1]).distinct().sorted().toList();
                assertEquals(node == 0 ? List.of("client", "host", "server") : List.of("client", "host"), roles, "node " + node);
            }
        } finally {
            server.destroy();
            server.waitFor();
        }
        // node 1 does not look for node 0's server process: a pid of node 0's machine is no error on another one
        CliTestSupport.Result r = CliTestSupport.run("run", "--backend", "noop", "--rate", "100", "--duration", "1s",
                "--node-index", "1", "--node-count", "2", "--telemetry-interval", "200ms", "--server-pid", "999999999",
                "--out", dir.resolve("node-1-elsewhere").toString());
        assertEquals(0, r.exitCode(), r.err());
    }

    @Test
    void badInputGivesOneLineAndExitCode2() throws Exception {
        Path existing = Files.createDirectory(dir.resolve("exists"));
        String[][] cases = {
                {"run", "--rate", "-5", "--out", dir.resolve("a").toString()},
                {"run", "--rate", "0", "--out", dir.resolve("a").toString()},
                {"run", "--closed", "0", "--out", dir.resolve("a").toString()},
                {"run", "--backend", "nosuch", "--rate", "5", "--out", dir.resolve("a").toString()},
                {"run", "--rate", "5", "--duration", "1s", "--out", existing.toString()},
                {"run", "--rate", "five"},
                {"run", "--rate", "5", "--node-index", "3", "--node-count", "2", "--out", dir.resolve("a").toString()},
                {"run", "--rate", "5", "--start-at", "tomorrow", "--out", dir.resolve("a").toString()},
                {"run", "--backend", "noop", "--rate", "5", "--telemetry-interval", "soon", "--out", dir.resolve("a").toString()},
                {"run", "--backend", "noop", "--rate", "5", "--telemetry-interval", "0s", "--out", dir.resolve("a").toString()},
                {"run", "--backend", "noop", "--rate", "5", "--telemetry-interval", "1s", "--server-pid", "999999999", "--out", dir.resolve("a").toString()},
                {"run", "--backend", "noop", "--rate", "5", "--server-data-dir", "x", "--telemetry-interval", "1s", "--out", dir.resolve("a").toString()},
                {"run", "--backend", "noop", "--rate", "5", "--server-cores", "0", "--out", dir.resolve("a").toString()},
                {"run", "--backend", "noop", "--rate", "5", "--server-cores", "-2", "--out", dir.resolve("a").toString()},
                {"run", "--backend", "noop", "--rate", "5", "--server-cores", "1.5", "--out", dir.resolve("a").toString()},
                {"summary", dir.resolve("missing").toString()},
                {"summary", existing.toString()},
                {"export", dir.resolve("missing").toString(), "--csv"},
        };
        CliTestSupport.assertEachIsRefused(cases);
        assertFalse(Files.exists(dir.resolve("a")), "no run directory is left by refused input");
    }

    @Test
    void aForeignLogIsRefusedInOneLine() throws Exception {
        Path run = Files.createDirectory(dir.resolve("foreign"));
        Files.writeString(run.resolve("requests.qlog"), "garbage garbage garbage garbage");
        CliTestSupport.Result r = CliTestSupport.run("summary", run.toString());
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("not a queuelab request log"), r.err());
    }

    @Test
    void verboseAddsTheStackTrace() {
        CliTestSupport.Result r = CliTestSupport.run("run", "--backend", "nosuch", "--rate", "5", "--verbose",
                "--out", dir.resolve("v").toString());
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("\tat "), r.err());
    }

    @Test
    void everyCommandHasHelp() {
        for (String command : new String[] {"run", "summary", "export", "resources"}) {
            CliTestSupport.Result r = CliTestSupport.run(command, "--help");
            assertEquals(0, r.exitCode());
            assertTrue(r.out().contains("Usage: queuelab " + command), r.out());
        }
    }
}
