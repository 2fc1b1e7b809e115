package io.queuelab.core.run;

import io.queuelab.core.log.LogFormat;

import org.HdrHistogram.Histogram;

import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * What the run observed of its own timing, for the self-check. The logger thread feeds it every
 * logged request once, in completion order ({@link #logged}); this class owns nothing else and is
 * used by that thread alone.
 *
 * <ul>
 *   <li>Open loop, in arrival order (restored here from each request's schedule sequence number):
 *       the schedule lag (dispatched - intended) outside warm-up, and per phase a uniform sample
 *       (reservoir) of the realized gaps between consecutive dispatches. A sequence number that
 *       is never logged, or logged twice, is counted: the log's own evidence, independent of any
 *       counter, that a request was lost or duplicated.</li>
 *   <li>Per phase outside warm-up: the client's added delay (sent - intended) of the requests that
 *       found an idle worker at their instant, and the service time (completed - sent) of ok
 *       requests; what the client adds is judged against what the server takes.</li>
 * </ul>
 */
final class ArrivalRecorder {
    private static final long MAX_NANOS = 3_600_000_000_000L;

    final Histogram lag = new Histogram(MAX_NANOS, 3);
    private final Histogram[] clientDelay;
    private final Histogram[] service;
    private final long[] dispatched;
    private final GapSample[] gaps;
    private final PriorityQueue<Request> waiting = new PriorityQueue<>((a, b) -> Long.compare(a.seq, b.seq));
    private long nextSeq;
    private long duplicated;
    private long previousDispatch = Long.MIN_VALUE;
    private int previousPhase = -1;

    ArrivalRecorder(int phases, long seed) {
        dispatched = new long[phases];
        gaps = new GapSample[phases];
        clientDelay = new Histogram[phases];
        service = new Histogram[phases];
        SplittableRandom random = new SplittableRandom(seed);
        for (int p = 0; p < phases; p++) {
            gaps[p] = new GapSample(random);
            clientDelay[p] = new Histogram(MAX_NANOS, 3);
            service[p] = new Histogram(MAX_NANOS, 3);
        }
    }

    /** One logged request with its final outcome. */
    void logged(Request r, int outcome) {
        boolean warmup = (r.flags & LogFormat.FLAG_WARMUP) != 0;
        if (!warmup && r.sent != LogFormat.NONE) {
            if (r.idleWorker) {
                clientDelay[r.phase].recordValue(clamp(r.sent - r.intended));
            }
            if (outcome == LogFormat.OK) {
                service[r.phase].recordValue(clamp(r.completed - r.sent));
            }
        }
        if (r.seq < 0) {
            return; // closed loop: no schedule to restore
        }
        if (r.seq < nextSeq) {
            duplicated++;
            return;
        }
        if (r.seq > nextSeq) {
            waiting.add(r);
            return;
        }
        inOrder(r);
        while (!waiting.isEmpty() && waiting.peek().seq <= nextSeq) {
            Request next = waiting.poll();
            if (next.seq < nextSeq) {
                duplicated++;
            } else {
                inOrder(next);
            }
        }
    }

    private void inOrder(Request r) {
        nextSeq++;
        if (r.dispatched == LogFormat.NONE) {
            return; // given ahead to a worker and stopped before its instant
        }
        if ((r.flags & LogFormat.FLAG_WARMUP) == 0) {
            lag.recordValue(clamp(r.dispatched - r.intended));
        }
        dispatched[r.phase]++;
        if (r.phase == previousPhase) {
            gaps[r.phase].add(Math.max(0, r.dispatched - previousDispatch));
        }
        previousPhase = r.phase;
        previousDispatch = Math.max(previousDispatch, r.dispatched);
    }

    private static long clamp(long nanos) {
        return Math.min(MAX_NANOS, Math.max(0, nanos));
    }

    /** Arrivals of a phase seen in the log in schedule order, dispatched. */
    long dispatched(int phase) {
        return dispatched[phase];
    }

    /** Schedule sequence numbers logged in order so far: the open loop's arrivals found in the log. */
    long inOrder() {
        return nextSeq;
    }

    /**
     * Sequence numbers that never reached the log although a later one did (lost requests), and
     * beyond them the ones held back: after the last record, a lost request shows as a gap.
     */
    long missing() {
        if (waiting.isEmpty()) {
            return 0;
        }
        long max = 0;
        for (Request r : waiting) {
            max = Math.max(max, r.seq);
        }
        return max + 1 - nextSeq - waiting.size();
    }

    /** Requests logged more than once. */
    long duplicated() {
        return duplicated;
    }

    Histogram clientDelay(int phase) {
        return clientDelay[phase];
    }

    Histogram service(int phase) {
        return service[phase];
    }

    /** The sampled realized gaps of a phase, in seconds. */
    double[] gapSample(int phase) {
        return gaps[phase].values();
    }
}
