package io.queuelab.core.run;

import io.queuelab.core.backend.AsyncSession;
import io.queuelab.core.backend.SyncSession;
import io.queuelab.core.schedule.LoadPlan;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The open loop: the plan's absolute schedule ({@link ScheduleCursor}) put into the client at each
 * arrival's intended instant, so a late dispatch never moves a later arrival.
 *
 * <ul>
 *   <li>Synchronous backends: a free worker takes the next arrival itself and waits for its instant
 *       on its own timer ({@link WorkerSchedule}); the schedule thread only admits the arrivals that
 *       came while every worker was busy into the bounded queue (or drops them when it is full),
 *       waking at most every {@value #ADMIT_PERIOD_NANOS} ns.</li>
 *   <li>Asynchronous backends: the schedule thread waits for each instant and sends itself when a
 *       place in flight is free; if none is, the arrival waits in a bounded FIFO that the same
 *       thread sends from as places free up (the driver's single sending thread, as
 *       {@link AsyncSession} requires).</li>
 * </ul>
 *
 * <p>Guarantees: every arrival that entered the client is counted per phase
 * ({@link #scheduled(int)}), independently of the log, and handed to the pipeline, which logs it
 * exactly once; a stop request ends the schedule at the instant it is seen: no later arrival enters.
 */
final class OpenLoop {
    /**
     * The schedule thread's shortest sleep. Workers take overdue arrivals from the schedule
     * themselves, in order, so admitting them into the queue only decides drops and feeds the
     * queue gauge; doing it at most every 10 ms spares a wake-up per arrival at low rates (an
     * arrival is usually taken by a worker before its instant, and the thread would wake for it
     * in vain).
     */
    static final long ADMIT_PERIOD_NANOS = 10_000_000;
    /**
     * The schedule thread's nap while a worker is parked: every arrival then has a free worker,
     * and the thread is woken when the last parked worker leaves; the nap bounds how late it sees
     * a stop request or the schedule's end.
     */
    static final long IDLE_ADMIT_NANOS = 100_000_000;
    private static final long POLL_NANOS = 20_000_000;

    private final LoadPlan plan;
    private final PhaseTimes times;
    private final RequestPipeline pipeline;
    private final RunClock clock;
    private final BooleanSupplier stopRequested;
    private final long[] spinNanos;
    private final long[] asyncScheduled;
    private final long[] asyncDropped;
    /** The synchronous workers' shared estimate of their timer's lateness. */
    private final RunClock.TimerLead workerLead = new RunClock.TimerLead();
    private volatile WorkerSchedule workers;
    private volatile AsyncSender asyncSender;
    private volatile long stoppedAt = -1;

    OpenLoop(LoadPlan plan, PhaseTimes times, RequestPipeline pipeline, BooleanSupplier stopRequested) {
        this.plan = plan;
        this.times = times;
        this.pipeline = pipeline;
        this.clock = pipeline.clock();
        this.stopRequested = stopRequested;
        this.spinNanos = new long[times.phases()];
        for (int p = 0; p < spinNanos.length; p++) {
            spinNanos[p] = SpinPolicy.spinNanos(plan.phases().get(p).rate());
        }
        this.asyncScheduled = new long[times.phases()];
        this.asyncDropped = new long[times.phases()];
    }

    /** Arrivals of a phase that entered the client (dispatched or dropped), counted as they entered. */
    long scheduled(int phase) {
        return workers != null ? workers.scheduled(phase) : asyncScheduled[phase];
    }

    /** Arrivals of a phase that found the queue full. */
    long dropped(int phase) {
        return workers != null ? workers.dropped(phase) : asyncDropped[phase];
    }

    /** The run clock's instant at which a stop request ended the schedule; -1 if it ran to its end. */
    long stoppedAt() {
        return stoppedAt;
    }

    /** Requests waiting for a worker or a place in flight. */
    int queued() {
        WorkerSchedule w = workers;
        AsyncSender a = asyncSender;
        return w != null ? w.queued() : a != null ? a.waiting() : 0;
    }

    /** The longest the queue grew. */
    long maxQueue() {
        WorkerSchedule w = workers;
        AsyncSender a = asyncSender;
        return w != null ? w.maxQueue() : a != null ? a.maxWaiting : 0;
    }

    /** Starts one worker per session on {@code schedule}; {@link #admit} then runs the schedule thread. */
    List<Thread> startWorkers(SyncSession[] sessions, WorkerSchedule schedule) {
        workers = schedule;
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < sessions.length; w++) {
            int index = w;
            SyncSession session = sessions[w];
            threads.add(new Thread(() -> worker(index, session, schedule), "queuelab-worker-" + w));
        }
        threads.forEach(t -> {
            t.setDaemon(true);
            t.start();
        });
        return threads;
    }

    private void worker(int index, SyncSession session, WorkerSchedule schedule) {
        TimerPrecision.applyToCurrentThread();
        RunClock.TimerLead lead = workerLead;
        long[] awaited = new long[1]; // the instant this worker waits for; one stop test for every wait
        BooleanSupplier stopped = () -> schedule.stoppedBefore(awaited[0]) || pipeline.stopped();
        long now = clock.now();
        for (Request r; (r = schedule.take(now)) != null; ) {
            if (!WorkerSchedule.dispatched(r)) {
                // taken ahead: this worker waits for the instant itself
                awaited[0] = r.intended;
                long at = clock.reach(r.intended, spinNanos[r.phase], stopped, lead);
                if (at == RunClock.NOT_REACHED || !schedule.enter(r, at)) {
                    schedule.gaveUp(r);
                    now = clock.now();
                    continue; // the run stopped before this arrival's instant: it never happened
                }
            }
            now = pipeline.executeSync(index, session, r);
        }
    }

    /** The schedule thread of a synchronous run: admits overdue arrivals until the schedule is over. */
    void admit(WorkerSchedule schedule) {
        List<Request> dropped = new ArrayList<>();
        long lastAdmit = clock.now();
        while (true) {
            long next = schedule.admitOverdue(dropped);
            for (Request r : dropped) {
                pipeline.dropped(r);
            }
            dropped.clear();
            if (next < 0) {
                return;
            }
            if (stopRequested.getAsBoolean()) {
                stoppedAt = schedule.stopNow();
                schedule.admitOverdue(dropped);
                dropped.forEach(pipeline::dropped);
                return;
            }
            if (schedule.workerFree(Thread.currentThread())) {
                // a parked worker takes every arrival; the queue matters again only when none is
                // left parked, which wakes this thread (and a stop request is seen within this nap)
                LockSupport.parkNanos(IDLE_ADMIT_NANOS);
            } else {
                clock.awaitInstant(Math.max(next, lastAdmit + ADMIT_PERIOD_NANOS), 0, stopRequested);
            }
            lastAdmit = clock.now();
        }
    }

    /**
     * The schedule thread of an asynchronous run: sends every arrival at its instant within the
     * in-flight limit, then what waits in the FIFO until it is empty, the drain timeout has passed
     * or the pipeline stops. Returns the requests still waiting then (to be logged as unfinished).
     */
    List<Request> sendAsync(ScheduleCursor cursor, AsyncSession session, InFlightLimit limit, int queueBound,
                            long drainTimeoutNanos) {
        Thread.currentThread().setPriority(Thread.MAX_PRIORITY);
        TimerPrecision.applyToCurrentThread();
        AsyncSender sender = new AsyncSender(session, limit, queueBound, Thread.currentThread());
        asyncSender = sender;
        RunClock.TimerLead lead = new RunClock.TimerLead();
        for (Request r; (r = cursor.take()) != null; ) {
            long spin = spinNanos[r.phase];
            while (!clock.awaitInstant(r.intended, spin, () -> sender.ready() || stopRequested.getAsBoolean(), lead)) {
                if (stopRequested.getAsBoolean()) {
                    break;
                }
                sender.sendWaiting();
            }
            if (stopRequested.getAsBoolean() && clock.now() < r.intended) {
                stoppedAt = clock.now();
                break;
            }
            r.dispatched = clock.now();
            asyncScheduled[r.phase]++;
            sender.sendWaiting();
            if (!sender.sendOrQueue(r)) {
                asyncDropped[r.phase]++;
                pipeline.dropped(r);
            }
        }
        long deadline = Math.max(clock.now(), stoppedAt >= 0 ? stoppedAt : times.end()) + drainTimeoutNanos;
        try {
            while (sender.waiting() > 0 && !pipeline.stopped() && clock.now() < deadline) {
                if (limit.acquire(Math.min(POLL_NANOS, Math.max(1, deadline - clock.now())))) {
                    limit.release();
                    sender.sendWaiting();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return sender.takeWaiting();
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
        private volatile long maxWaiting;

        AsyncSender(AsyncSession session, InFlightLimit limit, int bound, Thread scheduleThread) {
            this.session = session;
            this.limit = limit;
            this.bound = bound;
            this.scheduleThread = scheduleThread;
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
            maxWaiting = Math.max(maxWaiting, waiting);
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
}
