package io.queuelab.core.run;

import io.queuelab.core.log.LogFormat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The open loop's arrivals as the synchronous workers take them, with no thread between the
 * schedule and the worker that sends.
 *
 * <p>A worker that is free takes the oldest request waiting, else the schedule's next arrival
 * itself, and if that arrival's instant is still ahead it waits for the instant on its own timer
 * ({@link RunClock#awaitInstant}): the send waits for one timed wake-up, never for another thread
 * to wake it. At most {@value #MAX_AHEAD} workers wait for arrivals ahead at once; the other free
 * workers park, most recently busy first in line ({@link #take}), so the fewest threads and
 * connections carry the load: a run at 2000 point selects/s with 16 workers sends from 2 to 3
 * of them instead of all 16 in turn, and both the client's and the server's CPU per request and
 * the response time fall with that (docs/benchmarks.md, "the hand-off designs"). When the
 * waiting workers have both gone busy, a parked one is woken to wait for the next arrival, so a
 * free worker is still ready for every arrival while one exists. When every worker is busy, the
 * arrivals whose instants pass wait in order: a worker that becomes free takes the oldest; the
 * schedule thread ({@link #admitOverdue}) moves them into the bounded queue, and an arrival that
 * finds the queue full there is dropped.
 *
 * <p>Guarantees: arrivals are taken in schedule order (FIFO over the queue and the schedule); each
 * arrival is counted once when it enters the client ({@link #scheduled}), by the thread that saw
 * it enter, and goes to exactly one place: one worker, or the dropped list; an arrival that came
 * while a worker was free (waiting ahead, or parked) is marked {@link Request#idleWorker}, so a
 * delay before its send counts as the client's hand-off; after {@link #stop(long)}, no arrival
 * whose instant is after the stop instant enters, and parked workers are woken to end.
 */
final class WorkerSchedule {
    /**
     * How many free workers wait for arrivals ahead at once. Two, so that the next arrival still
     * has a waiting worker while the other sends; with one, every send would have to wake a
     * parked worker for the arrival after it (a wake-up per request).
     */
    static final int MAX_AHEAD = 2;
    private final ScheduleCursor cursor;
    private final RunClock clock;
    private final int bound;
    private final ArrayDeque<Request> queue = new ArrayDeque<>();
    /** Parked free workers, the most recently busy first (guarded by this). */
    private final ArrayDeque<Thread> parked = new ArrayDeque<>();
    /** Arrivals that entered the client, per phase (guarded by this). */
    private final long[] scheduled;
    private final AtomicLongArray dropped;
    private volatile long stopAt = Long.MAX_VALUE;
    private volatile int queued;
    private volatile Thread admitter;
    /** Workers waiting for an arrival's instant (guarded by this). */
    private int ahead;
    /** Workers that parked in {@link #take} and have not yet returned from it (guarded by this). */
    private int free;
    /** Since when {@link #free} has been above zero without a break; MAX_VALUE while it is zero. */
    private long freeSince = Long.MAX_VALUE;
    private long maxQueue;

    WorkerSchedule(ScheduleCursor cursor, RunClock clock, int bound, int phases) {
        this.cursor = cursor;
        this.clock = clock;
        this.bound = bound;
        this.scheduled = new long[phases];
        this.dropped = new AtomicLongArray(phases);
    }

    /**
     * The calling worker's next request, or null when the schedule is over (or stopped) and
     * nothing waits, or the worker was interrupted while parked. A request whose instant is ahead
     * is the worker's to wait for: it then calls {@link #enter} at the instant, or
     * {@link #gaveUp} if the run stopped first ({@link #stoppedBefore}). A request already in the
     * client (queued, or overdue) is returned with {@link Request#dequeued} set to {@code now}.
     *
     * @param now the worker's last clock reading, from when it became free (its last request's
     *            completion): the worker's own bookkeeping since then is not a reason to read the
     *            clock again, which costs ~30 ns a read on a VM (docs/benchmarks.md, "the generator
     *            at 1,000,000/s"); after a park it reads the clock anew
     */
    Request take(long now) {
        Thread self = Thread.currentThread();
        long parkedAt = Long.MAX_VALUE; // when this worker became free and parked, if it did
        while (true) {
            if (parkedAt != Long.MAX_VALUE) {
                now = clock.now();
            }
            List<Thread> wake = null;
            Request r;
            synchronized (this) {
                if (parkedAt != Long.MAX_VALUE) {
                    parked.remove(self); // after a spurious wake-up; a worker woken on purpose was taken out
                }
                r = queue.pollFirst();
                if (r != null) {
                    queued = queue.size();
                } else {
                    Request next = cursor.peek();
                    if (next == null || next.intended > stopAt) {
                        wake = new ArrayList<>(parked); // the schedule is over: every parked worker ends
                        parked.clear();
                    } else if (next.intended > now && next.intended > (now = clock.now())) {
                        // ahead by the worker's last reading, and still ahead by a fresh one: an
                        // instant that passed during the worker's own bookkeeping since that
                        // reading found no worker waiting, and waits in order below (dispatched at
                        // its instant) rather than being stamped when the worker came to it
                        if (ahead < MAX_AHEAD) {
                            r = cursor.take();
                            r.idleWorker = true; // a free worker was waiting for this arrival
                            ahead++;
                            leaveFree(parkedAt);
                            return r;
                        }
                    } else {
                        // its instant passed while no worker was waiting for it: it waited in order,
                        // as a queued one would
                        r = cursor.take();
                        r.dispatched = r.intended;
                        scheduled[r.phase]++;
                    }
                }
                if (r != null) {
                    r.dequeued = now;
                    if (parkedAt <= r.intended || freeSince <= r.intended) {
                        // a worker was free at its instant (parked, or woken and not yet back): the
                        // delay before its send is the client's hand-off, not a queue
                        r.idleWorker = true;
                    }
                    if (ahead == 0) {
                        unparkOne(); // keep a worker waiting ahead
                    }
                    leaveFree(parkedAt);
                    return r;
                }
                if (wake == null) {
                    if (self.isInterrupted()) {
                        leaveFree(parkedAt);
                        return null; // the run is being torn down
                    }
                    parked.addFirst(self);
                    if (parkedAt == Long.MAX_VALUE) {
                        parkedAt = now;
                        if (free++ == 0) {
                            freeSince = now;
                        }
                    }
                } else {
                    leaveFree(parkedAt);
                }
            }
            if (wake != null) {
                wake.forEach(LockSupport::unpark);
                return null;
            }
            LockSupport.park(this);
        }
    }

    /**
     * A taken-ahead arrival whose instant has come enters the client at {@code at}, the waiting
     * worker's clock reading that found the instant come, unless the run stopped before its
     * instant: then it never happens (false; the caller gives it up). Decided under the lock
     * {@link #stopNow} takes, so that no arrival later than the stop instant is sent: a worker that
     * read the stop as not yet made while the schedule thread was between reading the clock and
     * publishing the stop sent an arrival after it (OpenLoopTest caught it on CI). Only the
     * arrival's instant is compared with the stop, so {@code at} may be read before the lock.
     */
    synchronized boolean enter(Request r, long at) {
        if (r.intended > stopAt) {
            return false;
        }
        r.dispatched = at;
        r.dequeued = at;
        scheduled[r.phase]++;
        leaveAhead();
        return true;
    }

    /** Whether the run stopped before {@code instant}: an arrival due then never happens. */
    boolean stoppedBefore(long instant) {
        return instant > stopAt;
    }

    /** The worker waiting for {@code r} gives it up: the run stopped before its instant. */
    void gaveUp(Request r) {
        leaveAhead();
    }

    /** The calling worker, if it had parked ({@code parkedAt} set), is no longer free. Holding the lock. */
    private void leaveFree(long parkedAt) {
        if (parkedAt != Long.MAX_VALUE && --free == 0) {
            freeSince = Long.MAX_VALUE;
        }
    }

    private synchronized void leaveAhead() {
        ahead--;
        if (ahead == 0) {
            unparkOne(); // the arrival after this one needs a waiting worker
        }
    }

    /**
     * Wakes the parked worker that was busy last (its thread and connection are the likeliest to
     * be in the caches); when none is left parked, wakes the schedule thread, whose queue then
     * matters again ({@link #workerFree}). Called holding the lock; unpark never blocks.
     */
    private void unparkOne() {
        Thread w = parked.pollFirst();
        if (w != null) {
            LockSupport.unpark(w);
            if (parked.isEmpty() && admitter != null) {
                LockSupport.unpark(admitter);
            }
        }
    }

    /**
     * Whether the schedule thread may sleep long: while a worker is parked, every arrival has a
     * free worker to take it ({@link #take}), and the queue and its drops concern only arrivals
     * that came while every worker was busy. Registers the caller to be woken when the last
     * parked worker leaves.
     */
    boolean workerFree(Thread admitterThread) {
        admitter = admitterThread;
        synchronized (this) {
            return !parked.isEmpty();
        }
    }

    /**
     * Called by the schedule thread: every arrival whose instant has passed and that no worker
     * took joins the queue, or, when the queue is full, goes into {@code droppedOut}.
     *
     * @return the instant of the next arrival no worker has taken; -1 once the schedule is over
     */
    long admitOverdue(List<Request> droppedOut) {
        long now = clock.now();
        List<Thread> wake = new ArrayList<>();
        long result;
        synchronized (this) {
            for (Request next; (next = cursor.peek()) != null && next.intended <= now && next.intended <= stopAt; ) {
                Request r = cursor.take();
                r.dispatched = r.intended;
                scheduled[r.phase]++;
                if (queue.size() >= bound) {
                    dropped.incrementAndGet(r.phase);
                    droppedOut.add(r);
                } else {
                    queue.addLast(r);
                    maxQueue = Math.max(maxQueue, queue.size());
                    Thread w = parked.pollFirst(); // a free worker for it, if one is parked
                    if (w != null) {
                        wake.add(w);
                    }
                }
            }
            queued = queue.size();
            Request next = cursor.peek();
            result = next == null || next.intended > stopAt ? -1 : next.intended;
        }
        wake.forEach(LockSupport::unpark);
        return result;
    }

    /** The rate of the phase the next arrival belongs to. */
    synchronized double rate() {
        return cursor.rate();
    }

    /**
     * Stops the schedule now: no arrival after the instant returned enters the client (the clock is
     * read and the stop published under the lock {@link #enter} takes); parked workers wake to see it.
     */
    long stopNow() {
        long instant;
        List<Thread> wake;
        synchronized (this) {
            instant = clock.now();
            stopAt = instant;
            wake = new ArrayList<>(parked);
            parked.clear();
        }
        wake.forEach(LockSupport::unpark);
        return instant;
    }

    /** Removes and returns every request still queued (at a hard stop). */
    synchronized List<Request> drainQueue() {
        List<Request> left = new ArrayList<>(queue);
        queue.clear();
        queued = 0;
        return left;
    }

    synchronized long scheduled(int phase) {
        return scheduled[phase];
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
