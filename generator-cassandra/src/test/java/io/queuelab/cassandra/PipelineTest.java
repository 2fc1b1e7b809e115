package io.queuelab.cassandra;

import io.queuelab.cassandra.workload.Scenario;
import io.queuelab.cassandra.workload.WisconsinWorkload;
import io.queuelab.core.backend.Backend;
import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.run.LoadRun;
import io.queuelab.core.run.RunConfig;
import io.queuelab.core.run.RunResult;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;
import io.queuelab.core.summary.RunSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CQL backends under generator-core's real pipeline, against the real node. */
class PipelineTest {
    private static final int IN_FLIGHT_BOUND = 6;
    private static final WisconsinWorkload MIXED = new WisconsinWorkload(2_000, Scenario.MIXED, 0.5);

    @TempDir
    Path dir;

    private static RunConfig config(LoadPlan plan, int workers, Path out) {
        return new RunConfig(plan, workers, 100_000, IN_FLIGHT_BOUND, 7, 0, 1, null, Duration.ZERO,
                Duration.ofSeconds(20), out);
    }

    private static RunResult run(RunConfig config, Backend backend) throws Exception {
        try (backend) {
            return LoadRun.execute(config, backend, Map.of("backend", "cassandra"), null);
        }
    }

    /** Send (+1) and completion (-1) instants of every sent request, the completions first on a tie. */
    private static int maxInFlight(Path log) throws Exception {
        List<long[]> events = new ArrayList<>();
        try (RequestLogReader reader = RequestLogReader.open(log)) {
            while (reader.next()) {
                if (reader.sent() != LogFormat.NONE) {
                    events.add(new long[] {reader.sent(), +1});
                    events.add(new long[] {reader.completed(), -1});
                }
            }
        }
        events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int now = 0;
        int max = 0;
        for (long[] e : events) {
            now += (int) e[1];
            max = Math.max(max, now);
        }
        return max;
    }

    @Test
    void anAsyncPoissonRunBelowCapacityLogsEveryRequestWithoutErrorsWithinTheInFlightBound() throws Exception {
        double rate = 150;
        Duration duration = Duration.ofSeconds(8);
        LoadPlan plan = new LoadPlan(List.of(Phase.open("main", duration, rate, false)), LoadPlan.Arrivals.POISSON,
                Duration.ZERO);
        RunResult result = run(config(plan, 1, dir.resolve("async-poisson")), TestCassandra.asyncBackend("pipeline", MIXED));

        long scheduled = result.totals().scheduled();
        double expected = rate * duration.toSeconds();
        assertTrue(Math.abs(scheduled - expected) < 5 * Math.sqrt(expected), "scheduled " + scheduled);
        assertEquals(scheduled, result.totals().ok(), () -> "all ok: " + result.totals());
        assertTrue(result.totals().balanced());
        RunSummary summary = RunSummary.of(result.directory());
        assertEquals(scheduled, summary.records, "every scheduled request is in the log");
        assertTrue(result.directory().manifest().complete());
        int maxInFlight = maxInFlight(result.directory().log());
        assertTrue(maxInFlight >= 1 && maxInFlight <= IN_FLIGHT_BOUND, "in flight at most " + IN_FLIGHT_BOUND + ": " + maxInFlight);
    }

    @Test
    void asyncAndSyncClientsRunTheSameClosedWorkloadToCompleteLogs() throws Exception {
        int jobs = 4;
        LoadPlan plan = new LoadPlan(List.of(Phase.closed("main", Duration.ofSeconds(5), jobs, false)),
                LoadPlan.Arrivals.POISSON, Duration.ZERO);
        RunResult async = run(config(plan, jobs, dir.resolve("async-closed")), TestCassandra.asyncBackend("pipeline", MIXED));
        RunResult sync = run(config(plan, jobs, dir.resolve("sync-closed")),
                CqlSyncBackend.open(TestCassandra.settings("pipeline"), MIXED));
        for (RunResult result : List.of(async, sync)) {
            assertTrue(result.totals().scheduled() > 100, "requests: " + result.totals());
            assertEquals(result.totals().scheduled(), result.totals().ok(), () -> "all ok: " + result.totals());
            assertTrue(result.directory().manifest().complete());
            RunSummary summary = RunSummary.of(result.directory());
            assertEquals(result.totals().scheduled(), summary.records);
            assertEquals(2, summary.byOperation.size(), "both operations ran: " + summary.byOperation.keySet());
            assertTrue(maxInFlight(result.directory().log()) <= jobs, "a closed loop of " + jobs + " never has more in flight");
        }
    }
}
