package io.queuelab.cassandra;

import io.queuelab.cassandra.node.LocalCassandraCluster;
import io.queuelab.cassandra.workload.Scenario;
import io.queuelab.cassandra.workload.WisconsinWorkload;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.run.LoadRun;
import io.queuelab.core.run.RunCompanion;
import io.queuelab.core.run.RunConfig;
import io.queuelab.core.run.RunResult;
import io.queuelab.core.run.RunStop;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The node is stopped and restarted in the middle of an open-loop run of the real pipeline: every
 * scheduled request is accounted for exactly once, failures carry connection-type classes, and
 * requests succeed again once the node is back.
 */
class NodeRestartTest {
    private static final Set<String> OUTAGE_CLASSES = Set.of(CqlErrors.CONNECTION, CqlErrors.DRIVER_TIMEOUT,
            CqlErrors.OVERLOADED); // a node shutting down first answers "overloaded: server is shutting down"

    @TempDir
    Path dir;

    @Test
    void aRunGoesOnThroughANodeRestartAndRecordsWhatHappened() throws Exception {
        LocalCassandraCluster cluster = TestCassandra.cluster();
        // the run lasts until 10 s after the node is back, however long the restart takes on a loaded
        // machine (20-70 s), up to a 5-minute plan
        LoadPlan plan = new LoadPlan(List.of(Phase.open("main", Duration.ofMinutes(5), 50, false)),
                LoadPlan.Arrivals.POISSON, Duration.ZERO);
        RunConfig config = new RunConfig(plan, 1, 100_000, 8, 99, 0, 1, null, Duration.ZERO,
                Duration.ofSeconds(20), dir.resolve("restart"));
        RunResult result;
        CompletableFuture<Instant> restarted;
        RunStop stop = new RunStop();
        try (CqlBackend backend = TestCassandra.asyncBackend("restart", new WisconsinWorkload(2_000, Scenario.MIXED, 0.5))) {
            // the outage starts 3 s into the run, once the backend is connected and loaded
            restarted = CompletableFuture.supplyAsync(() -> {
                try {
                    Thread.sleep(3_000);
                    assertTrue(cluster.node(1).stop(Duration.ofSeconds(30)), "the test node was running");
                    cluster.restart(1, Duration.ofSeconds(180));
                    Instant back = Instant.now();
                    Thread.sleep(10_000);
                    return back;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                } finally {
                    stop.request("the node was back");
                }
            });
            result = LoadRun.execute(config, backend, Map.of("backend", "cassandra"), null, RunCompanion.NONE, stop);
        }
        Instant backUp = restarted.get(180, TimeUnit.SECONDS);

        assertTrue(result.totals().balanced(), "every scheduled request is accounted for once: " + result.totals());
        assertEquals(0, result.totals().dropped() + result.totals().unfinished(), result.totals().toString());
        assertTrue(result.totals().errors() > 0, "requests failed while the node was down");
        assertTrue(OUTAGE_CLASSES.containsAll(result.totals().errorsByClass().keySet()),
                "failure classes: " + result.totals().errorsByClass());
        assertTrue(result.totals().errorsByClass().containsKey(CqlErrors.CONNECTION),
                "no node reachable counts as connection: " + result.totals().errorsByClass());

        // requests scheduled from 5 s after the restart on all succeed (the driver reconnects within 2 s)
        long okAfter = 0;
        long failedAfter = 0;
        try (RequestLogReader reader = RequestLogReader.open(result.directory().log())) {
            long from = backUp.getEpochSecond() * 1_000_000_000L + backUp.getNano() + 5_000_000_000L
                    - reader.anchorEpochNanos();
            while (reader.next()) {
                if (reader.intended() >= from) {
                    if (reader.outcome() == 0) {
                        okAfter++;
                    } else {
                        failedAfter++;
                    }
                }
            }
        }
        assertEquals(0, failedAfter, "failures after the restart");
        assertTrue(okAfter >= 100, "requests after the restart: " + okAfter + " (restart done at " + backUp + ")");
    }
}
