package io.queuelab.cli;

import io.queuelab.jdbc.JdbcBackend;
import io.queuelab.jdbc.JdbcSession;
import io.queuelab.jdbc.ServerStatusSampler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code queuelab load} and the {@link JdbcOptions} mixin against the embedded MariaDB and bad input. */
class JdbcCommandsTest {
    static final String EMBEDDED_DIR = Path.of("target", "cli-test-mariadb").toString();

    record Outcome(int exitCode, String out, String err) {
    }

    static Outcome run(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            int code = Main.run(args);
            return new Outcome(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    static void assertOneLineError(Outcome outcome, String expected) {
        assertEquals(2, outcome.exitCode(), outcome.toString());
        assertTrue(outcome.err().startsWith("queuelab: ") && outcome.err().strip().lines().count() == 1, outcome.err());
        assertTrue(outcome.err().contains(expected), outcome.err());
    }

    @Test
    void loadFillsTheEmbeddedDatabaseAndTheBackendRunsOnIt(@TempDir Path runDir) throws Exception {
        Outcome load = run("load", "--relation", "wisc", "--tuples", "5000", "--engine", "MyISAM", "--embedded-dir", EMBEDDED_DIR,
                "--server-arg=--innodb-buffer-pool-size=32M");
        assertEquals(0, load.exitCode(), load.toString());
        assertTrue(load.out().startsWith("loaded 5000 tuples into wisc (MyISAM) at jdbc:mariadb://127.0.0.1:"), load.out());

        JdbcOptions jdbc = new JdbcOptions();
        new CommandLine(jdbc).parseArgs("--embedded-dir", EMBEDDED_DIR, "--operation", "update");
        try (jdbc) {
            try (JdbcBackend backend = jdbc.openBackend(new RequestOptions())) {
                try (ServerStatusSampler sampler = jdbc.startTelemetry(runDir, Duration.ofMillis(100));
                     JdbcSession session = backend.openSession(0, 3)) {
                    for (int i = 0; i < 100; i++) {
                        session.execute(0);
                        assertEquals(1, session.lastRowCount());
                    }
                }
                Map<String, Object> d = backend.describe();
                assertEquals("update", ((Map<?, ?>) d.get("workload")).get("name"));
                assertTrue(d.get("tables").toString().contains("engine=MyISAM"), d.toString());
            }
            assertTrue(Files.readAllLines(runDir.resolve(ServerStatusSampler.FILE_NAME)).size() >= 2);
            assertTrue(jdbc.environment().embeddedServer().orElseThrow().isRunning());
        }
    }

    @Test
    void iotIngestRunsFromTheCliWithTheServersHostResources(@TempDir Path dir) throws Exception {
        Path runDir = dir.resolve("bulk");
        Outcome r = run("run", "--backend", "jdbc", "--embedded-dir", EMBEDDED_DIR, "--operation", "iot-bulk", "--constant",
                "--rate", "2", "--duration", "3s", "--telemetry-interval", "500ms", "--out", runDir.toString());
        assertEquals(0, r.exitCode(), r.toString());
        io.queuelab.core.summary.RunSummary summary = io.queuelab.core.summary.RunSummary.of(io.queuelab.core.log.RunDirectory.open(runDir));
        long scheduled = io.queuelab.core.manifest.Manifest.read(runDir).totals().orElseThrow().scheduled();
        assertTrue(scheduled >= 5, "a constant 2/s for 3 s: " + scheduled);
        assertEquals(scheduled, summary.count("ok"), summary.outcomes.toString());
        Object workload = io.queuelab.core.manifest.Manifest.read(runDir).backend().orElseThrow().server().get("workload");
        assertEquals("iot-bulk", ((Map<?, ?>) workload).get("name"));
        var use = io.queuelab.core.telemetry.ResourceUse.read(runDir).orElseThrow().processes();
        var server = use.get("server");
        assertTrue(server.size() >= 5, "samples of the embedded server");
        assertTrue(server.dataDirBytes()[0] > 1_000_000, "the data directory, ibdata1 at least");
        assertTrue(!Double.isNaN(server.writeBytes()[0]) && server.maxRssBytes() > 10e6, "the server's own /proc/<pid>/io and RSS");
        assertTrue(r.out().contains("resources (host)") && r.out().contains("  server "), r.out());
        assertTrue(Files.readString(runDir.resolve(ServerStatusSampler.FILE_NAME)).lines().count() >= 5);
        // issue 27: the network namespace's counters held every process's loopback traffic; the server's own count beside them
        assertTrue(r.out().contains("the server's traffic with its clients: ") && r.out().contains("less the telemetry session's own"),
                r.out());
        var traffic = io.queuelab.fit.runs.ResourceTable.serverTraffic(runDir).orElseThrow();
        // 2 bulk rows a second of ~47 kB of JSON each: ~0.1 MB/s received, far below the telemetry's own 16 kB per 500 ms
        assertTrue(traffic.bytesPerSecond() > 50_000 && traffic.bytesPerSecond() < 200_000, traffic.toString());
    }

    @Test
    void badInputIsOneLineAndExitCodeTwo(@TempDir Path dir) throws Exception {
        assertOneLineError(run("run", "--operation", "iot-columnar", "--rate", "1", "--out", dir.resolve("x").toString()),
                "--operation must be select, update, mix, range, round-trip, iot-individual or iot-bulk");
        assertOneLineError(run("run", "--operation", "iot-bulk", "--iot-points", "0", "--rate", "1", "--out", dir.resolve("x").toString()),
                "--iot-points must be 1 to 1,000,000");
        assertOneLineError(run("run", "--operation", "iot-bulk", "--table", "wisc", "--rate", "1", "--embedded-dir", EMBEDDED_DIR,
                "--out", dir.resolve("x").toString()), "--table names a Wisconsin table");
        assertOneLineError(run("load", "--relation", "tpcc", "--tuples", "10"), "unknown relation 'tpcc'");
        assertOneLineError(run("load", "--relation", "wisc", "--tuples", "0"), "--tuples must be between 1");
        assertOneLineError(run("load", "--relation", "wisc", "--tuples", "9", "--engine", "Aria"), "unknown storage engine 'Aria'");
        assertOneLineError(run("load", "--relation", "wisc", "--tuples", "9", "--jdbc-url", "jdbc:mysql://127.0.0.1:1/x"),
                "cannot reach the database at jdbc:mysql://127.0.0.1:1/x");
        assertOneLineError(run("load", "--relation", "wisc", "--tuples", "9", "--jdbc-url", "jdbc:mysql://127.0.0.1:1/x",
                "--password-env", "QUEUELAB_TEST_SURELY_UNSET"), "environment variable QUEUELAB_TEST_SURELY_UNSET");
        assertOneLineError(run("load", "--relation", "wisc", "--tuples", "9", "--password-file", "pw.txt"), "need --jdbc-url");
        assertOneLineError(run("load", "--relation", "wisc", "--tuples", "9", "--jdbc-url", "jdbc:mysql://127.0.0.1:1/x",
                "--server-arg=--skip-log-bin"), "apply only to the embedded MariaDB");
        assertOneLineError(run("load", "--relation", "wisc", "--tuples", "9", "--password", "x"), "Unknown option");

        Path workload = dir.resolve("bad.json");
        Files.writeString(workload, "{\"statements\": [{\"name\": \"a\", \"sql\": \"SELECT ?\"}]}");
        JdbcOptions jdbc = new JdbcOptions();
        new CommandLine(jdbc).parseArgs("--workload", workload.toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> jdbc.workload(new RequestOptions()));
        assertTrue(e.getMessage().contains("1 ? placeholder(s) but 0"), e.getMessage());
        JdbcOptions both = new JdbcOptions();
        new CommandLine(both).parseArgs("--workload", workload.toString(), "--operation", "select");
        assertThrows(IllegalArgumentException.class, () -> both.workload(new RequestOptions()));
        RequestOptions ratio = new RequestOptions();
        new CommandLine(ratio).parseArgs("--read-ratio", "0.9");
        IllegalArgumentException notMix = assertThrows(IllegalArgumentException.class, () -> new JdbcOptions().workload(ratio));
        assertEquals("--read-ratio needs --operation mix (a --workload file has its own weights)", notMix.getMessage());
    }
}
