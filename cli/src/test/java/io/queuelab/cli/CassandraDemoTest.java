package io.queuelab.cli;

import java.util.Map;
import io.queuelab.cassandra.CqlErrors;
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

/**
 * {@code queuelab cassandra start}, {@code status} and {@code stop} on a real node, and
 * {@code queuelab demo --backend cassandra} on that node in between (one node start for both).
 */
class CassandraDemoTest {
    /** What a loaded machine may add to a run's outcomes besides ok: requests that took too long, never wrong ones. */
    private static final Set<String> SLOW = Set.of(CqlErrors.DRIVER_TIMEOUT, CqlErrors.READ_TIMEOUT, CqlErrors.WRITE_TIMEOUT,
            CqlErrors.OVERLOADED);

    @TempDir
    Path dir;

    @Test
    void aNodeStartedByTheCliRunsTheDemoAndStops() throws Exception {
        Path node = dir.resolve("cassandra");
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        // the node pinned to the first cpu of this process's: status reads back what the kernel says of its pid
        io.queuelab.core.process.CpuSet mine = io.queuelab.core.process.CpuSet.ofThisThread();
        String first = Integer.toString(mine.cpus().get(0));
        CliTestSupport.Result start = CliTestSupport.run("cassandra", "start", "--dir", node.toString(), "--native-port",
                Integer.toString(port), "--cpus", first);
        try {
            assertEquals(0, start.exitCode(), start.err() + start.out());
            assertTrue(start.out().contains("contact points: 127.0.0.1:" + port), start.out());
            CliTestSupport.Result up = CliTestSupport.run("cassandra", "status", "--dir", node.toString());
            assertEquals(0, up.exitCode(), up.err() + up.out());
            assertTrue(up.out().matches("(?s)node 1 127\\.0\\.0\\.1:" + port + " pid \\d+ cpus " + first + " up \\(CQL answers\\)\\s*"),
                    up.out());
            demo(port);
        } finally {
            CliTestSupport.Result stop = CliTestSupport.run("cassandra", "stop", "--dir", node.toString());
            assertEquals(0, stop.exitCode(), stop.err() + stop.out());
            assertTrue(stop.out().startsWith("stopped 1 node(s)") || start.exitCode() != 0, stop.out());
        }
        CliTestSupport.Result down = CliTestSupport.run("cassandra", "status", "--dir", node.toString());
        assertEquals(1, down.exitCode(), down.err() + down.out());
        assertTrue(down.out().startsWith("node 1 ") && !down.out().contains("up (CQL answers)"), down.out());
    }

    /**
     * Every read is checked against what was written: none may be wrong. On a loaded machine a few
     * requests may outlive the 2 s request timeout; those are counted, and at least 95 % are ok.
     */
    private void demo(int port) throws Exception {
        Path demo = dir.resolve("demo");
        CliTestSupport.Result r = CliTestSupport.run("demo", "--backend", "cassandra", "--contact-points", "127.0.0.1:" + port,
                "--write-rates", "100", "--read-rates", "5", "--duration", "4s", "--warmup", "1s", "--preload", "3000",
                "--range-min", "500", "--range-max", "1000", "--limit", "1000", "--report-interval", "0", "--out", demo.toString());
        assertEquals(0, r.exitCode(), r.err() + r.out());
        for (String run : new String[] {"write/rate-100", "read/rate-5"}) {
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
        assertTrue(Files.readString(demo.resolve("write-report.html")).contains("<svg"));
        assertTrue(r.out().contains("report: "), r.out());
    }
}
