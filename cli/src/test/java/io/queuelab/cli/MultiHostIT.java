package io.queuelab.cli;

import io.queuelab.core.manifest.MergeInfo;
import io.queuelab.core.run.SelfCheck;
import io.queuelab.core.manifest.ClockAnchor;
import com.google.common.hash.Hashing;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.summary.RunSummary;
import io.queuelab.jdbc.EmbeddedMariaDb;
import io.queuelab.jdbc.JdbcTarget;
import io.queuelab.jdbc.WisconsinLoader;
import io.queuelab.jdbc.WisconsinRelation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.Statement;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * scripts/distributed-run over real ssh to three test hosts (network namespaces with their own
 * address and sshd, made by scripts/test-hosts), none of which has a checkout: the launcher ships
 * the packaged jar into each host's own cache (host 0 has none, host 1 a jar of the same name that is
 * not this one, host 2 this very jar), the nodes measure their clocks against the reference on the
 * bridge address and start together, and the merge puts their logs into one run. Then the same over
 * the namespace network to a real server: an embedded MariaDB listening on the bridge address, whose
 * account for the nodes has a password that reaches them only on ssh's standard input. Skipped, with
 * the reason, where this machine does not allow network namespaces or has no sshd.
 */
class MultiHostIT {
    private static final Path REPO = Path.of("").toAbsolutePath().getParent();
    private static final Path JAR = REPO.resolve("cli/target/queuelab.jar");
    private static final String SECRET = "not-on-any-command-line-3f9c";
    private static final String BRIDGE = "10.231.0.1";
    private static Path hosts;
    private static EmbeddedMariaDb db;

    @BeforeAll
    static void makeHosts() throws Exception {
        hosts = Files.createTempDirectory("test-hosts");
        Process up = script(List.of("scripts/test-hosts", "up", hosts.toString(), "3"), Map.of(), hosts.resolve("up.out"));
        String said = Files.readString(hosts.resolve("up.out")).trim();
        if (up.exitValue() == 3) {
            System.out.println("MultiHostIT " + said);
            Assumptions.abort(said);
        }
        assertEquals(0, up.exitValue(), said);
    }

    @AfterAll
    static void removeHosts() throws Exception {
        if (db != null) {
            db.close();
        }
        if (hosts != null) {
            script(List.of("scripts/test-hosts", "down", hosts.toString()), Map.of(), hosts.resolve("down.out"));
            removeCaches(); // the hosts' copies of the jar are 183 MB each; the logs and runs stay for a look
        }
    }

    private static void removeCaches() throws IOException {
        for (int i = 0; i < 3; i++) {
            Path cache = hosts.resolve("host-" + i + "/cache/queuelab");
            if (Files.isDirectory(cache)) {
                try (var files = Files.walk(cache)) {
                    for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.delete(f);
                    }
                }
            }
        }
    }

    @Test
    void threeHostsOverSshGetTheJarRunTogetherAndMergeIntoOneRun() throws Exception {
        String sha = sha256(JAR);
        String cachedName = "queuelab/queuelab-" + sha + ".jar";
        removeCaches(); // whatever another test here shipped
        Path damaged = hosts.resolve("host-1/cache").resolve(cachedName);
        Files.createDirectories(damaged.getParent());
        Files.writeString(damaged, "another build of queuelab");
        Path present = hosts.resolve("host-2/cache").resolve(cachedName);
        Files.createDirectories(present.getParent());
        Files.copy(JAR, present);

        int port = freePort();
        Path out = hosts.resolve("run");
        Process run = script(List.of("scripts/distributed-run", "--hosts", hostList(), "--reference", BRIDGE + ":" + port,
                        "--start-in", "6", "--out", out.toString(), "--", "--backend", "noop", "--rate", "3000",
                        "--duration", "3s", "--report-interval", "0", "--password-env", "QL_TEST_SECRET"),
                Map.of("SSH", loggingSsh().toString(), "CLOCK_PORT", String.valueOf(port), "QL_TEST_SECRET", SECRET),
                hosts.resolve("run.out"));
        String said = Files.readString(hosts.resolve("run.out"));
        assertEquals(0, run.exitValue(), said);

        // shipping: copied where missing or different, kept where it was, by checksum; no checkout named
        Path nodes = hosts.resolve("run.nodes");
        assertTrue(Files.readString(nodes.resolve("ship-10.231.0.11.out")).contains("copying queuelab.jar (" + sha + ")"));
        assertTrue(Files.readString(nodes.resolve("ship-10.231.0.12.out")).contains("copying queuelab.jar (" + sha + ")"));
        assertFalse(Files.readString(nodes.resolve("ship-10.231.0.13.out")).contains("copying"), "host 2 had this jar");
        for (int i = 0; i < 3; i++) {
            Path cached = hosts.resolve("host-" + i + "/cache").resolve(cachedName);
            assertEquals(sha, sha256(cached), "host " + i);
            try (var left = Files.list(cached.getParent().resolve("runs"))) {
                assertEquals(List.of(), left.toList(), "the node's run directory is removed once fetched");
            }
        }
        String argv = Files.readString(hosts.resolve("ssh-argv.log"));
        assertTrue(argv.contains("read -r QL_TEST_SECRET && export QL_TEST_SECRET"), argv);
        assertFalse(argv.contains(SECRET), "the password is on an ssh command line");
        assertFalse(argv.contains(REPO.toString()), "a remote command names this checkout: " + argv);

        // the merged run: accounting, the superposed schedule, the start skew, every node's clock
        RunDirectory merged = RunDirectory.open(out);
        Manifest m = merged.manifest();
        assertTrue(m.complete());
        assertEquals(3, m.node().orElseThrow().count());
        assertEquals(3000.0, m.config().orElseThrow().phases().get(0).rate());
        long nodeTotal = 0;
        for (int i = 0; i < 3; i++) {
            MergeInfo.Node node = m.merge().orElseThrow().nodes().get(i);
            assertEquals(i, node.index());
            nodeTotal += node.totals().scheduled();
            ClockAnchor clock = RunDirectory.open(nodes.resolve("node-" + i)).manifest().clock().orElseThrow();
            assertEquals(BRIDGE + ":" + port, clock.reference());
            for (ClockAnchor.Measurement when : List.of(clock.start(), clock.end())) {
                long uncertainty = when.uncertaintyNanos() == null ? -1 : when.uncertaintyNanos();
                assertTrue(uncertainty >= 0 && uncertainty < 10_000_000, "node " + i + " " + when + ": " + clock);
                // one kernel clock under every namespace: what is measured is the node's anchor reading only
                assertTrue(Math.abs(when.offsetNanos()) < 50_000_000, "node " + i + ": " + clock);
            }
            assertTrue(node.clockOffsetNanos() != null && node.clockDriftNanosPerSecond() != null, node::toString);
        }
        RunSummary summary = RunSummary.of(merged);
        assertEquals(nodeTotal, summary.records);
        assertEquals(nodeTotal, m.totals().orElseThrow().scheduled());
        assertEquals(nodeTotal, summary.count("ok"));
        assertTrue(nodeTotal > 3000 * 3 * 0.9 && nodeTotal < 3000 * 3 * 1.1, "3 s at 3000/s: " + nodeTotal);
        long skew = m.merge().orElseThrow().startSkewNanos();
        assertTrue(skew >= 0 && skew < 30_000_000, "start skew " + skew + " ns");
        SelfCheck.PhaseCheck phase = m.selfCheck().orElseThrow().phases().get(0);
        assertEquals(nodeTotal, phase.scheduled());
        assertTrue(phase.ksD() < 0.05, "three independent Poisson streams make one: " + phase);
        List<String> mergedFailures = new ArrayList<>();
        m.selfCheck().orElseThrow().failures().forEach(f -> {
            if (!f.startsWith("node ")) {
                mergedFailures.add(f);
            }
        });
        assertEquals(List.of(), mergedFailures, "only a node's own timing check may fail on a shared 2-core machine");
    }

    @Test
    void theNodesLoadARealServerOverTheNamespaceNetworkWithAPasswordFromStdin() throws Exception {
        db = EmbeddedMariaDb.start(Path.of("target", "multihost-mariadb"), List.of("--bind-address=127.0.0.1," + BRIDGE));
        JdbcTarget root = new JdbcTarget(db.jdbcUrl(), EmbeddedMariaDb.USER, "");
        try (Connection c = root.connectForLoading(); Statement s = c.createStatement()) {
            s.execute("CREATE USER IF NOT EXISTS 'qlnode'@'10.231.0.%'");
            s.execute("ALTER USER 'qlnode'@'10.231.0.%' IDENTIFIED BY '" + SECRET + "'");
            s.execute("GRANT SELECT ON " + EmbeddedMariaDb.DATABASE + ".* TO 'qlnode'@'10.231.0.%'");
        }
        new WisconsinLoader(root).load(new WisconsinRelation("wisc", 1000, 1), WisconsinRelation.Engine.INNODB);

        Path out = hosts.resolve("jdbc");
        int port = freePort();
        Process run = script(List.of("scripts/distributed-run", "--hosts", hostList(), "--reference", BRIDGE + ":" + port,
                        "--start-in", "6", "--out", out.toString(), "--", "--backend", "jdbc", "--jdbc-url",
                        "jdbc:mysql://" + BRIDGE + ":" + db.port() + "/" + EmbeddedMariaDb.DATABASE, "--user", "qlnode",
                        "--password-env", "QL_TEST_SECRET", "--operation", "select", "--rate", "300", "--duration", "3s",
                        "--workers", "4", "--report-interval", "0"),
                Map.of("SSH", loggingSsh().toString(), "CLOCK_PORT", String.valueOf(port), "QL_TEST_SECRET", SECRET),
                hosts.resolve("jdbc.out"));
        String said = Files.readString(hosts.resolve("jdbc.out"));
        assertEquals(0, run.exitValue(), said);
        Manifest root1 = RunDirectory.open(out).manifest();
        long scheduled = root1.totals().orElseThrow().scheduled();
        assertTrue(scheduled > 700 && scheduled < 1100, "3 s at 300/s: " + scheduled);
        assertEquals(scheduled, root1.totals().orElseThrow().ok(),
                "every select answered, so every node logged in with the password it read from stdin: " + root1.totals());
        assertEquals(scheduled, RunSummary.of(RunDirectory.open(out)).count("ok"));
        for (MergeInfo.Node node : root1.merge().orElseThrow().nodes()) {
            assertEquals("jdbc", node.settings().get("backend"));
        }
        assertFalse(Files.readString(hosts.resolve("ssh-argv.log")).contains(SECRET), "the password is on an ssh command line");
    }

    @Test
    void aHostWithoutJava17IsRefusedBeforeAnythingStarts() throws Exception {
        Path out = hosts.resolve("no-java");
        Process run = script(List.of("scripts/distributed-run", "--hosts", hostList(), "--out", out.toString(), "--",
                        "--backend", "noop", "--rate", "100", "--duration", "1s"),
                Map.of("SSH", Files.readString(hosts.resolve("ssh")).trim(), "QUEUELAB_REMOTE_JAVA", "/no/such/java",
                        "CLOCK_PORT", String.valueOf(freePort())), hosts.resolve("no-java.out"));
        String said = Files.readString(hosts.resolve("no-java.out")).trim();
        assertEquals(2, run.exitValue(), said);
        assertTrue(said.matches("distributed-run: host 10\\.231\\.0\\.1[123]: needs Java 17 or later, has: no java"), said);
        assertFalse(Files.exists(out));
        assertFalse(Files.exists(out.resolveSibling("no-java.nodes")), "nothing of the refused run is left");
    }

    private static String sha256(Path file) throws IOException {
        return com.google.common.io.Files.asByteSource(file.toFile()).hash(Hashing.sha256()).toString();
    }

    private static String hostList() throws IOException {
        return Files.readString(hosts.resolve("hosts")).trim();
    }

    /** $SSH that writes its arguments to ssh-argv.log before it runs the test hosts' ssh. */
    private static Path loggingSsh() throws IOException {
        Path wrapper = hosts.resolve("ssh-logging");
        Files.writeString(wrapper, "#!/usr/bin/env bash\nprintf '%s\\n' \"$*\" >> " + hosts.resolve("ssh-argv.log") + "\n"
                + "exec " + Files.readString(hosts.resolve("ssh")).trim() + " \"$@\"\n");
        Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwx------"));
        return wrapper;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static Process script(List<String> command, Map<String, String> env, Path output) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(REPO.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(150, TimeUnit.SECONDS)) {
            p.destroy();
            p.waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError(String.join(" ", command) + " did not end in 150 s: "
                    + Files.readString(output, StandardCharsets.UTF_8));
        }
        return p;
    }
}
