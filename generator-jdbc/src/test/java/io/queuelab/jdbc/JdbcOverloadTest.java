package io.queuelab.jdbc;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.run.LoadRun;
import io.queuelab.core.run.LogTotals;
import io.queuelab.core.run.RunConfig;
import io.queuelab.core.run.RunResult;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Overload on a real database: a statement the embedded MariaDB takes 20 ms for, 2 workers (at
 * most ~100/s), offered 1,000/s with a queue of 50. The arrivals that find the queue full are
 * logged as dropped, every request is accounted for once, and the verdict names the server's
 * saturation (the schedule was on time and the workers spent their time waiting for the server).
 */
class JdbcOverloadTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aSaturatedServersDropsAreCountedLoggedAndNamedAsTheServers() throws Exception {
        Path file = Files.writeString(dir.resolve("w.json"), """
                {"tables": [], "statements": [{"name": "slow", "sql": "SELECT SLEEP(0.02)"}]}
                """);
        LoadPlan plan = new LoadPlan(List.of(Phase.open("main", Duration.ofSeconds(2), 1000, false)), LoadPlan.Arrivals.POISSON,
                Duration.ZERO);
        RunConfig config = new RunConfig(plan, 2, 50, 8, 5, 0, 1, null, Duration.ZERO, Duration.ofSeconds(10), dir.resolve("run"));
        RunResult result;
        try (JdbcBackend backend = JdbcBackend.open(TestDatabases.embedded(), Workload.read(file), Duration.ofSeconds(10))) {
            result = LoadRun.execute(config, backend, Map.of("backend", "jdbc"), null);
        }
        LogTotals t = result.totals();
        assertTrue(t.balanced(), t::toString);
        assertTrue(t.dropped() > 1_500, t::toString);
        assertTrue(t.ok() >= 100 && t.ok() <= 300, "2 workers x 2 s at 20 ms, and the queue of 50 drained: " + t);
        assertEquals(0, t.errors() + t.unfinished(), t::toString);
        long dropped = 0;
        long records = 0;
        try (RequestLogReader log = result.directory().openLog()) {
            while (log.next()) {
                records++;
                if (log.outcome() == LogFormat.DROPPED) {
                    dropped++;
                }
            }
        }
        assertEquals(t.scheduled(), records, "every scheduled request is in the log once");
        assertEquals(t.dropped(), dropped);
        assertEquals(0, result.selfCheck().lost() + result.selfCheck().duplicated());
        assertFalse(result.selfCheck().keptUp());
        assertTrue(result.selfCheck().verdict().startsWith("the server was saturated: " + t.dropped() + " requests dropped at the queue bound"),
                result.selfCheck().verdict());
    }
}
