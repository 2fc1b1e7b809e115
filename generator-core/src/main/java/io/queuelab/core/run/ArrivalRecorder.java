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
 *       (reservoir) of the realized gaps: the gaps between the dispatch instants in time order.
 *       A request dispatched late (its worker preempted) is put back in its place in time, which
 *       is exact because no later arrival can be dispatched before its own intended instant.
 *       A sequence number that is never logged, or logged twice, is counted: the log's own
 *       evidence, independent of any counter, that a request was lost or duplicated.</li>
 *   <li>Per phase outside warm-up: the client's added delay (sent - intended) of the requests that
 *       found an idle worker at their instant, and the service time (completed - sent) of ok
 *       requests; and of the ok requests that found an idle worker, both their response (completed -
 *       intended) and their service: what the client's delay did to the distribution measured.</li>
 * </ul>
 */
final class ArrivalRecorder {
    private static final long MAX_NANOS = 3_600_000_000_000L;

    final Histogram lag = new Histogram(MAX_NANOS, 3);
    private final Histogram[] clientDelay;
    private final Histogram[] service;
    private final Histogram[] idleResponse;
    private final Histogram[] idleService;
    private final long[] dispatched;
    private final long[] serviceNanos;
    private final long[] lastCompleted;
    private final GapSample[] gaps;
    private final PriorityQueue<Request> waiting = new PriorityQueue<>((a, b) -> Long.compare(a.seq, b.seq));
    /** Dispatched requests not yet put in time order (a late one waits here for those before it). */
    private final PriorityQueue<Request> unsorted = new PriorityQueue<>((a, b) -> Long.compare(a.dispatched, b.dispatched));
    private long nextSeq;
    private long duplicated;
    private long previousDispatch = Long.MIN_VALUE;
    private int previousPhase = -1;

    ArrivalRecorder(int phases, long seed) {
        dispatched = new long[phases];
        serviceNanos = new long[phases];
        lastCompleted = new long[phases];
        java.util.Arrays.fill(lastCompleted, Long.MIN_VALUE);
        gaps = new GapSample[phases];
        clientDelay = new Histogram[phases];
        service = new Histogram[phases];
        idleResponse = new Histogram[phases];
        idleService = new Histogram[phases];
        SplittableRandom random = new SplittableRandom(seed);
        for (int p = 0; p < phases; p++) {
            gaps[p] = new GapSample(random);
            clientDelay[p] = new Histogram(MAX_NANOS, 3);
            service[p] = new Histogram(MAX_NANOS, 3);
            idleResponse[p] = new Histogram(MAX_NANOS, 3);
            idleService[p] = new Histogram(MAX_NANOS, 3);
        }
    }

    /** One logged request with its final outcome. */
    void logged(Request r, int outcome) {
        boolean warmup = (r.flags & LogFormat.FLAG_WARMUP) != 0;
        if (r.completed != LogFormat.NONE) {
            lastCompleted[r.phase] = Math.max(lastCompleted[r.phase], r.completed);
        }
        if (!warmup && r.sent != LogFormat.NONE) {
            if (r.idleWorker) {
                clientDelay[r.phase].recordValue(clamp(r.sent - r.intended));
            }
            if (r.completed != LogFormat.NONE) {
                serviceNanos[r.phase] += Math.max(0, r.completed - r.sent);
            }
            if (outcome == LogFormat.OK) {
                service[r.phase].recordValue(clamp(r.completed - r.sent));
                if (r.idleWorker) {
                    idleResponse[r.phase].recordValue(clamp(r.completed - r.intended));
                    idleService[r.phase].recordValue(clamp(r.completed - r.sent));
                }
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
        if (unsorted.isEmpty() && r.dispatched <= r.intended) {
            inTimeOrder(r); // what the queue below would do at once: every request that waited in order
            return;
        }
        unsorted.add(r);
        // every later arrival is dispatched at or after its intended instant, which is at or after this one's
        while (!unsorted.isEmpty() && unsorted.peek().dispatched <= r.intended) {
            inTimeOrder(unsorted.poll());
        }
    }

    private void inTimeOrder(Request r) {
        if (r.phase == previousPhase) {
            gaps[r.phase].add(r.dispatched - previousDispatch);
        }
        previousPhase = r.phase;
        previousDispatch = r.dispatched;
    }

    /** Puts the last dispatches in time order; call once after the last request was logged. */
    void finish() {
        while (!unsorted.isEmpty()) {
            inTimeOrder(unsorted.poll());
        }
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

    /** Distinct schedule sequence numbers found in the log (in order, or held back behind a missing one). */
    long distinctLogged() {
        return nextSeq + waiting.stream().mapToLong(r -> r.seq).distinct().count();
    }

    /** Requests logged more than once. */
    long duplicated() {
        return duplicated + waiting.size() - waiting.stream().mapToLong(r -> r.seq).distinct().count();
    }

    /** The last completion (ok or error) of a request of the phase; {@code Long.MIN_VALUE} when none completed. */
    long lastCompleted(int phase) {
        return lastCompleted[phase];
    }

    /** The time requests of a phase spent at the server (completed - sent), summed, outside warm-up. */
    long serviceNanos(int phase) {
        return serviceNanos[phase];
    }

    Histogram clientDelay(int phase) {
        return clientDelay[phase];
    }

    Histogram service(int phase) {
        return service[phase];
    }

    /** Response times (completed - intended) of the ok requests that found an idle worker. */
    Histogram idleResponse(int phase) {
        return idleResponse[phase];
    }

    /** Service times (completed - sent) of the same requests as {@link #idleResponse}. */
    Histogram idleService(int phase) {
        return idleService[phase];
    }

    /** The sampled realized gaps of a phase, in seconds. */
    double[] gapSample(int phase) {
        return gaps[phase].values();
    }
}
