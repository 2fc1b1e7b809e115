package io.queuelab.cli;

import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.summary.RunSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code queuelab demo --backend cassandra} on a real node the demo starts and stops itself. */
class CassandraDemoTest {
    @TempDir
    Path dir;

    @Test
    void demoOnALocalCassandraNode() throws Exception {
        Path demo = dir.resolve("demo");
        Path node = Path.of("target", "demo-cassandra").toAbsolutePath();
        CliTestSupport.Result r = CliTestSupport.run("demo", "--backend", "cassandra", "--cassandra-dir", node.toString(),
                "--write-rates", "100", "--read-rates", "5", "--duration", "4s", "--warmup", "1s", "--preload", "3000", "--range-min", "500", "--range-max", "1000", "--limit", "1000",
                "--report-interval", "0", "--out", demo.toString());
        assertEquals(0, r.exitCode(), r.err() + r.out());
        for (String run : new String[] {"write/rate-100", "read/rate-5"}) {
            RunSummary s = RunSummary.of(RunDirectory.open(demo.resolve(run)));
            assertEquals(s.records, s.count("ok"), run + " every request ok (reads checked against the writes): " + s.outcomes);
            assertTrue(s.records > 0, run);
            java.util.List<String> pools = Files.readAllLines(demo.resolve(run).resolve("cassandra-thread-pools.csv"));
            assertTrue(pools.size() > 10 && pools.stream().anyMatch(l -> l.contains(",MemtableFlushWriter,")),
                    run + ": the node's thread pools sampled every second: " + pools.size() + " lines");
        }
        assertTrue(Files.readString(demo.resolve("write-report.html")).contains("<svg"));
        assertTrue(r.out().contains("report: "), r.out());
    }
}
