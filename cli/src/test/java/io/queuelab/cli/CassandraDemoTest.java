package io.queuelab.cli;

import java.util.List;
import java.util.Map;
import io.queuelab.cassandra.CqlErrors;
import io.queuelab.core.manifest.Placement;
import io.queuelab.core.process.CpuSet;
import io.queuelab.core.telemetry.HostResourceSampler;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.summary.RunSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code queuelab cassandra start}, {@code status} and {@code stop} on a real node, and
 * {@code queuelab run --cassandra-dir} and {@code queuelab demo --backend cassandra} on that node in
 * between (one node start for all).
 */
class CassandraDemoTest {
    /** What a loaded machine may add to a run's outcomes besides ok: requests that took too long, never wrong ones. */
    private static final Set<String> SLOW = Set.of(CqlErrors.DRIVER_TIMEOUT, CqlErrors.READ_TIMEOUT, CqlErrors.WRITE_TIMEOUT,
            CqlErrors.OVERLOADED);

    @TempDir
    Path dir;

    /**
     * The node is started with the default --cpus auto: the first half of this process's cpus,
     * which status reads back from the kernel; a run that names its directory puts the generator on
     * the others and records both (and the node's pid in host-resources.csv); once it is stopped, a
     * run says the node is not running. On one cpu nothing can be split, and the test says so.
     */
    @Test
    void aNodeStartedByTheCliRunsTheDemoAndStops() throws Exception {
        Path node = dir.resolve("cassandra");
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        CpuSet mine = CpuSet.ofThisThread();
        CpuSet nodeCpus = mine.size() < 2 ? mine : CpuSplitOptions.autoServerCpus(mine);
        CliTestSupport.Result start = CliTestSupport.run("cassandra", "start", "--dir", node.toString(), "--native-port",
                Integer.toString(port));
        try {
            assertEquals(0, start.exitCode(), start.err() + start.out());
            assertTrue(start.out().contains("contact points: 127.0.0.1:" + port), start.out());
            CliTestSupport.Result up = CliTestSupport.run("cassandra", "status", "--dir", node.toString());
            assertEquals(0, up.exitCode(), up.err() + up.out());
            assertTrue(up.out().matches("(?s)node 1 127\\.0\\.0\\.1:" + port + " pid \\d+ cpus " + nodeCpus + " up \\(CQL answers\\)\\s*"),
                    up.out());
            if (mine.size() >= 2) {
                assertTrue(start.out().contains("the node runs on cpus " + nodeCpus + " and a generator gets cpus " + mine.minus(nodeCpus)),
                        start.out());
            }
            runBeside(node, mine, nodeCpus);
            demo(port);
        } finally {
            CliTestSupport.Result stop = CliTestSupport.run("cassandra", "stop", "--dir", node.toString());
            assertEquals(0, stop.exitCode(), stop.err() + stop.out());
            assertTrue(stop.out().startsWith("stopped 1 node(s)") || start.exitCode() != 0, stop.out());
        }
        CliTestSupport.Result down = CliTestSupport.run("cassandra", "status", "--dir", node.toString());
        assertEquals(1, down.exitCode(), down.err() + down.out());
        assertTrue(down.out().startsWith("node 1 ") && !down.out().contains("up (CQL answers)"), down.out());
        Path late = dir.resolve("late");
        CliTestSupport.Result gone = CliTestSupport.run("run", "--backend", "cassandra", "--cassandra-dir", node.toString(), "--rate", "10",
                "--duration", "1s", "--out", late.toString());
        assertEquals(2, gone.exitCode(), gone.err() + gone.out());
        assertEquals("queuelab: the Cassandra node(s) recorded in " + node + " are not running (queuelab cassandra start --dir " + node
                + ")", gone.err().strip());
        assertTrue(Files.notExists(late), "no run directory");
        assertEquals(mine, CpuSet.ofThisThread(), "nothing pinned");
        assumeTrue(mine.size() >= 2, "one cpu (" + mine + "): the node and the generator could not be split, so the split was not checked");
    }

    /**
     * A two-second run against the node by its directory: contact points, placement and the
     * node's process all come from it, the manifest's placement is the models' c, and the test
     * JVM gets its cpus back afterwards.
     */
    private void runBeside(Path node, CpuSet mine, CpuSet nodeCpus) throws Exception {
        Path run = dir.resolve("beside");
        CliTestSupport.Result r = CliTestSupport.run("run", "--backend", "cassandra", "--cassandra-dir", node.toString(),
                "--rate", "50", "--duration", "2s", "--telemetry-interval", "500ms", "--preload", "3000", "--range-min", "500",
                "--range-max", "1000", "--limit", "1000", "--report-interval", "0", "--out", run.toString());
        assertEquals(0, r.exitCode(), r.err() + r.out());
        assertEquals(mine, CpuSet.ofThisThread(), "the test JVM has its cpus back");
        Placement p = RunDirectory.open(run).manifest().placement().orElseThrow();
        assertEquals("auto", p.split(), p.toString());
        assertTrue(p.server() != null, "the node's side recorded: " + p);
        assertEquals(nodeCpus.toString(), p.server().cpus(), p.toString());
        assertEquals(nodeCpus.size(), p.server().cores(), p.toString());
        String pid = Files.readString(node.resolve("node-1/pid")).strip();
        assertEquals("the affinity of the Cassandra node recorded in " + node.toAbsolutePath().normalize() + " (pid " + pid + ")",
                p.server().source());
        if (mine.size() >= 2) {
            assertEquals(null, p.note(), p.toString());
            assertEquals(mine.minus(nodeCpus).toString(), p.client().cpus(), p.toString());
            assertTrue(p.separate(), p.toString());
        } else {
            assertTrue(p.note() != null && p.note().startsWith("not pinned"), p.toString());
        }
        List<String> resources = Files.readAllLines(run.resolve(HostResourceSampler.FILE_NAME));
        assertTrue(resources.stream().anyMatch(l -> l.contains(",node1," + pid + ",")),
                "the node's process sampled: " + String.join("\n", resources));
        assertTrue(r.out().contains("cpus: server " + nodeCpus), r.out());
    }

    /**
     * The node warmed up, then the writes swept as the MariaDB demo sweeps (a closed-loop capacity probe, open runs at
     * fractions of what it measured, the two held-out loads repeated, a closed sweep), with short runs;
     * then the reads at a fixed rate. Every read is checked against what was written: none may be
     * wrong. On a loaded machine a few requests may outlive the 2 s request timeout; those are
     * counted, and at least 95 % are ok. The write report leads with the held-out lead, printed.
     */
    private void demo(int port) throws Exception {
        Path demo = dir.resolve("demo");
        CliTestSupport.Result r = CliTestSupport.run("demo", "--backend", "cassandra", "--contact-points", "127.0.0.1:" + port,
                "--fractions", "0.7,0.1,0.3,0.5,0.6", "--closed", "1,4", "--probe-duration", "2s", "--read-rates", "5",
                "--duration", "3s", "--warmup", "1s", "--preload", "3000", "--range-min", "500", "--range-max", "1000",
                "--limit", "1000", "--report-interval", "0", "--out", demo.toString());
        assertEquals(0, r.exitCode(), r.err() + r.out());
        // the node warmed up before its capacity is probed: rounds until two agree, kept apart from the sweeps
        assertTrue(r.out().contains("warming the server up") && (r.out().contains("warm after ") || r.out().contains("not warm after")),
                r.out());
        assertTrue(Files.isDirectory(demo.resolve("node-warm-up/round-1")) && Files.isDirectory(demo.resolve("node-warm-up/round-2")),
                "at least two rounds");
        Path probe = demo.resolve("write/capacity-probe-closed-16");
        double xMax = RunSummary.of(RunDirectory.open(probe)).throughput();
        assertTrue(xMax > 0, "the probe measured a capacity");
        assertTrue(r.out().contains("capacity probe: X_max = "), r.out());
        List<String> runs = new java.util.ArrayList<>();
        try (var listing = Files.list(demo.resolve("write"))) {
            listing.filter(Files::isDirectory).forEach(d -> runs.add(d.getFileName().toString()));
        }
        // five fractions and two repeats (and one more run for each capacity correction), beside the probe
        long open = runs.stream().filter(n -> n.startsWith("rate-")).count();
        assertTrue(open >= 7 && runs.stream().filter(n -> n.endsWith("-repeat-1")).count() == 2, "the open write runs: " + runs);
        java.util.List<String> checked = new java.util.ArrayList<>(runs.stream().filter(n -> n.startsWith("rate-")).map(n -> "write/" + n).toList());
        checked.addAll(List.of("write-closed/closed-1", "write-closed/closed-4", "read/rate-5"));
        for (String run : checked) {
            RunDirectory directory = RunDirectory.open(demo.resolve(run));
            RunSummary s = RunSummary.of(directory);
            assertTrue(s.records > 0, run);
            Map<String, Long> byClass = directory.manifest().totals().orElseThrow().errorsByClass();
            for (String c : byClass.keySet()) {
                assertTrue(SLOW.contains(c), run + ": only slow requests fail, not " + c + ": " + byClass);
            }
            assertTrue(s.count("ok") >= 0.95 * s.records, run + " ok: " + s.outcomes);
            java.util.List<String> pools = Files.readAllLines(demo.resolve(run).resolve("cassandra-thread-pools.csv"));
            assertTrue(pools.size() > 10 && pools.stream().anyMatch(l -> l.contains(",MemtableFlushWriter,")),
                    run + ": the node's thread pools sampled every second: " + pools.size() + " lines");
        }
        String report = Files.readString(demo.resolve("write-report.html"));
        assertTrue(report.contains("<svg"), "the write report has its charts");
        // the write report's lead: a selected model's held-out predictions, or why there is none
        assertTrue(r.out().contains("report: " + demo.resolve("write-report.html").toAbsolutePath()), r.out());
        String lead = r.out().substring(r.out().indexOf("write-report.html"));
        assertTrue(lead.contains("selected model: ") || lead.contains("held out: "), lead);
        assertTrue(!lead.contains("selected model: ") || lead.contains("write-closed/closed-4 (N = 4)"), "the closed runs held out: " + lead);
        assertTrue(Files.size(demo.resolve("write-report.html")) < 1_000_000, "the report under 1 MB");
    }
}
