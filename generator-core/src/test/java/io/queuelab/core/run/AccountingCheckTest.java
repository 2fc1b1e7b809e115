package io.queuelab.core.run;

import io.queuelab.core.testing.TimingSensitive;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.PoissonSchedule;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The accounting check compares numbers from different sources: the schedule's count of arrivals,
 * the logger's records by outcome, and the schedule sequence numbers found in the log. A request
 * lost between them, or logged twice, must fail the check, even when the two cancel in the totals.
 *
 * <p>Every case starts from a healthy run that passes every check (Poisson arrivals from the
 * generator's own schedule, dispatched on time, logged once) and breaks exactly one thing, so each
 * asserts the whole list of failures: the one line of its failure mode and nothing else.
 */
@TimingSensitive
class AccountingCheckTest {
    private static final LoadPlan PLAN = PipelineRuns.poisson(1000, Duration.ofSeconds(1));
    private static final ClientCost.Measured COST = new ClientCost.Measured(0.1, 1, 2, 0, 0, 1);

    /**
     * The arrivals of the plan's schedule before {@code endNanos}, each dispatched on time, sent
     * 10 us after its instant by an idle worker and served in 100 us: the healthy run.
     */
    private static List<Request> arrivals(long endNanos) {
        PoissonSchedule schedule = new PoissonSchedule(1000, new SplittableRandom(7));
        List<Request> all = new ArrayList<>();
        double t = schedule.nextOffsetNanos();
        for (long seq = 0; t < endNanos; seq++, t = schedule.nextOffsetNanos()) {
            Request r = new Request(0, 0, 0, (long) t, seq);
            r.dispatched = r.intended;
            r.idleWorker = true;
            r.sent = r.intended + 10_000;
            r.completed = r.sent + 100_000;
            all.add(r);
        }
        return all;
    }

    private static List<Request> arrivals() {
        return arrivals(1_000_000_000L);
    }

    private static ArrivalRecorder logged(List<Request> requests) {
        ArrivalRecorder recorder = new ArrivalRecorder(1, 1);
        requests.forEach(r -> recorder.logged(r, LogFormat.OK));
        return recorder;
    }

    private static SelfCheck check(ArrivalRecorder arrivals, long scheduled, long logged) {
        return check(arrivals, scheduled, new LogTotals(scheduled, logged, 0, 0, 0, Map.of()), 0, null);
    }

    private static SelfCheck check(ArrivalRecorder arrivals, long scheduled, LogTotals totals, long droppedAtQueue,
                                   String logFailure) {
        arrivals.finish();
        return SelfCheck.evaluate(PLAN, arrivals, new SelfCheck.Counts(new long[] {scheduled}, droppedAtQueue,
                new long[] {totals.ok()}, 0, 4, totals, new double[] {1}, logFailure), COST);
    }

    @Test
    void everyArrivalLoggedOncePassesEveryCheck() {
        List<Request> all = arrivals();
        SelfCheck c = check(logged(all), all.size(), all.size());
        assertEquals(List.of(), c.failures());
        assertTrue(c.keptUp());
        assertEquals(SelfCheck.KEPT_UP, c.verdict());
        assertEquals(0, c.lost());
        assertEquals(0, c.duplicated());
        assertEquals(all.size() - 1, c.phases().get(0).ksSampleSize(), "every gap between consecutive dispatches is sampled");
    }

    @Test
    void aRequestMissingFromTheLogFailsTheCheckEvenWhenTheLoggerCountedIt() {
        List<Request> all = arrivals();
        int n = all.size();
        all.remove(400);
        SelfCheck c = check(logged(all), n, n); // the totals balance: only the sequence numbers show the loss
        assertEquals(List.of("1 scheduled requests never reached the log"), c.failures());
        assertEquals(1, c.lost());
        assertFalse(c.keptUp());
    }

    @Test
    void totalsThatDoNotBalanceFailTheCheckEvenWhenEveryRequestIsInTheLog() {
        List<Request> all = arrivals();
        int n = all.size();
        SelfCheck c = check(logged(all), n, n - 1); // the logger's count lost one: the log itself is whole
        assertEquals(List.of("totals do not balance: " + n + " requests scheduled, " + (n - 1)
                + " logged (ok + errors + dropped + unfinished)"), c.failures());
        assertEquals(0, c.lost());
        assertFalse(c.keptUp());
    }

    @Test
    void aRequestLoggedTwiceFailsTheCheck() {
        List<Request> all = arrivals();
        int n = all.size();
        ArrivalRecorder recorder = logged(all);
        recorder.logged(all.get(10), LogFormat.OK);
        SelfCheck c = check(recorder, n, n);
        assertEquals(List.of("1 requests were logged more than once"), c.failures());
        assertEquals(1, c.duplicated());
        assertEquals(0, c.lost());
        assertFalse(c.keptUp());
    }

    @Test
    void aLostAndADuplicatedRequestThatCancelInTheTotalsStillFail() {
        List<Request> all = arrivals();
        int n = all.size();
        Request twice = all.get(20);
        all.remove(500);
        all.add(300, twice);
        SelfCheck c = check(logged(all), n, n);
        assertEquals(List.of("1 scheduled requests never reached the log", "1 requests were logged more than once"),
                c.failures());
        assertEquals(1, c.lost());
        assertEquals(1, c.duplicated());
    }

    /**
     * A schedule that put 80 % of the planned arrivals into the client (the phase's 0.8 s): 200
     * fewer than 1,000, where a Poisson count may stray 4 sd (127) before the check fails.
     */
    @Test
    void aPhaseWithTooFewArrivalsFailsTheCountCheckAlone() {
        List<Request> all = arrivals(800_000_000L);
        int n = all.size();
        assertTrue(n < 1000 - 4 * Math.sqrt(1000) - 1, n + " arrivals");
        SelfCheck c = check(logged(all), n, n);
        assertEquals(List.of("phase main scheduled " + n + " requests, expected 1000"), c.failures());
    }

    /**
     * Every dispatch 2 ms late (a client that fell behind its schedule; the requests found no idle
     * worker, so the hand-off check has nothing to judge): the gaps are those of the schedule, so
     * the lag check alone fails.
     */
    @Test
    void aScheduleLaggingBeyondTheLimitFailsTheLagCheckAlone() {
        List<Request> all = arrivals();
        for (Request r : all) {
            r.dispatched = r.intended + 2_000_000;
            r.idleWorker = false;
            r.sent = r.dispatched + 10_000;
            r.completed = r.sent + 100_000;
        }
        SelfCheck c = check(logged(all), all.size(), all.size());
        assertEquals(List.of("schedule lag p99 2.00ms exceeds 1.00ms"), c.failures());
        assertEquals(2_000_000, c.lagP99Nanos(), 2_000);
    }

    @Test
    void aLogThatCouldNotBeWrittenFailsTheVerdictNamingTheCause() {
        List<Request> all = arrivals();
        SelfCheck c = check(logged(all), all.size(), new LogTotals(all.size(), all.size(), 0, 0, 0, Map.of()), 0,
                "No space left on device");
        assertEquals(List.of("the request log could not be written (No space left on device): the run was stopped, and "
                + "the records after the last chunk on disk are missing from the log (the totals count them)"), c.failures());
        assertTrue(c.verdict().startsWith("the generator did not keep up: the request log could not be written (No space"),
                c.verdict());
    }

    @Test
    void dropsTheScheduleCountedButTheLogDoesNotHoldFailTheCheck() {
        List<Request> all = arrivals();
        int n = all.size();
        // the queue dropped 3 arrivals, whose records are missing (the logged ones are all ok)
        SelfCheck c = check(logged(all), n, new LogTotals(n, n, 0, 0, 0, Map.of()), 3, null);
        assertEquals(List.of("the schedule dropped 3 requests but the log holds 0 dropped records"), c.failures());
    }

    @Test
    void recordsInAnyCompletionOrderAreRestoredToScheduleOrder() {
        List<Request> all = arrivals();
        int n = all.size();
        java.util.Collections.reverse(all);
        ArrivalRecorder arrivals = logged(all);
        assertEquals(n, arrivals.inOrder());
        SelfCheck c = check(arrivals, n, n);
        assertEquals(List.of(), c.failures());
        assertEquals(n - 1, c.phases().get(0).ksSampleSize(), "every gap between consecutive dispatches is sampled");
    }

    @Test
    void theClientDelayOfRequestsThatFoundAnIdleWorkerIsJudgedAgainstTheServiceTime() {
        List<Request> all = arrivals();
        for (Request r : all) {
            r.sent = r.intended + 300_000; // 300 us of client delay before a 100 us service
            r.completed = r.sent + 100_000;
        }
        SelfCheck c = check(logged(all), all.size(), all.size());
        assertEquals(all.size(), c.phases().get(0).idleWorkerRequests());
        assertEquals(300_000, c.phases().get(0).clientDelayP99Nanos(), 300);
        assertEquals(1, c.failures().size(), c.failures()::toString);
        assertTrue(c.failures().get(0).startsWith("phase main: the client's hand-off (p50 300.")
                && c.failures().get(0).contains("moved the response p99 of the requests that found an idle worker by 300.")
                && c.failures().get(0).contains("300 % of their service p99 100."), c.failures()::toString);
    }

    /**
     * A saturated run: only its first requests find a worker free, and a p99 of so few is their
     * largest value. The hand-off check does not judge them (before: 2 ms of start-up lateness of
     * the first 20 requests failed a saturated run as "the client's hand-off", and the verdict no
     * longer began with the saturation); from {@link SelfCheck#CLIENT_DELAY_MIN_REQUESTS} on it does.
     */
    @Test
    void theHandOffIsNotJudgedOnTheFewRequestsThatFoundAWorkerFree() {
        for (int free : new int[] {20, (int) SelfCheck.CLIENT_DELAY_MIN_REQUESTS}) {
            List<Request> all = arrivals();
            for (int i = 0; i < all.size(); i++) {
                Request r = all.get(i);
                r.idleWorker = i < free;
                r.sent = r.intended + (i < free ? 2_000_000 : 10_000); // the free ones late, the rest queued (no hand-off to judge)
                r.dispatched = r.intended;
                r.completed = r.sent + 100_000;
            }
            SelfCheck c = check(logged(all), all.size(), all.size());
            assertEquals(free, c.phases().get(0).idleWorkerRequests());
            if (free < SelfCheck.CLIENT_DELAY_MIN_REQUESTS) {
                assertEquals(List.of(), c.failures(), "a p99 of " + free + " values is not judged");
            } else {
                assertEquals(1, c.failures().size(), c.failures()::toString);
                assertTrue(c.failures().get(0).contains("the client's hand-off"), c.failures()::toString);
            }
        }
    }

    /**
     * What the check is for: a hand-off whose tail is a timer's (3 % of the requests 250 us late, the
     * rest 5 us; its p99 is 16 % of the service p99, which the check before this one failed) hardly
     * moves the responses' p99 and passes; a client that holds the same 3 % back by 5 ms (a stall, a
     * thread without a core) moves it by milliseconds and fails, naming the move.
     */
    @Test
    void aTimerTailPassesAndAClientThatHoldsRequestsBackFails() {
        for (long late : new long[] {250_000, 5_000_000}) {
            List<Request> all = arrivals();
            SplittableRandom random = new SplittableRandom(3);
            for (Request r : all) {
                r.sent = r.intended + (random.nextDouble() < 0.03 ? late : 5_000);
                r.completed = r.sent + 200_000 + (long) (-Math.log(1 - random.nextDouble()) * 300_000);
            }
            SelfCheck c = check(logged(all), all.size(), all.size());
            SelfCheck.PhaseCheck main = c.phases().get(0);
            assertTrue(main.clientDelayP99Nanos() >= late * 0.99, main::toString);
            if (late == 250_000) {
                assertTrue(main.clientDelayP99Nanos() > 0.10 * main.serviceP99Nanos(), "the hand-off's own p99 is over 10 %: " + main);
                assertTrue(main.clientAddedP99Nanos() < 0.05 * main.idleWorkerServiceP99Nanos(), main::toString);
                assertEquals(List.of(), c.failures());
            } else {
                assertTrue(main.clientAddedP99Nanos() > 3_000_000, main::toString);
                assertEquals(1, c.failures().size(), c.failures()::toString);
                assertTrue(c.failures().get(0).contains("moved the response p99"), c.failures()::toString);
            }
        }
    }

    /**
     * The healthy side of the same check, either side of its two thresholds: a hand-off that moves
     * the response p99 by more than the floor but under 10 % of the service p99 passes, as does one
     * over 10 % but under the floor (an in-process backend's near-zero service); above both, it fails.
     */
    @Test
    void aClientDelayUnderEitherThresholdPassesTheHandOffCheck() {
        long floor = SelfCheck.CLIENT_DELAY_FLOOR.toNanos();
        long[][] cases = { // client delay, service, failures expected
                {floor + 10_000, 2_000_000, 0},   // 8 % of the service, above the floor
                {floor - 5_000, 100_000, 0},      // 145 % of the service, under the floor
                {floor + 100_000, 2_000_000, 1},  // 12.5 % and above the floor
        };
        for (long[] k : cases) {
            List<Request> all = arrivals();
            for (Request r : all) {
                r.sent = r.intended + k[0];
                r.completed = r.sent + k[1];
            }
            SelfCheck c = check(logged(all), all.size(), all.size());
            assertEquals(k[2], c.failures().size(), () -> java.util.Arrays.toString(k) + ": " + c.failures());
            assertEquals(k[2] == 0, c.keptUp(), () -> java.util.Arrays.toString(k) + ": " + c.verdict());
        }
    }

    /**
     * The client's CPU note: on all the machine's cores it says a server there lost that CPU; on
     * the cores it was pinned to (fewer than the machine's online cpus) it says only what it used.
     */
    @Test
    void theCpuNoteSaysWhoseCpuTheClientUsed() {
        int online = Runtime.getRuntime().availableProcessors();
        ClientCost.Measured shared = new ClientCost.Measured(0.3, 1, online, 0, 0, 1);
        List<Request> all = arrivals();
        SelfCheck c = SelfCheck.evaluate(PLAN, finished(logged(all)), counts(all.size()), shared);
        assertTrue(c.notes().stream().anyMatch(n -> n.contains("a server on the same machine did not get that CPU")), c.notes()::toString);
        org.junit.jupiter.api.Assumptions.assumeTrue(online >= 2, "one cpu: this process cannot be pinned to fewer");
        ClientCost.Measured pinned = new ClientCost.Measured(0.3, 1, online - 1, 0, 0, 1);
        SelfCheck p = SelfCheck.evaluate(PLAN, finished(logged(arrivals())), counts(all.size()), pinned);
        assertTrue(p.notes().stream().anyMatch(n -> n.startsWith("the client used ") && n.contains("it was pinned to")
                && !n.contains("server")), p.notes()::toString);
    }

    private static ArrivalRecorder finished(ArrivalRecorder arrivals) {
        arrivals.finish();
        return arrivals;
    }

    private static SelfCheck.Counts counts(long n) {
        return new SelfCheck.Counts(new long[] {n}, 0, new long[] {n}, 0, 4, new LogTotals(n, n, 0, 0, 0, Map.of()),
                new double[] {1}, null);
    }

    @Test
    void aLateDispatchIsPutBackInTimeOrderForTheGapTest() {
        ArrivalRecorder arrivals = new ArrivalRecorder(1, 1);
        List<Request> all = new ArrayList<>();
        for (long seq = 0; seq < 100; seq++) {
            Request r = new Request(0, 0, 0, seq * 1_000_000L, seq);
            r.dispatched = r.intended;
            all.add(r);
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
