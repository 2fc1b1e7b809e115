package io.queuelab.core.run;

import io.queuelab.core.log.LogFormat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The open loop's arrivals as the synchronous workers take them, with no thread between the
 * schedule and the worker that sends.
 *
 * <p>A worker that is free takes the oldest request waiting, else the schedule's next arrival
 * itself, and if that arrival's instant is still ahead it waits for the instant on its own timer
 * ({@link RunClock#awaitInstant}): the send waits for one timed wake-up, never for another thread
 * to wake it. When every worker is busy, the arrivals whose instants pass wait in order: a worker
 * that becomes free takes the oldest; the schedule thread ({@link #admitOverdue}) moves them into
 * the bounded queue, and an arrival that finds the queue full there is dropped.
 *
 * <p>Guarantees: arrivals are taken in schedule order (FIFO over the queue and the schedule); each
 * arrival is counted once when it enters the client ({@link #scheduled}), by the thread that saw
 * it enter, and goes to exactly one place: one worker, or the dropped list; after
 * {@link #stop(long)}, no arrival whose instant is after the stop instant enters.
 */
final class WorkerSchedule {
    private final ScheduleCursor cursor;
    private final RunClock clock;
    private final int bound;
    private final ArrayDeque<Request> queue = new ArrayDeque<>();
    private final AtomicLongArray scheduled;
    private final AtomicLongArray dropped;
    private volatile long stopAt = Long.MAX_VALUE;
    private volatile int queued;
    private long maxQueue;

    WorkerSchedule(ScheduleCursor cursor, RunClock clock, int bound, int phases) {
        this.cursor = cursor;
        this.clock = clock;
        this.bound = bound;
        this.scheduled = new AtomicLongArray(phases);
        this.dropped = new AtomicLongArray(phases);
    }

    /**
     * The calling worker's next request, or null when the schedule is over (or stopped) and
     * nothing waits. A request whose instant is ahead is the worker's to wait for: it then calls
     * {@link #entered} at the instant, or {@link #abandoned} if the run stopped first.
     */
    Request take() {
        long now = clock.now();
        synchronized (this) {
            Request r = queue.pollFirst();
            if (r != null) {
                queued = queue.size();
                return r;
            }
            Request next = cursor.peek();
            if (next == null || next.intended > stopAt) {
                return null;
            }
            r = cursor.take();
            if (r.intended > now) {
                r.idleWorker = true; // a free worker was waiting for this arrival
                return r;
            }
            // it came while every worker was busy: it waited in order, as a queued one would
            r.dispatched = r.intended;
            scheduled.incrementAndGet(r.phase);
            return r;
        }
    }

    /** A worker's taken-ahead arrival reached its instant and is sent now. */
    void entered(Request r) {
        r.dispatched = clock.now();
        scheduled.incrementAndGet(r.phase);
    }

    /** A taken-ahead arrival whose instant comes after the stop: it never happens. */
    boolean abandoned(Request r) {
        return r.intended > stopAt;
    }

    /**
     * Called by the schedule thread: every arrival whose instant has passed and that no worker
     * took joins the queue, or, when the queue is full, goes into {@code droppedOut}.
     *
     * @return the instant of the next arrival no worker has taken; -1 once the schedule is over
     */
    long admitOverdue(List<Request> droppedOut) {
        long now = clock.now();
        synchronized (this) {
            for (Request next; (next = cursor.peek()) != null && next.intended <= now && next.intended <= stopAt; ) {
                Request r = cursor.take();
                r.dispatched = r.intended;
                scheduled.incrementAndGet(r.phase);
                if (queue.size() >= bound) {
                    dropped.incrementAndGet(r.phase);
                    droppedOut.add(r);
                } else {
                    queue.addLast(r);
                    maxQueue = Math.max(maxQueue, queue.size());
                }
            }
            queued = queue.size();
            Request next = cursor.peek();
            return next == null || next.intended > stopAt ? -1 : next.intended;
        }
    }

    /** The rate of the phase the next arrival belongs to. */
    synchronized double rate() {
        return cursor.rate();
    }

    /** No arrival after {@code instant} enters the client. */
    void stop(long instant) {
        stopAt = instant;
    }

    /** Removes and returns every request still queued (at a hard stop). */
    synchronized List<Request> drainQueue() {
        List<Request> left = new ArrayList<>(queue);
        queue.clear();
        queued = 0;
        return left;
    }

    long scheduled(int phase) {
        return scheduled.get(phase);
    }

    long dropped(int phase) {
        return dropped.get(phase);
    }

    int queued() {
        return queued;
    }

    synchronized long maxQueue() {
        return maxQueue;
    }

    static boolean dispatched(Request r) {
        return r.dispatched != LogFormat.NONE;
    }
}
