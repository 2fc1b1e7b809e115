package io.queuelab.core.run;

import io.queuelab.core.backend.AsyncSession;
import io.queuelab.core.backend.OperationMix;
import io.queuelab.core.backend.SyncSession;
import io.queuelab.core.schedule.LoadPlan;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The closed loop: each of N jobs issues its next request the instant its previous one completes
 * (after an exponential think time, if the plan has one); a phase sets how many jobs are active.
 * Synchronous backends: one worker thread per job. Asynchronous backends: one dispatcher keeps
 * N requests in flight.
 *
 * <p>A plan with finite work ({@link LoadPlan#requestsPerJob()}) gives each job that many requests;
 * a job that has had its last one completed leaves, and {@link #allJobsLeft()} tells when none is
 * left, {@link #lastLeft()} at which instant.
 *
 * <p>Guarantees: every request a job issues is counted here ({@link #issued()}), independently of
 * the log, and handed to the pipeline, which logs it exactly once; a stop request ends the jobs
 * after the requests they have in flight.
 */
final class ClosedLoop {
    private static final long POLL_NANOS = 20_000_000;

    private final LoadPlan plan;
    private final PhaseTimes times;
    private final OperationMix mix;
    private final RequestPipeline pipeline;
    private final RunClock clock;
    private final BooleanSupplier stopRequested;
    private final AtomicLong issued = new AtomicLong();
    private final AtomicLong lastLeft = new AtomicLong(Long.MIN_VALUE);
    private final AtomicInteger jobsLeft = new AtomicInteger();
    private volatile int jobs = -1;

    ClosedLoop(LoadPlan plan, PhaseTimes times, OperationMix mix, RequestPipeline pipeline, BooleanSupplier stopRequested) {
        this.plan = plan;
        this.times = times;
        this.mix = mix;
        this.pipeline = pipeline;
        this.clock = pipeline.clock();
        this.stopRequested = stopRequested;
    }

    /** Requests the jobs issued, counted as they issue them. */
    long issued() {
        return issued.get();
    }

    /** Whether every job of a plan with finite work has done it and left. */
    boolean allJobsLeft() {
        return jobs >= 0 && jobsLeft.get() >= jobs;
    }

    /** The run-clock instant the last job left after its work (meaningful once {@link #allJobsLeft()}). */
    long lastLeft() {
        return lastLeft.get();
    }

    private boolean over() {
        return pipeline.stopped() || stopRequested.getAsBoolean();
    }

    List<Thread> startJobs(SyncSession[] sessions, long operationSeed) {
        List<Thread> threads = new ArrayList<>();
        jobs = sessions.length;
        for (int w = 0; w < sessions.length; w++) {
            int worker = w;
            SyncSession s = sessions[w];
            SplittableRandom random = new SplittableRandom(operationSeed + worker);
            threads.add(new Thread(() -> job(worker, s, random), "queuelab-worker-" + w));
        }
        threads.forEach(t -> {
            t.setDaemon(true);
            t.start();
        });
        return threads;
    }

    private void job(int worker, SyncSession session, SplittableRandom random) {
        TimerPrecision.applyToCurrentThread();
        clock.awaitInstant(times.start(), 0, this::over);
        if (work(worker, session, random)) {
            long now = clock.now();
            lastLeft.accumulateAndGet(now, Math::max);
            jobsLeft.incrementAndGet();
        }
    }

    /** A job's requests; true when it did all of a finite amount of work. */
    private boolean work(int worker, SyncSession session, SplittableRandom random) {
        long meanThink = plan.meanThinkTime().toNanos();
        long end = times.end();
        long quota = plan.requestsPerJob();
        long done = 0;
        while (!over()) {
            if (quota > 0 && done >= quota) {
                return true;
            }
            long now = clock.now();
            if (now >= end) {
                return false;
            }
            int p = times.phaseAt(now);
            if (worker >= plan.phases().get(p).concurrency()) {
                LockSupport.parkNanos(Math.min(1_000_000, times.end(p) - now));
                continue;
            }
            if (meanThink > 0) {
                clock.awaitInstant(now + (long) (-Math.log(1.0 - random.nextDouble()) * meanThink), 0, this::over);
                now = clock.now();
                if (now >= end || over()) {
                    return false;
                }
                p = times.phaseAt(now);
            }
            Request r = new Request(mix.pick(random.nextDouble()), p, times.flags(p), now, -1);
            issued.incrementAndGet();
            r.dispatched = now;
            r.dequeued = now;
            pipeline.executeSync(worker, session, r);
            done++;
        }
        return quota > 0 && done >= quota;
    }

    Thread startDispatcher(AsyncSession session, InFlightLimit limit, SplittableRandom random) {
        Thread t = new Thread(() -> dispatcher(session, limit, random), "queuelab-dispatcher");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private void dispatcher(AsyncSession session, InFlightLimit limit, SplittableRandom random) {
        long meanThink = plan.meanThinkTime().toNanos();
        ScheduledExecutorService thinker = meanThink > 0 ? Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "queuelab-think");
            t.setDaemon(true);
            return t;
        }) : null;
        long end = times.end();
        clock.awaitInstant(times.start(), 0, this::over);
        int phase = 0;
        try {
            while (!over()) {
                long now = clock.now();
                if (now >= end) {
                    return;
                }
                int p = times.phaseAt(now);
                if (p != phase) {
                    phase = p;
                    limit.setLimit(plan.phases().get(p).concurrency());
                }
                if (!limit.acquire(Math.min(POLL_NANOS, Math.max(1, Math.min(end, times.end(p)) - now)))) {
                    continue;
                }
                now = clock.now();
                int at = times.phaseAt(now);
                Request r = new Request(mix.pick(random.nextDouble()), at, times.flags(at), now, -1);
                issued.incrementAndGet();
                r.dispatched = now;
                r.dequeued = now;
                SplittableRandom thinkRandom = meanThink > 0 ? random.split() : null;
                pipeline.sendAsync(session, r, thinker == null ? limit::release : () -> {
                    long think = (long) (-Math.log(1.0 - thinkRandom.nextDouble()) * meanThink);
                    try {
                        thinker.schedule(limit::release, think, TimeUnit.NANOSECONDS);
                    } catch (RejectedExecutionException e) {
                        limit.release();
                    }
                });
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (thinker != null) {
                thinker.shutdownNow();
            }
        }
    }
}
