package io.queuelab.cli;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.run.LogTotals;
import io.queuelab.core.run.SelfCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The load options of {@code queuelab run} end to end, each judged on the request log the run
 * wrote against the in-process emulated M/M/1 server, whose behaviour is known: {@code --phases},
 * {@code --closed-phases}, {@code --think-time}, {@code --in-flight} and {@code --queue-bound}.
 */
class RunOptionsTest {
    @TempDir
    Path dir;

    private Path run(String name, String... options) {
        Path out = dir.resolve(name);
        List<String> args = new ArrayList<>(List.of("run", "--report-interval", "0", "--seed", "3", "--out", out.toString()));
        args.addAll(List.of(options));
        CliTestSupport.Result r = CliTestSupport.run(args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.err());
        return out;
    }

    /** Per phase: requests, sum of response (completed - intended) of ok ones, ok count. */
    private static long[][] perPhase(Path run, int phases) throws Exception {
        long[][] p = new long[phases][3];
        try (RequestLogReader log = RunDirectory.open(run).openLog()) {
            while (log.next()) {
                p[log.phase()][0]++;
                if (log.outcome() == LogFormat.OK) {
                    p[log.phase()][1] += log.completed() - log.intended();
                    p[log.phase()][2]++;
                }
            }
        }
        return p;
    }

    /** The most requests of a phase (-1: of any) between their send and their completion at one instant. */
    private static int mostAtOnce(Path run, int phase) throws Exception {
        List<long[]> events = new ArrayList<>();
        try (RequestLogReader log = RunDirectory.open(run).openLog()) {
            while (log.next()) {
                if ((phase < 0 || log.phase() == phase) && log.sent() != LogFormat.NONE && log.completed() != LogFormat.NONE) {
                    events.add(new long[] {log.sent(), 1});
                    events.add(new long[] {log.completed(), -1});
                }
            }
        }
        events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1])); // a completion first
        int depth = 0;
        int deepest = 0;
        for (long[] e : events) {
            depth += (int) e[1];
            deepest = Math.max(deepest, depth);
        }
        return deepest;
    }

    /** Two open phases at 100/s and 400/s, 2 s each: each phase's arrivals are its own rate's, 4 sd. */
    @Test
    void phasesRunEachRateForItsDuration() throws Exception {
        Path run = run("phases", "--backend", "mm1-async", "--mu", "2000", "--phases", "100@2s,400@2s");
        Manifest m = Manifest.read(run);
        assertEquals(List.of(100.0, 400.0), m.config().orElseThrow().phases().stream().map(p -> p.rate()).toList());
        long[][] p = perPhase(run, 2);
        assertEquals(200, p[0][0], 4 * Math.sqrt(200) + 1, "phase 1 at 100/s for 2 s");
        assertEquals(800, p[1][0], 4 * Math.sqrt(800) + 1, "phase 2 at 400/s for 2 s");
        LogTotals t = m.totals().orElseThrow();
        assertEquals(p[0][0] + p[1][0], t.scheduled());
        assertEquals(t.scheduled(), t.ok());
    }

    /**
     * Closed phases of 2 and then 6 jobs on one M/M/1 server (mu 200/s, 8 workers): in each phase
     * exactly its number of requests is at the server at once (a job sends its next request when
     * the last one completes; none more, and all of them busy).
     */
    @Test
    void closedPhasesRunEachConcurrencyForItsDuration() throws Exception {
        Path run = run("closed", "--backend", "mm1", "--mu", "200", "--workers", "8", "--closed-phases", "--phases", "2@2s,6@2s");
        Manifest m = Manifest.read(run);
        assertEquals(List.of(2, 6), m.config().orElseThrow().phases().stream().map(p -> p.concurrency()).toList());
        assertEquals(List.of(2, 6), List.of(mostAtOnce(run, 0), mostAtOnce(run, 1)), "requests at the server at once per phase");
        long[][] p = perPhase(run, 2);
        assertTrue(p[0][2] > 100 && p[1][2] > 100, "each phase completed requests: " + p[0][2] + ", " + p[1][2]);
    }

    /**
     * Four jobs thinking Exp(50 ms) between requests served in about 1 ms: the throughput is
     * N / (Z + R) = 4 / 0.051 = 78/s (the interactive response time law), where without the think
     * time it would be the server's 1,000/s. Over 6 s, 470 think times: their mean has sd 4.6 %.
     */
    @Test
    void thinkTimeSpacesEachJobsRequests() throws Exception {
        Path run = run("think", "--backend", "mm1", "--mu", "1000", "--closed", "4", "--think-time", "50ms", "--duration", "6s");
        long[][] p = perPhase(run, 1);
        double r = p[0][1] / 1e9 / p[0][2];
        double expected = 4 / (0.050 + r) * 6;
        assertEquals(expected, p[0][2], 0.15 * expected, "completions of 4 jobs thinking 50 ms (mean response " + r + " s)");
    }

    /**
     * An asynchronous backend at 300/s against a server of 100/s with at most 3 requests in flight:
     * the log's [sent, completed) intervals never overlap more than 3 deep, and reach 3.
     */
    @Test
    void inFlightBoundsTheRequestsAtTheServer() throws Exception {
        Path run = run("inflight", "--backend", "mm1-async", "--mu", "100", "--rate", "300", "--duration", "2s",
                "--in-flight", "3", "--drain-timeout", "1s");
        assertEquals(3, mostAtOnce(run, -1), "most requests in flight at once");
    }

    /**
     * One synchronous worker against a server of 100/s at 1,000/s with a queue of 5: arrivals that
     * find 5 waiting are dropped and logged as such, the queue never held more than 5, and the
     * totals balance.
     */
    @Test
    void queueBoundDropsWhatFindsTheQueueFull() throws Exception {
        Path run = run("bound", "--backend", "mm1", "--mu", "100", "--workers", "1", "--rate", "1000", "--duration", "1s",
                "--queue-bound", "5", "--drain-timeout", "1s");
        Manifest m = Manifest.read(run);
        LogTotals t = m.totals().orElseThrow();
        SelfCheck c = m.selfCheck().orElseThrow();
        assertEquals(5, c.maxQueueLength(), "the queue filled to its bound and no further");
        // the server takes about 100 of the 1,000 arrivals; the worker holds one, the queue 5
        assertTrue(t.dropped() > 800, t.toString());
        assertTrue(t.balanced(), t.toString());
        long droppedRecords = 0;
        try (RequestLogReader log = RunDirectory.open(run).openLog()) {
            while (log.next()) {
                if (log.outcome() == LogFormat.DROPPED) {
                    droppedRecords++;
                }
            }
        }
        assertEquals(t.dropped(), droppedRecords);
    }
}
