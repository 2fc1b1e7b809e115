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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * scripts/distributed-run over real ssh to three test hosts (network namespaces with their own
 * address and sshd, made by scripts/test-hosts), none of which has a checkout: the launcher ships
 * the packaged node jar (queuelab-node.jar) into each host's own cache (host 0 has none, host 1 a
 * jar of the same name that is not this one, host 2 this very jar), the nodes measure their clocks
 * against the reference on the bridge address and start together, and the merge puts their logs
 * into one run. Then the same over
 * the namespace network to a real server: an embedded MariaDB listening on the bridge address, whose
 * account for the nodes has a password that reaches them only on ssh's standard input. Skipped, with
 * the reason, where this machine does not allow network namespaces or has no sshd.
 */
class MultiHostIT {
    private static final Path REPO = Path.of("").toAbsolutePath().getParent();
    /** What the launcher ships to the hosts: the node jar, not the full one. */
    private static final Path JAR = REPO.resolve("cli/target/queuelab-node.jar");
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
        try {
            if (db != null) {
                db.close();
            }
        } finally { // the namespaces and their sshd go whatever happened, or the next run here skips
            if (hosts != null) {
                script(List.of("scripts/test-hosts", "down", hosts.toString()), Map.of(), hosts.resolve("down.out"));
                removeCaches(); // the hosts' copies of the node jar; the logs and runs stay for a look
            }
        }
    }

    private static void removeCaches() throws IOException {
        for (int i = 0; i < 3; i++) {
            removeTree(hosts.resolve("host-" + i + "/cache/queuelab"));
        }
    }

    @Test
    void threeHostsOverSshGetTheJarRunTogetherAndMergeIntoOneRun() throws Exception {
        String sha = sha256(JAR);
        String cachedName = "queuelab/queuelab-node-" + sha + ".jar";
        removeCaches(); // whatever another test here shipped
        Path damaged = hosts.resolve("host-1/cache").resolve(cachedName);
        Files.createDirectories(damaged.getParent());
        Files.writeString(damaged, "another build of queuelab");
        Path present = hosts.resolve("host-2/cache").resolve(cachedName);
        Files.createDirectories(present.getParent());
        Files.copy(JAR, present);

        int port = LauncherProcess.freePort();
        Path out = hosts.resolve("run");
        // no --reference: the launcher takes the address the hosts see its ssh connections come from
        Process run = script(List.of("scripts/distributed-run", "--hosts", hostList(),
                        "--out", out.toString(), "--", "--backend", "noop", "--rate", "3000",
                        "--duration", "3s", "--report-interval", "0", "--password-env", "QL_TEST_SECRET"),
                Map.of("SSH", loggingSsh().toString(), "CLOCK_PORT", String.valueOf(port), "QL_TEST_SECRET", SECRET),
                hosts.resolve("run.out"));
        String said = Files.readString(hosts.resolve("run.out"));
        assertEquals(0, run.exitValue(), said);

        // shipping: copied where missing or different, kept where it was, by checksum; no checkout named
        Path nodes = hosts.resolve("run.nodes");
        assertTrue(Files.readString(nodes.resolve("ship-10.231.0.11.out")).contains("copying queuelab-node.jar (" + sha + ")"));
        assertTrue(Files.readString(nodes.resolve("ship-10.231.0.12.out")).contains("copying queuelab-node.jar (" + sha + ")"));
        assertTrue(said.contains("# the nodes run queuelab-node.jar ("), said);
        assertFalse(Files.readString(nodes.resolve("ship-10.231.0.13.out")).contains("copying"), "host 2 had this jar");
        for (int i = 0; i < 3; i++) {
            Path cached = hosts.resolve("host-" + i + "/cache").resolve(cachedName);
            assertEquals(sha, sha256(cached), "host " + i);
            try (var left = Files.list(cached.getParent().resolve("runs"))) {
                assertEquals(List.of(), left.toList(), "the node's run directory is removed once fetched");
            }
        }
        String argv = Files.readString(hosts.resolve("ssh-argv.log"));
        assertTrue(argv.contains("read -r QL_TEST_SECRET || exit 2; export QL_TEST_SECRET"), argv);
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
            assertEquals(BRIDGE + ":" + port, clock.reference(), "the reference chosen from the hosts' side");
            for (ClockAnchor.Measurement when : List.of(clock.start(), clock.end())) {
                long uncertainty = when.uncertaintyNanos() == null ? -1 : when.uncertaintyNanos();
                assertTrue(uncertainty >= 0 && uncertainty < 10_000_000, "node " + i + " " + when + ": " + clock);
                // one kernel clock under every namespace: what is measured is the node's anchor reading only
                assertTrue(Math.abs(when.offsetNanos()) < 50_000_000, "node " + i + ": " + clock);
            }
            assertTrue(node.clockOffsetNanos() != null && node.clockDriftNanosPerSecond() != null, node::toString);
            assertTrue(Files.readString(nodes.resolve("ship-10.231.0.1" + (i + 1) + ".out")).contains("clock " + BRIDGE + ":" + port
                    + ": this clock is "), "every host checked the reference before the start");
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
        assertEquals(List.of(), m.merge().orElseThrow().missing());
    }

    @Test
    void theNodesLoadARealServerOverTheNamespaceNetworkWithAPasswordFromStdin() throws Exception {
        database();
        Path out = hosts.resolve("jdbc");
        int port = LauncherProcess.freePort();
        Process run = script(List.of("scripts/distributed-run", "--hosts", hostList(), "--reference", BRIDGE + ":" + port,
                        "--out", out.toString(), "--", "--backend", "jdbc", "--jdbc-url",
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
                        "CLOCK_PORT", String.valueOf(LauncherProcess.freePort())), hosts.resolve("no-java.out"));
        String said = Files.readString(hosts.resolve("no-java.out")).trim();
        assertEquals(2, run.exitValue(), said);
        assertTrue(said.matches("distributed-run: host 10\\.231\\.0\\.1[123]: needs Java 17 or later, has: no java"), said);
        assertFalse(Files.exists(out));
        assertFalse(Files.exists(out.resolveSibling("no-java.nodes")), "nothing of the refused run is left");
    }

    /** The embedded MariaDB on the bridge address, with the nodes' account and a 1,000-tuple relation; started once. */
    private static void database() throws Exception {
        if (db != null) {
            return;
        }
        db = EmbeddedMariaDb.start(Path.of("target", "multihost-mariadb"), List.of("--bind-address=127.0.0.1," + BRIDGE));
        JdbcTarget root = new JdbcTarget(db.jdbcUrl(), EmbeddedMariaDb.USER, "");
        try (Connection c = root.connectForLoading(); Statement s = c.createStatement()) {
            s.execute("CREATE USER IF NOT EXISTS 'qlnode'@'10.231.0.%'");
            s.execute("ALTER USER 'qlnode'@'10.231.0.%' IDENTIFIED BY '" + SECRET + "'");
            s.execute("GRANT SELECT ON " + EmbeddedMariaDb.DATABASE + ".* TO 'qlnode'@'10.231.0.%'");
        }
        new WisconsinLoader(root).load(new WisconsinRelation("wisc", 1000, 1), WisconsinRelation.Engine.INNODB);
    }

    // ---- when things go wrong: a killed node, a lost host, a link down for 10 s, Ctrl-C of the launcher ----

    /** Both faults in one run (the suite's time): node 1 killed, host 2 lost for good, both 12 s into 20 s. */
    @Test
    void aKilledNodeAndALostHostAreNamedAndTheSurvivorIsMergedIntoARunMarkedPartial() throws Exception {
        Path output = hosts.resolve("faults.out");
        Path out = hosts.resolve("faults");
        Process run = launch(out, output, "--backend", "noop", "--rate", "300", "--duration", "20s", "--report-interval", "0");
        Instant start = LauncherProcess.scheduleStart(run, output);
        long faults;
        try {
            LauncherProcess.sleepUntil(start.plusSeconds(12));
            List<ProcessHandle> node1 = queuelabProcesses(1);
            assertEquals(1, node1.size(), "node 1's JVM on host 1");
            node1.get(0).destroyForcibly(); // SIGKILL
            link(2, false);
            faults = System.nanoTime();
            // within 60 s of the kill, which is also within the planned end + 60 s
            assertTrue(run.waitFor(60, TimeUnit.SECONDS), "the launcher ends within 60 s of the faults: " + Files.readString(output));
            System.out.printf("MultiHostIT: the launcher ended %.1f s after the faults%n", (System.nanoTime() - faults) / 1e9);
        } finally {
            link(2, true);
            run.destroyForcibly();
            for (ProcessHandle left : queuelabProcesses(2)) {
                left.destroyForcibly(); // the node that went on alone on the lost host, and its run directory
                left.onExit().get(10, TimeUnit.SECONDS);
            }
            try (var left = Files.list(hosts.resolve("host-2/cache/queuelab/runs"))) {
                for (Path stale : left.toList()) {
                    removeTree(stale);
                }
            }
        }
        String said = Files.readString(output);
        assertEquals(3, run.exitValue(), "partial: " + said);
        assertTrue(said.contains("distributed-run: node 1 of 3 (10.231.0.12) failed: killed by signal 9\n"), said);
        assertTrue(said.contains("distributed-run: node 2 of 3 (10.231.0.13) failed: host unreachable: ssh gave up on it at "),
                said);

        Manifest m = RunDirectory.open(out).manifest();
        MergeInfo merge = m.merge().orElseThrow();
        assertEquals(List.of(0), merge.nodes().stream().map(MergeInfo.Node::index).toList());
        assertEquals(new MergeInfo.MissingNode(1, "10.231.0.12", "killed by signal 9"), merge.missing().get(0));
        assertEquals(2, merge.missing().get(1).index());
        assertTrue(merge.missing().get(1).cause().startsWith("host unreachable"), merge.missing()::toString);
        long survivor = RunDirectory.open(hosts.resolve("faults.nodes/node-0")).manifest().totals().orElseThrow().scheduled();
        assertTrue(survivor > 100 * 20 * 0.85, "node 0's 20 s at 100/s: " + survivor);
        assertEquals(survivor, m.totals().orElseThrow().scheduled());
        assertEquals(survivor, RunSummary.of(RunDirectory.open(out)).records);
        assertEquals(100.0, m.config().orElseThrow().phases().get(0).rate(), "the survivor's rate");
        String first = Completeness.of(out).get(0);
        assertTrue(first.contains("is partial: node 1 of 3 missing (killed by signal 9, on 10.231.0.12); node 2 of 3 missing "
                + "(host unreachable"), first);
        for (int i = 0; i < 2; i++) {
            try (var left = Files.list(hosts.resolve("host-" + i + "/cache/queuelab/runs"))) {
                assertEquals(List.of(), left.toList(), "host " + i + ": what the node left is fetched and removed");
            }
        }
    }

    @Test
    void aNodeWhoseLinkIsDownFor10sIsNamedWithTheStallInTheMergedSelfCheck() throws Exception {
        database();
        Path output = hosts.resolve("stall.out");
        Path out = hosts.resolve("stall");
        Process run = launch(out, output, "--backend", "jdbc", "--jdbc-url",
                "jdbc:mysql://" + BRIDGE + ":" + db.port() + "/" + EmbeddedMariaDb.DATABASE, "--user", "qlnode",
                "--password-env", "QL_TEST_SECRET", "--operation", "select", "--rate", "300", "--duration", "18s",
                "--workers", "4", "--report-interval", "0");
        Instant start = LauncherProcess.scheduleStart(run, output);
        try {
            LauncherProcess.sleepUntil(start.plusSeconds(4));
            link(1, false);
            LauncherProcess.sleepUntil(start.plusSeconds(14));
        } finally {
            link(1, true);
        }
        assertTrue(run.waitFor(150, TimeUnit.SECONDS), Files.readString(output));
        String said = Files.readString(output);
        assertEquals(0, run.exitValue(), "every node survives 10 s without its link: " + said);
        // the nodes' stalls as NodeStalls names them; a loaded host may add a node's own JVM pause ("the client itself
        // stalled (did not run at all) for 237.68ms", node 2 in a clean-clone run), a failure of another kind
        List<String> stalls = RunDirectory.open(out).manifest().selfCheck().orElseThrow().failures().stream()
                .filter(f -> f.contains("a client-side or network stall of that node")).toList();
        assertEquals(1, stalls.size(), stalls::toString);
        Matcher m = Pattern.compile("node 1: no response for ([0-9.]+) s \\(([0-9.]+) s to ([0-9.]+) s of the run\\) while the "
                + "other nodes' responses went on: a client-side or network stall of that node").matcher(stalls.get(0));
        assertTrue(m.matches(), stalls.get(0));
        double from = Double.parseDouble(m.group(2));
        double length = Double.parseDouble(m.group(1));
        assertTrue(from > 3.0 && from < 5.0, "the stall begins when the link went down, 4 s in: " + stalls.get(0));
        assertTrue(length >= 9.5 && length < 20, "10 s down, plus TCP's retransmission back-off: " + stalls.get(0));
    }

    @Test
    void ctrlCOfTheLauncherStopsEveryNodeAndLeavesNoRunDirectoryOnTheHosts() throws Exception {
        Path output = hosts.resolve("ctrl-c.out");
        Path out = hosts.resolve("ctrl-c");
        Process run = launch(out, output, "--backend", "noop", "--rate", "300", "--duration", "30s", "--report-interval", "0");
        Instant start = LauncherProcess.scheduleStart(run, output);
        LauncherProcess.sleepUntil(start.plusSeconds(4));
        assertEquals(3, queuelabProcesses(0).size() + queuelabProcesses(1).size() + queuelabProcesses(2).size());
        script(List.of("kill", "-INT", String.valueOf(run.pid())), Map.of(), hosts.resolve("kill.out"));
        // each stop is an ssh login, a drain and the totals written: seconds on an idle machine, but 10 s
        // were not enough while the suite's other streams started a Cassandra node beside it
        long deadline = System.nanoTime() + 30_000_000_000L;
        int left;
        while ((left = queuelabProcesses(0).size() + queuelabProcesses(1).size() + queuelabProcesses(2).size()) > 0
                && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(0, left, "a queuelab process is left on a host 30 s after Ctrl-C: " + Files.readString(output));
        assertTrue(run.waitFor(60, TimeUnit.SECONDS), Files.readString(output));
        String said = Files.readString(output);
        assertEquals(130, run.exitValue(), said);
        assertTrue(said.contains("distributed-run: SIGINT: stopping every node"), said);
        for (int i = 0; i < 3; i++) {
            Manifest node = RunDirectory.open(hosts.resolve("ctrl-c.nodes/node-" + i)).manifest();
            assertTrue(node.complete(), "node " + i + " wrote its totals");
            assertTrue(node.stopReason().orElse("").startsWith("interrupted by SIGTERM"), "node " + i + ": " + node.stopReason());
        }
        assertEquals(3, RunDirectory.open(out).manifest().merge().orElseThrow().nodes().size(), "what ran is merged");
        assertNoRunDirectoryLeft();
    }

    /** Starts scripts/distributed-run over the test hosts (reference chosen by it), SIGINT at its default. */
    private static Process launch(Path out, Path output, String... runOptions) throws IOException {
        List<String> args = new ArrayList<>(List.of("--hosts", hostList(), "--out", out.toString(), "--"));
        args.addAll(List.of(runOptions));
        return LauncherProcess.start(args, Map.of("SSH", Files.readString(hosts.resolve("ssh")).trim(), "CLOCK_PORT",
                String.valueOf(LauncherProcess.freePort()), "QL_TEST_SECRET", SECRET), output);
    }

    /** The queuelab JVMs running in test host {@code i}'s network namespace. */
    private static List<ProcessHandle> queuelabProcesses(int i) throws Exception {
        Path list = hosts.resolve("pids.out");
        script(List.of("ip", "netns", "pids", names().get("namespace") + i), Map.of(), list);
        List<ProcessHandle> found = new ArrayList<>();
        for (String pid : Files.readAllLines(list)) {
            if (pid.isBlank()) {
                continue;
            }
            try {
                String cmdline = Files.readString(Path.of("/proc", pid.trim(), "cmdline")).replace('\0', ' ');
                if (cmdline.split(" ")[0].endsWith("java") && cmdline.contains("-jar") && cmdline.contains("queuelab-")) {
                    ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(found::add);
                }
            } catch (IOException gone) {
                // ended meanwhile
            }
        }
        return found;
    }

    /** Takes test host {@code i}'s link to the bridge down or up (its veth's bridge side). */
    private static void link(int i, boolean up) throws Exception {
        Process p = script(List.of("ip", "link", "set", names().get("veth") + i, up ? "up" : "down"), Map.of(),
                hosts.resolve("link.out"));
        assertEquals(0, p.exitValue(), Files.readString(hosts.resolve("link.out")));
    }

    /** The names scripts/test-hosts gave: namespaces ql<id>-h<i>, the bridge sides of the veths ql<id>-<i>. */
    private static Map<String, String> names() throws IOException {
        Matcher m = Pattern.compile("bridge=qlbr([0-9]+)").matcher(Files.readString(hosts.resolve("names")));
        assertTrue(m.find());
        return Map.of("namespace", "ql" + m.group(1) + "-h", "veth", "ql" + m.group(1) + "-");
    }

    private static void assertNoRunDirectoryLeft() throws IOException {
        for (int i = 0; i < 3; i++) {
            Path runs = hosts.resolve("host-" + i + "/cache/queuelab/runs");
            try (var left = Files.list(runs)) {
                assertEquals(List.of(), left.toList(), "host " + i + "'s cache holds no run directory once fetched");
            }
        }
    }

    private static void removeTree(Path root) throws IOException {
        if (Files.exists(root)) {
            try (var files = Files.walk(root)) {
                for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(f);
                }
            }
        }
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
