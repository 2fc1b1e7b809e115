package io.queuelab.core.run;

import io.queuelab.core.testing.TimingSensitive;

import io.queuelab.core.manifest.RunEnd;
import static org.junit.jupiter.api.Assertions.assertNull;
import io.queuelab.core.backend.OperationMix;
import io.queuelab.core.backend.SyncBackend;
import io.queuelab.core.backend.SyncSession;
import io.queuelab.core.inprocess.MM1Backend;
import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;
import io.queuelab.core.summary.RunSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A closed plan with finite work per job: each job issues its requests and leaves; the run ends when all have left. */
@TimingSensitive
class FiniteClosedWorkTest {
    @TempDir
    Path dir;

    private static LoadPlan finite(int jobs, long perJob, Duration limit) {
        return new LoadPlan(List.of(Phase.closed("main", limit, jobs, false)), LoadPlan.Arrivals.POISSON, Duration.ZERO, perJob);
    }

    @Test
    void everyJobIssuesExactlyItsRequestsAndTheRunEndsWhenTheLastLeaves() throws Exception {
        int jobs = 3;
        int perJob = 40;
        AtomicIntegerArray perWorker = new AtomicIntegerArray(jobs);
        SyncBackend counting = new SyncBackend() {
            @Override
            public SyncSession openSession(int worker, long seed) {
                return operation -> {
                    perWorker.incrementAndGet(worker);
                    Thread.sleep(1);
                };
            }

            @Override
            public OperationMix operations() {
                return OperationMix.single("write");
            }

            @Override
            public void close() {
            }
        };
        long started = System.nanoTime();
        RunResult result = PipelineRuns.run(PipelineRuns.config(finite(jobs, perJob, Duration.ofSeconds(60)), 1, 100, dir.resolve("finite")), counting);
        // 40 sleeps of >= 1 ms each: far less than the 60 s limit, so the run must have ended with the work
        assertTrue(System.nanoTime() - started < 30_000_000_000L, "the run waited for its time limit");
        for (int w = 0; w < jobs; w++) {
            assertEquals(perJob, perWorker.get(w), "requests of job " + w);
        }
        assertEquals(jobs * perJob, result.totals().scheduled());
        assertEquals(jobs * perJob, result.totals().ok());
        long logged = 0;
        long lastCompletion = 0;
        try (RequestLogReader r = result.directory().openLog()) {
            while (r.next()) {
                assertEquals(LogFormat.OK, r.outcome());
                lastCompletion = Math.max(lastCompletion, r.completed());
                logged++;
            }
        }
        assertEquals(jobs * perJob, logged);
        RunEnd end = result.directory().manifest().end().orElseThrow();
        assertTrue(end.allJobsDone(), end.toString());
        double done = end.workDoneAtSeconds();
        assertTrue(done >= perJob * 0.001 && done < 30, "work done at " + done + " s");
        assertNull(end.stopReason(), "a run that finished its work was not stopped: " + end);
        assertEquals(perJob, result.directory().manifest().config().orElseThrow().requestsPerJob());
        assertTrue(result.selfCheck().keptUp(), result.selfCheck().toString());
        // the summary counts every request of the run as measured
        assertEquals(jobs * perJob, RunSummary.of(result.directory()).all.response.getTotalCount());
    }

    @Test
    void workLeftAtTheTimeLimitIsReportedAsNotDone() throws Exception {
        RunResult result = PipelineRuns.run(PipelineRuns.config(finite(2, 1_000_000_000L, Duration.ofMillis(500)), 1, 100, dir.resolve("limit")),
                MM1Backend.sync(1000, 7));
        RunEnd end = result.directory().manifest().end().orElseThrow();
        assertFalse(end.allJobsDone(), end.toString());
        assertNull(end.workDoneAtSeconds());
        assertEquals(result.totals().scheduled(), result.totals().ok() + result.totals().unfinished() + result.totals().errors());
    }

    @Test
    void finiteWorkIsRefusedOutsideOneClosedPhaseAndOnAsyncBackends() throws Exception {
        assertThrows(IllegalArgumentException.class, () -> new LoadPlan(
                List.of(Phase.open("main", Duration.ofSeconds(1), 10, false)), LoadPlan.Arrivals.POISSON, Duration.ZERO, 5));
        assertThrows(IllegalArgumentException.class, () -> new LoadPlan(List.of(Phase.closed("w", Duration.ofSeconds(1), 2, true),
                Phase.closed("main", Duration.ofSeconds(1), 2, false)), LoadPlan.Arrivals.POISSON, Duration.ZERO, 5));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PipelineRuns.run(
                PipelineRuns.config(finite(2, 5, Duration.ofSeconds(5)), 1, 100, dir.resolve("async")), MM1Backend.async(400, 5)));
        assertTrue(e.getMessage().contains("synchronous"), e.getMessage());
        assertFalse(java.nio.file.Files.exists(dir.resolve("async")), "no run directory for a refused run");
    }
}
