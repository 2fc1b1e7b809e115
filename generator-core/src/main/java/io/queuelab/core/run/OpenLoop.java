package io.queuelab.core.run;

import io.queuelab.core.backend.AsyncSession;
import io.queuelab.core.backend.OperationMix;
import io.queuelab.core.backend.SyncSession;
import io.queuelab.core.schedule.ArrivalSchedule;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The open loop: one schedule thread walks the plan's absolute schedule (t_i = t_(i-1) + gap, from
 * a seeded stream) in order and puts each arrival into the client at its intended instant, so a
 * late dispatch never moves a later arrival.
 *
 * <ul>
 *   <li>Synchronous backends: through a {@link WorkerHandOff}. An arrival is given ahead of its
 *       instant to an idle worker, which waits for the instant itself and sends: the send waits for
 *       one timed wake-up, not for a second thread. When every worker is busy the arrival joins the
 *       bounded queue at its instant, or is dropped when the queue is full.</li>
 *   <li>Asynchronous backends: the schedule thread sends itself when a place in flight is free; if
 *       none is, the arrival waits in a bounded FIFO that the same thread sends from as places free
 *       up (the driver's single sending thread, as {@link AsyncSession} requires).</li>
 * </ul>
 *
 * <p>Guarantees: every arrival whose instant was reached is counted here per phase
 * ({@link #scheduled(int)}), independently of the log, and handed to the pipeline, which logs it
 * exactly once; a stop request ends the walk before the next arrival (arrivals already given to a
 * worker are still sent at their instants).
 */
final class OpenLoop {
    private static final long POLL_NANOS = 20_000_000;
    private volatile AsyncSender asyncSender;
    private volatile long maxQueue;

    private final LoadPlan plan;
    private final PhaseTimes times;
    private final OperationMix mix;
    private final RequestPipeline pipeline;
    private final RunClock clock;
    private final BooleanSupplier stopRequested;
    private final long[] scheduled;
    private final long[] dropped;
    private volatile SpinPolicy spin = SpinPolicy.forRate(0);
    private volatile long stoppedAt = -1;
    private long seq;

    OpenLoop(LoadPlan plan, PhaseTimes times, OperationMix mix, RequestPipeline pipeline, BooleanSupplier stopRequested) {
        this.plan = plan;
        this.times = times;
        this.mix = mix;
        this.pipeline = pipeline;
        this.clock = pipeline.clock();
        this.stopRequested = stopRequested;
        this.scheduled = new long[times.phases()];
        this.dropped = new long[times.phases()];
    }

    /** Arrivals of a phase put into the client (dispatched or dropped), counted by the schedule thread. */
    long scheduled(int phase) {
        return scheduled[phase];
    }

    /** Arrivals of a phase that found the queue full, counted by the schedule thread. */
    long dropped(int phase) {
        return dropped[phase];
    }

    /** The run clock's instant at which a stop request ended the schedule; -1 if it ran to its end. */
    long stoppedAt() {
        return stoppedAt;
    }

    /** What the schedule thread does with each arrival. */
    private interface Dispatch {
        /** Called before the arrival's instant (by up to the lead), with the request not yet created. */
        void arrive(Request r, long intended);
    }

    /**
     * Walks the whole schedule on the calling thread (the schedule thread), handing arrivals to the
     * synchronous workers, then closes the hand-off. The workers are started here and returned.
     */
    List<Thread> startWorkers(SyncSession[] sessions, WorkerHandOff handOff) {
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < sessions.length; w++) {
            int index = w;
            SyncSession session = sessions[w];
            WorkerHandOff.Worker self = handOff.register(w);
            Thread t = new Thread(() -> worker(index, self, session, handOff), "queuelab-worker-" + w);
            t.setDaemon(true);
            self.bind(t);
            threads.add(t);
        }
        threads.forEach(Thread::start);
        return threads;
    }

    private void worker(int index, WorkerHandOff.Worker self, SyncSession session, WorkerHandOff handOff) {
        RunClock.preciseTimers();
        for (Request r; (r = handOff.next(self, spin.idleSpinNanos())) != null; ) {
            pipeline.hold(index, r);
            if (r.dispatched == io.queuelab.core.log.LogFormat.NONE) {
                // given ahead: this worker waits for the instant itself
                clock.awaitInstant(r.intended, spin.waitSpinNanos(), pipeline::stopped);
                r.dispatched = clock.now();
            }
            r.dequeued = clock.now();
            pipeline.executeSync(index, session, r);
        }
    }

    void walkSync(WorkerHandOff handOff, SplittableRandom scheduleRandom, SplittableRandom operationRandom) {
        try {
            walk(scheduleRandom, operationRandom, (r, intended) -> {
                if (handOff.giveAhead(r)) {
                    return;
                }
                clock.awaitInstant(intended, spin.waitSpinNanos());
                r.dispatched = clock.now();
                if (handOff.offer(r) == WorkerHandOff.Offer.FULL) {
                    dropped[r.phase]++;
                    pipeline.dropped(r);
                }
            }, false);
        } finally {
            handOff.close();
        }
    }

    /**
     * Walks the whole schedule on the calling thread, sending on the asynchronous session within
     * the in-flight limit, then sends what waits in the FIFO until it is empty or the pipeline
     * stops. Returns the requests still waiting then (to be logged as unfinished).
     */
    List<Request> walkAsync(AsyncSession session, InFlightLimit limit, int queueBound, SplittableRandom scheduleRandom,
                            SplittableRandom operationRandom, long drainTimeoutNanos) {
        AsyncSender sender = new AsyncSender(session, limit, queueBound, Thread.currentThread());
        walk(scheduleRandom, operationRandom, (r, intended) -> {
            while (!clock.awaitInstant(intended, spin.waitSpinNanos(), sender::ready)) {
                sender.sendWaiting();
            }
            r.dispatched = clock.now();
            sender.sendWaiting();
            if (!sender.sendOrQueue(r)) {
                dropped[r.phase]++;
                pipeline.dropped(r);
            }
        }, true);
        long deadline = Math.max(clock.now(), times.end()) + drainTimeoutNanos;
        try {
            while (sender.waiting() > 0 && !pipeline.stopped() && clock.now() < deadline) {
                if (limit.acquire(POLL_NANOS)) {
                    limit.release();
                    sender.sendWaiting();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return sender.takeWaiting();
    }

    /** Requests waiting in the asynchronous FIFO. */
    int asyncWaiting() {
        return asyncSender == null ? 0 : asyncSender.waiting();
    }

    private void walk(SplittableRandom scheduleRandom, SplittableRandom operationRandom, Dispatch dispatch,
                      boolean atInstant) {
        Thread.currentThread().setPriority(Thread.MAX_PRIORITY);
        RunClock.preciseTimers();
        for (int p = 0; p < times.phases(); p++) {
            Phase phase = plan.phases().get(p);
            spin = SpinPolicy.forRate(phase.rate());
            int flags = times.flags(p);
            ArrivalSchedule schedule = plan.schedule(p, scheduleRandom);
            double next = times.start(p) + schedule.nextGapNanos();
            while (next < times.end(p)) {
                long intended = (long) next;
                long wakeAt = atInstant ? intended - spin.waitSpinNanos() : intended - spin.leadNanos();
                if (!clock.awaitInstant(wakeAt, 0, stopRequested) || stopRequested.getAsBoolean()) {
                    stoppedAt = clock.now();
                    return;
                }
                Request r = new Request(mix.pick(operationRandom.nextDouble()), p, flags, intended, seq++);
                scheduled[p]++;
                dispatch.arrive(r, intended);
                next += schedule.nextGapNanos();
            }
        }
    }

    /** The asynchronous path's FIFO and sender; used by the schedule thread only, woken by completions. */
    private final class AsyncSender {
        private final AsyncSession session;
        private final InFlightLimit limit;
        private final int bound;
        private final Thread scheduleThread;
        private final ArrayDeque<Request> fifo = new ArrayDeque<>();
        private volatile int waiting;
        private volatile boolean placeFreed;

        AsyncSender(AsyncSession session, InFlightLimit limit, int bound, Thread scheduleThread) {
            this.session = session;
            this.limit = limit;
            this.bound = bound;
            this.scheduleThread = scheduleThread;
            asyncSender = this;
        }

        /** True when requests wait and a place in flight was freed since the last look. */
        boolean ready() {
            return placeFreed && waiting > 0;
        }

        void sendWaiting() {
            placeFreed = false;
            while (!fifo.isEmpty() && !pipeline.stopped() && tryAcquire()) {
                Request r = fifo.pollFirst();
                waiting = fifo.size();
                send(r);
            }
        }

        /** Sends {@code r} now, or queues it behind the waiting ones; false if the FIFO is full. */
        boolean sendOrQueue(Request r) {
            if (fifo.isEmpty() && tryAcquire()) {
                r.idleWorker = true;
                send(r);
                return true;
            }
            if (fifo.size() >= bound) {
                return false;
            }
            fifo.addLast(r);
            waiting = fifo.size();
            maxQueue = Math.max(maxQueue, waiting);
            return true;
        }

        private boolean tryAcquire() {
            try {
                return limit.acquire(0);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        private void send(Request r) {
            r.dequeued = clock.now();
            pipeline.sendAsync(session, r, () -> {
                limit.release();
                if (waiting > 0) {
                    placeFreed = true;
                    LockSupport.unpark(scheduleThread);
                }
            });
        }

        int waiting() {
            return waiting;
        }

        List<Request> takeWaiting() {
            List<Request> left = new ArrayList<>(fifo);
            fifo.clear();
            waiting = 0;
            return left;
        }
    }

    /** The longest the asynchronous FIFO grew. */
    long asyncMaxQueue() {
        return maxQueue;
    }
}
