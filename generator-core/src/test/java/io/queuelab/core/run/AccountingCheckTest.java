package io.queuelab.core.run;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.schedule.LoadPlan;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The accounting check compares numbers from different sources: the schedule's count of arrivals,
 * the logger's records by outcome, and the schedule sequence numbers found in the log. A request
 * lost between them, or logged twice, must fail the check, even when the two cancel in the totals.
 */
class AccountingCheckTest {
    private static final LoadPlan PLAN = PipelineRuns.poisson(1000, Duration.ofSeconds(1));
    private static final ClientCost.Measured COST = new ClientCost.Measured(0.1, 1, 2, 0, 0, 1);

    /** Feeds the recorder as the logger would: requests 0..n-1 dispatched on time, 1 ms apart. */
    private static Request arrival(long seq) {
        Request r = new Request(0, 0, 0, seq * 1_000_000L, seq);
        r.dispatched = r.intended;
        r.idleWorker = true;
        r.sent = r.intended + 10_000;
        r.completed = r.sent + 100_000;
        return r;
    }

    private static SelfCheck check(ArrivalRecorder arrivals, long scheduled, long logged) {
        arrivals.finish();
        LogTotals totals = new LogTotals(scheduled, logged, 0, 0, 0, Map.of());
        return SelfCheck.evaluate(PLAN, arrivals, new SelfCheck.Counts(new long[] {scheduled}, 0, new long[] {logged},
                0, 4, totals, new double[] {1}, null), COST);
    }

    @Test
    void everyArrivalLoggedOncePasses() {
        ArrivalRecorder arrivals = new ArrivalRecorder(1, 1);
        for (long seq = 0; seq < 1000; seq++) {
            arrivals.logged(arrival(seq), LogFormat.OK);
        }
        SelfCheck c = check(arrivals, 1000, 1000);
        assertEquals(0, c.lost());
        assertEquals(0, c.duplicated());
        assertTrue(c.failures().stream().noneMatch(f -> f.contains("log") || f.contains("balance")), c.failures()::toString);
    }

    @Test
    void aLostRequestFailsTheCheck() {
        ArrivalRecorder arrivals = new ArrivalRecorder(1, 1);
        for (long seq = 0; seq < 1000; seq++) {
            if (seq != 400) {
                arrivals.logged(arrival(seq), LogFormat.OK);
            }
        }
        SelfCheck c = check(arrivals, 1000, 999);
        assertEquals(1, c.lost());
        assertFalse(c.keptUp());
        assertTrue(c.failures().contains("1 scheduled requests never reached the log"), c.failures()::toString);
        assertTrue(c.failures().stream().anyMatch(f -> f.startsWith("totals do not balance: 1000 requests scheduled, 999 logged")),
                c.failures()::toString);
    }

    @Test
    void aRequestLoggedTwiceFailsTheCheck() {
        ArrivalRecorder arrivals = new ArrivalRecorder(1, 1);
        for (long seq = 0; seq < 1000; seq++) {
            Request r = arrival(seq);
            arrivals.logged(r, LogFormat.OK);
            if (seq == 10) {
                arrivals.logged(r, LogFormat.OK);
            }
        }
        SelfCheck c = check(arrivals, 1000, 1001);
        assertEquals(1, c.duplicated());
        assertTrue(c.failures().contains("1 requests were logged more than once"), c.failures()::toString);
    }

    @Test
    void aLostAndADuplicatedRequestThatCancelInTheTotalsStillFail() {
        ArrivalRecorder arrivals = new ArrivalRecorder(1, 1);
        for (long seq = 0; seq < 1000; seq++) {
            if (seq == 500) {
                continue;
            }
            Request r = arrival(seq);
            arrivals.logged(r, LogFormat.OK);
            if (seq == 20) {
                arrivals.logged(r, LogFormat.OK);
            }
        }
        SelfCheck c = check(arrivals, 1000, 1000);
        assertTrue(c.failures().stream().noneMatch(f -> f.startsWith("totals do not balance")), "the totals agree");
        assertEquals(1, c.lost());
        assertEquals(1, c.duplicated());
        assertFalse(c.keptUp());
    }

    @Test
    void recordsInAnyCompletionOrderAreRestoredToScheduleOrder() {
        ArrivalRecorder arrivals = new ArrivalRecorder(1, 1);
        for (long seq = 999; seq >= 0; seq--) {
            arrivals.logged(arrival(seq), LogFormat.OK);
        }
        assertEquals(1000, arrivals.inOrder());
        SelfCheck c = check(arrivals, 1000, 1000);
        assertEquals(0, c.lost());
        assertEquals(999, c.phases().get(0).ksSampleSize(), "every gap between consecutive dispatches is sampled");
    }

    @Test
    void theClientDelayOfRequestsThatFoundAnIdleWorkerIsJudgedAgainstTheServiceTime() {
        ArrivalRecorder arrivals = new ArrivalRecorder(1, 1);
        for (long seq = 0; seq < 1000; seq++) {
            Request r = arrival(seq);
            r.sent = r.intended + 300_000; // 300 us of client delay before a 100 us service
            r.completed = r.sent + 100_000;
            arrivals.logged(r, LogFormat.OK);
        }
        SelfCheck c = check(arrivals, 1000, 1000);
        assertEquals(1000, c.phases().get(0).idleWorkerRequests());
        assertEquals(300_000, c.phases().get(0).clientDelayP99Nanos(), 300);
        assertTrue(c.failures().stream().anyMatch(f -> f.startsWith("phase main: client hand-off p99 300.")
                && f.contains("300 % of the service p99 100.")), c.failures()::toString);
    }

    @Test
    void aLateDispatchIsPutBackInTimeOrderForTheGapTest() {
        ArrivalRecorder arrivals = new ArrivalRecorder(1, 1);
        List<Request> all = new java.util.ArrayList<>();
        for (long seq = 0; seq < 100; seq++) {
            all.add(arrival(seq));
        }
        all.get(10).dispatched += 5_500_000; // its worker was preempted: it entered between arrivals 15 and 16
        all.forEach(r -> arrivals.logged(r, LogFormat.OK));
        arrivals.finish();
        double[] gaps = arrivals.gapSample(0);
        assertEquals(99, gaps.length);
        assertTrue(java.util.Arrays.stream(gaps).allMatch(g -> g >= 0), "time-ordered gaps are never negative");
        assertEquals(99e-3, java.util.Arrays.stream(gaps).sum(), 1e-9, "the gaps still span the phase");
    }
}
