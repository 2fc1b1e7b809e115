package io.queuelab.core.run;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Where the open loop's requests meet the synchronous workers: the workers waiting for a request,
 * and a bounded FIFO of requests waiting for a worker.
 *
 * <p>A request goes straight to an idle worker when there is one, with no queue between them, and
 * may be given before its intended instant ({@link #giveAhead}): that worker then waits for the
 * instant itself, so the send never waits for a second thread to wake up. Only when every worker
 * is busy does a request wait in the queue ({@link #offer}), where a worker finishing its request
 * finds it without being woken; a request that finds the queue full is refused, and the caller
 * logs it as dropped.
 *
 * <p>Guarantees: a worker is idle only while the queue is empty, so a queued request never waits
 * beside a sleeping worker; a request given to the hand-off reaches exactly one worker, or stays
 * in the queue for {@link #drainQueue()}; an idle worker burns no CPU unless the caller asked it to
 * spin (at rates where the next request is microseconds away, a park and unpark per request
 * would cost more than the request).
 */
final class WorkerHandOff {
    enum Offer { IDLE_WORKER, QUEUED, FULL }

    /** One synchronous worker as the hand-off sees it. */
    static final class Worker {
        final int index;
        private volatile Thread thread;
        /** A request given to this idle worker, until the worker takes it. */
        private volatile Request given;

        Worker(int index) {
            this.index = index;
        }

        void bind(Thread t) {
            thread = t;
        }
    }

    private final ArrayDeque<Request> queue = new ArrayDeque<>();
    /** LIFO: the most recently idle worker is the one whose caches are warm. */
    private final ArrayDeque<Worker> idle = new ArrayDeque<>();
    private final int bound;
    private final List<Worker> workers = new ArrayList<>();
    private volatile int queued;
    private volatile boolean closed;
    private long maxQueue;

    WorkerHandOff(int bound) {
        this.bound = bound;
    }

    Worker register(int index) {
        Worker w = new Worker(index);
        synchronized (this) {
            workers.add(w);
        }
        return w;
    }

    /** Gives {@code r} to an idle worker if there is one; false if every worker is busy. */
    boolean giveAhead(Request r) {
        Worker w;
        synchronized (this) {
            w = idle.pollFirst();
            if (w == null) {
                return false;
            }
            r.idleWorker = true;
            w.given = r; // under the lock: a worker leaving at close sees it
        }
        LockSupport.unpark(w.thread);
        return true;
    }

    /** At the request's instant: to an idle worker, else into the queue, else {@link Offer#FULL}. */
    Offer offer(Request r) {
        Worker w;
        synchronized (this) {
            w = idle.pollFirst();
            if (w == null) {
                if (queue.size() >= bound) {
                    return Offer.FULL;
                }
                queue.addLast(r);
                queued = queue.size();
                if (queued > maxQueue) {
                    maxQueue = queued;
                }
                return Offer.QUEUED;
            }
            r.idleWorker = true;
            w.given = r;
        }
        LockSupport.unpark(w.thread);
        return Offer.IDLE_WORKER;
    }

    /**
     * The calling worker's next request: the oldest queued one, else one given to it while idle.
     * Null once the hand-off is closed and nothing is left for this worker.
     *
     * @param spinNanos how long an idle worker spins before parking
     */
    Request next(Worker self, long spinNanos) {
        synchronized (this) {
            Request r = queue.pollFirst();
            if (r != null) {
                queued = queue.size();
                return r;
            }
            if (closed) {
                return null;
            }
            idle.addFirst(self);
        }
        long spinUntil = spinNanos > 0 ? System.nanoTime() + spinNanos : 0;
        while (true) {
            Request r = self.given;
            if (r != null) {
                self.given = null;
                return r;
            }
            if (closed) {
                synchronized (this) {
                    // a request given just before the close is still this worker's
                    idle.remove(self);
                    r = self.given;
                    self.given = null;
                }
                return r;
            }
            if (spinUntil != 0 && System.nanoTime() < spinUntil) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(this, 50_000_000);
            }
        }
    }

    /** No more requests will come: idle workers return null from {@link #next} once the queue is empty. */
    void close() {
        closed = true;
        List<Worker> all;
        synchronized (this) {
            all = List.copyOf(workers);
        }
        for (Worker w : all) {
            Thread t = w.thread;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    /** Removes and returns every request still queued (at a hard stop). */
    synchronized List<Request> drainQueue() {
        List<Request> left = new ArrayList<>(queue);
        queue.clear();
        queued = 0;
        return left;
    }

    int queued() {
        return queued;
    }

    synchronized long maxQueue() {
        return maxQueue;
    }
}
