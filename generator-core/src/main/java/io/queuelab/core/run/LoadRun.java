package io.queuelab.core.run;

import io.queuelab.core.backend.AsyncBackend;
import io.queuelab.core.backend.AsyncSession;
import io.queuelab.core.backend.Backend;
import io.queuelab.core.backend.OperationMix;
import io.queuelab.core.backend.SyncBackend;
import io.queuelab.core.backend.SyncSession;
import io.queuelab.core.clock.ClockOffset;
import io.queuelab.core.clock.ClockProbe;
import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.Manifest;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.schedule.ArrivalSchedule;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs a {@link LoadPlan} against a {@link Backend} and leaves a complete run directory.
 *
 * <p>Open loop: a generator thread computes an absolute schedule of intended instants and puts each
 * request on a bounded queue at its instant (a full queue logs the request as {@code dropped});
 * synchronous workers, or an asynchronous dispatcher bounded by the in-flight limit, take them.
 * Closed loop: each of N jobs issues its next request the instant the previous one completes
 * (after an optional exponential think time). Response time counts from the intended instant,
 * so a stalled server shows in the response time of every request scheduled during the stall.
 *
 * <p>Guarantees: every scheduled request is logged exactly once, as ok, an error class, dropped,
 * or unfinished (still queued or in flight when the drain timeout after the last phase ran out);
 * workers never touch the disk; the manifest is marked complete only after the log is closed.
 */
public final class LoadRun {
    private static final long SPIN_NANOS = 200_000;
    private static final long POLL_NANOS = 20_000_000;
    private static final long SPIN_TAKE_NANOS = 20_000;

    private final RunConfig config;
    private final Backend backend;
    private final LoadPlan plan;
    private final OperationMix mix;
    private final long[] phaseEnd;
    private final SplittableRandom root;
    private final LiveMetrics metrics = new LiveMetrics();
    private final AtomicInteger queued = new AtomicInteger();
    private final Set<Request> asyncInFlight = ConcurrentHashMap.newKeySet();
    private long anchorNano;
    private long start;
    private volatile boolean generationDone;
    private volatile boolean hardStop;
    private RequestLogger logger;

    private LoadRun(RunConfig config, Backend backend) {
        this.config = config;
        this.backend = backend;
        this.plan = config.plan();
        this.mix = backend.operations();
        this.phaseEnd = new long[plan.phases().size()];
        this.root = new SplittableRandom(config.seed());
    }

    /**
     * Runs the plan and returns when the run directory is complete.
     *
     * @param settings the caller's view of the configuration (e.g. command-line options, backend
     *                 name), recorded in the manifest; never credentials
     * @param progress where progress lines go; null for none
     */
    public static RunResult execute(RunConfig config, Backend backend, Map<String, ?> settings, PrintStream progress)
            throws Exception {
        return execute(config, backend, settings, progress, RunCompanion.NONE);
    }

    /** As {@link #execute(RunConfig, Backend, Map, PrintStream)}, with a companion running beside the load. */
    public static RunResult execute(RunConfig config, Backend backend, Map<String, ?> settings, PrintStream progress,
                                    RunCompanion companion) throws Exception {
        return new LoadRun(config, backend).run(settings, progress, companion);
    }

    private long clock() {
        return System.nanoTime() - anchorNano;
    }

    private RunResult run(Map<String, ?> settings, PrintStream progress, RunCompanion companion) throws Exception {
        RunDirectory dir = RunDirectory.create(config.outputDir());
        Manifest manifest = Manifest.create("measured");
        RunManifest.describe(manifest, config, settings, backend);
        manifest.write(dir.path());

        long scheduleSeed = root.nextLong();
        long operationSeed = root.nextLong();
        long recorderSeed = root.nextLong();
        List<AutoCloseable> sessions = new ArrayList<>();
        try {
            // every connection is set up before the first arrival
            SyncSession[] syncSessions = null;
            AsyncSession asyncSession = null;
            long anchorEpoch = ClockProbe.wallClockNanos();
            anchorNano = System.nanoTime();
            ClockOffset clockAtStart = null;
            try {
                if (config.clockReference() != null) {
                    clockAtStart = ClockProbe.measure(config.clockReference(), () -> anchorEpoch + clock());
                }
                if (backend instanceof SyncBackend sync) {
                    int n = plan.closedLoop() ? plan.maxConcurrency() : config.workers();
                    syncSessions = new SyncSession[n];
                    for (int w = 0; w < n; w++) {
                        syncSessions[w] = sync.openSession(w, root.nextLong());
                        sessions.add(syncSessions[w]);
                    }
                } else {
                    asyncSession = ((AsyncBackend) backend).openSession(root.nextLong());
                    sessions.add(asyncSession);
                }
            } catch (Exception e) {
                // nothing was sent: leave no run directory behind that could be mistaken for a run
                Files.deleteIfExists(dir.manifestFile());
                Files.deleteIfExists(dir.path());
                throw e;
            }
            manifest.section("backend").set("server", Manifest.tree(backend.describe()));

            logger = new RequestLogger(dir.log(), dir.errors(), anchorEpoch, backend, metrics, config.nodeIndex(),
                    plan.phases().size());
            start = startOffset(anchorEpoch, clockAtStart);
            long t = start;
            for (int i = 0; i < phaseEnd.length; i++) {
                t += plan.phases().get(i).duration().toNanos();
                phaseEnd[i] = t;
            }
            manifest.section("start").put("anchorEpochNanos", anchorEpoch)
                    .put("scheduleStartNanos", start)
                    .put("scheduleStart", Instant.ofEpochSecond(0, anchorEpoch + start).toString());
            if (clockAtStart != null) {
                ObjectNode clock = manifest.section("clock");
                clock.put("reference", config.clockReference().getHostString() + ":" + config.clockReference().getPort());
                describeClock(clock.putObject("start"), clockAtStart, anchorEpoch);
            }
            manifest.write(dir.path());

            sessions.add(companion.start(dir.path()));
            ArrivalRecorder arrivals = new ArrivalRecorder(plan.phases().size(), recorderSeed);
            ArrayBlockingQueue<Request> queue = new ArrayBlockingQueue<>(config.queueBound());
            InFlightLimit limit = new InFlightLimit(plan.closedLoop() ? plan.phases().get(0).concurrency() : config.inFlightBound());
            AtomicReferenceArray<Request> slots = new AtomicReferenceArray<>(syncSessions == null ? 0 : syncSessions.length);
            AtomicInteger syncBusy = new AtomicInteger();
            metrics.gauges(syncSessions != null ? syncBusy::get : limit::inFlight, queued::get);
            metrics.startReporter(progress, config.reportInterval().toNanos(), phaseEnd[phaseEnd.length - 1] - start,
                    () -> clock() - start, () -> {
                        int p = phaseAt(clock());
                        return plan.closedLoop() ? 0 : plan.phases().get(p).rate();
                    });

            long cpu0 = cpuNanos();
            long[] gc0 = gc();
            List<Thread> threads = new ArrayList<>();
            if (syncSessions != null) {
                for (int w = 0; w < syncSessions.length; w++) {
                    SyncSession s = syncSessions[w];
                    int worker = w;
                    Runnable body = plan.closedLoop()
                            ? () -> closedWorker(worker, s, slots, syncBusy, new SplittableRandom(operationSeed + worker))
                            : () -> openWorker(worker, s, queue, slots, syncBusy);
                    threads.add(start("queuelab-worker-" + w, body));
                }
            } else {
                AsyncSession s = asyncSession;
                SplittableRandom ops = new SplittableRandom(operationSeed);
                threads.add(start("queuelab-dispatcher", plan.closedLoop()
                        ? () -> closedDispatcher(s, limit, ops)
                        : () -> openDispatcher(s, queue, limit)));
            }

            if (!plan.closedLoop()) {
                generate(queue, arrivals, new SplittableRandom(scheduleSeed), new SplittableRandom(operationSeed));
            } else {
                waitUntil(phaseEnd[phaseEnd.length - 1]);
            }
            generationDone = true;

            long deadline = Math.max(clock(), phaseEnd[phaseEnd.length - 1]) + config.drainTimeout().toNanos();
            for (Thread th : threads) {
                th.join(Math.max(1, (deadline - clock()) / 1_000_000));
            }
            limit.awaitIdle(Math.max(0, deadline - clock()), TimeUnit.NANOSECONDS);
            hardStop = true;
            for (Request r; (r = queue.poll()) != null; ) {
                unfinished(r);
            }
            for (int w = 0; w < slots.length(); w++) {
                Request r = slots.get(w);
                if (r != null) {
                    unfinished(r);
                }
            }
            for (Request r : asyncInFlight) {
                unfinished(r);
            }
            long cpu = cpuNanos() - cpu0;
            long[] gc = gc();
            metrics.stopReporter();
            for (Thread th : threads) {
                th.interrupt();
            }
            closeAll(sessions);
            sessions.clear();
            for (Thread th : threads) {
                th.join(1000);
            }
            LogTotals totals = logger.finish();
            if (clockAtStart != null) {
                // a second measurement gives the drift of this node's clock over the run
                ObjectNode end = manifest.section("clock").putObject("end");
                try {
                    describeClock(end, ClockProbe.measure(config.clockReference(), () -> anchorEpoch + clock()), anchorEpoch);
                } catch (IOException e) {
                    end.put("error", e.getMessage());
                }
            }
            SelfCheck check = SelfCheck.evaluate(plan, arrivals, logger.completedPerPhase(), maxQueue, totals,
                    cpu / 1e9, (gc[0] - gc0[0]) / 1e3, gc[1] - gc0[1]);
            manifest.put("totals", totals);
            manifest.put("selfCheck", check);
            manifest.section("end").put("epochNanos", ClockProbe.wallClockNanos());
            manifest.markComplete();
            manifest.write(dir.path());
            return new RunResult(dir, totals, check);
        } finally {
            metrics.stopReporter();
            hardStop = true;
            closeAll(sessions);
            if (logger != null) {
                logger.close();
            }
        }
    }

    private long maxQueue;

    private void generate(ArrayBlockingQueue<Request> queue, ArrivalRecorder arrivals, SplittableRandom scheduleRandom,
                          SplittableRandom operationRandom) {
        Thread.currentThread().setPriority(Thread.MAX_PRIORITY);
        long phaseStart = start;
        for (int p = 0; p < phaseEnd.length; p++) {
            Phase phase = plan.phases().get(p);
            int flags = phase.warmup() ? LogFormat.FLAG_WARMUP : 0;
            ArrivalSchedule schedule = plan.schedule(p, scheduleRandom);
            double next = phaseStart + schedule.nextGapNanos();
            while (next < phaseEnd[p]) {
                long intended = (long) next;
                waitUntil(intended);
                long now = clock();
                Request r = new Request(mix.pick(operationRandom.nextDouble()), p, flags, intended);
                if (queue.offer(r)) {
                    // the counter runs ahead of the queue by the workers that took a request and have
                    // not yet counted it (a preempted worker): never more than the queue can hold
                    int length = Math.min(queued.incrementAndGet(), config.queueBound());
                    if (length > maxQueue) {
                        maxQueue = length;
                    }
                } else {
                    r.outcome = LogFormat.DROPPED;
                    r.claim();
                    logger.submit(r);
                }
                arrivals.dispatched(p, phase.warmup(), intended, now);
                next += schedule.nextGapNanos();
            }
            phaseStart = phaseEnd[p];
        }
    }

    private void openWorker(int worker, SyncSession session, ArrayBlockingQueue<Request> queue,
                            AtomicReferenceArray<Request> slots, AtomicInteger busy) {
        try {
            for (Request r; (r = dequeue(queue)) != null; ) {
                r.worker = worker;
                executeSync(worker, session, r, slots, busy);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The next queued request, stamped with its dequeue instant; null once generation is done and
     * the queue is empty, or at a hard stop.
     */
    private Request dequeue(ArrayBlockingQueue<Request> queue) throws InterruptedException {
        while (!hardStop) {
            Request r = take(queue);
            if (r != null) {
                queued.decrementAndGet();
                r.dequeued = clock();
                return r;
            }
            if (generationDone && queue.isEmpty()) {
                return null;
            }
        }
        return null;
    }

    /**
     * The next request, or null after a poll interval without one. Spins briefly before blocking:
     * at high rates the next request is microseconds away, and a park/unpark pair per request
     * would cost more than the request itself.
     */
    private Request take(ArrayBlockingQueue<Request> queue) throws InterruptedException {
        long spinUntil = System.nanoTime() + SPIN_TAKE_NANOS;
        do {
            // spin on a plain volatile read: polling the queue itself would take its lock on
            // every turn and slow the generator's offers down
            if (queued.get() > 0) {
                Request r = queue.poll();
                if (r != null) {
                    return r;
                }
            }
            Thread.onSpinWait();
        } while (System.nanoTime() < spinUntil);
        return queue.poll(POLL_NANOS, TimeUnit.NANOSECONDS);
    }

    private void closedWorker(int worker, SyncSession session, AtomicReferenceArray<Request> slots, AtomicInteger busy,
                              SplittableRandom random) {
        long meanThink = plan.meanThinkTime().toNanos();
        long end = phaseEnd[phaseEnd.length - 1];
        waitUntil(start);
        while (!hardStop) {
            long now = clock();
            if (now >= end) {
                return;
            }
            int p = phaseAt(now);
            if (worker >= plan.phases().get(p).concurrency()) {
                LockSupport.parkNanos(Math.min(1_000_000, phaseEnd[p] - now));
                continue;
            }
            if (meanThink > 0) {
                waitUntil(now + (long) (-Math.log(1.0 - random.nextDouble()) * meanThink));
                now = clock();
                if (now >= end) {
                    return;
                }
                p = phaseAt(now);
            }
            Request r = new Request(mix.pick(random.nextDouble()), p, flags(p), now);
            r.dequeued = now;
            r.worker = worker;
            executeSync(worker, session, r, slots, busy);
        }
    }

    private void executeSync(int worker, SyncSession session, Request r, AtomicReferenceArray<Request> slots,
                             AtomicInteger busy) {
        slots.set(worker, r);
        if (hardStop) {
            unfinished(r);
            return;
        }
        busy.incrementAndGet();
        Throwable failure = null;
        r.sent = clock();
        try {
            session.execute(r.operation);
        } catch (Throwable t) {
            failure = t;
        }
        long done = clock();
        busy.decrementAndGet();
        slots.set(worker, null);
        complete(r, done, failure);
    }

    private void openDispatcher(AsyncSession session, ArrayBlockingQueue<Request> queue, InFlightLimit limit) {
        try {
            for (Request r; (r = dequeue(queue)) != null; ) {
                while (!limit.acquire(POLL_NANOS)) {
                    if (hardStop) {
                        unfinished(r);
                        return;
                    }
                }
                sendAsync(session, r, limit, null, null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void closedDispatcher(AsyncSession session, InFlightLimit limit, SplittableRandom random) {
        long meanThink = plan.meanThinkTime().toNanos();
        ScheduledExecutorService thinker = meanThink > 0 ? Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "queuelab-think");
            t.setDaemon(true);
            return t;
        }) : null;
        long end = phaseEnd[phaseEnd.length - 1];
        waitUntil(start);
        int phase = 0;
        try {
            while (!hardStop) {
                long now = clock();
                if (now >= end) {
                    return;
                }
                int p = phaseAt(now);
                if (p != phase) {
                    phase = p;
                    limit.setLimit(plan.phases().get(p).concurrency());
                }
                if (!limit.acquire(Math.min(POLL_NANOS, Math.max(1, Math.min(end, phaseEnd[p]) - now)))) {
                    continue;
                }
                now = clock();
                Request r = new Request(mix.pick(random.nextDouble()), phaseAt(now), flags(phaseAt(now)), now);
                r.dequeued = now;
                sendAsync(session, r, limit, thinker, meanThink > 0 ? random.split() : null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (thinker != null) {
                thinker.shutdownNow();
            }
        }
    }

    private void sendAsync(AsyncSession session, Request r, InFlightLimit limit, ScheduledExecutorService thinker,
                           SplittableRandom thinkRandom) {
        asyncInFlight.add(r);
        if (hardStop) {
            limit.release();
            unfinished(r);
            return;
        }
        Runnable free = thinker == null ? limit::release : () -> {
            long think = (long) (-Math.log(1.0 - thinkRandom.nextDouble()) * plan.meanThinkTime().toNanos());
            try {
                thinker.schedule(limit::release, think, TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                limit.release();
            }
        };
        r.sent = clock();
        AsyncSession.Completion completion = new AsyncSession.Completion() {
            @Override
            public void succeeded() {
                finish(null);
            }

            @Override
            public void failed(Throwable failure) {
                finish(failure == null ? new IllegalStateException("failed without a cause") : failure);
            }

            private void finish(Throwable failure) {
                long done = clock();
                asyncInFlight.remove(r);
                complete(r, done, failure);
                free.run();
            }
        };
        try {
            session.execute(r.operation, completion);
        } catch (Throwable t) {
            completion.failed(t);
        }
    }

    private void complete(Request r, long done, Throwable failure) {
        if (r.claim()) {
            r.completed = done;
            r.failure = failure;
            logger.submit(r);
        }
    }

    private void unfinished(Request r) {
        if (r.claim()) {
            r.outcome = LogFormat.UNFINISHED;
            logger.submit(r);
        }
    }

    private int flags(int phase) {
        return plan.phases().get(phase).warmup() ? LogFormat.FLAG_WARMUP : 0;
    }

    private int phaseAt(long now) {
        for (int i = 0; i < phaseEnd.length - 1; i++) {
            if (now < phaseEnd[i]) {
                return i;
            }
        }
        return phaseEnd.length - 1;
    }

    /** Sleeps, then spins, until the clock reaches {@code instant}: lateness stays in microseconds. */
    private void waitUntil(long instant) {
        long left;
        while ((left = instant - clock()) > 0) {
            if (left > SPIN_NANOS) {
                LockSupport.parkNanos(left - SPIN_NANOS / 2);
            } else {
                Thread.onSpinWait();
            }
        }
    }

    private long startOffset(long anchorEpoch, ClockOffset clockAtStart) {
        if (config.startAt() == null) {
            return clock() + 10_000_000; // threads are started within this margin
        }
        // with a clock reference, --start-at is the reference's instant: every node starts together
        long offset = clockAtStart == null ? 0 : clockAtStart.offsetNanos();
        long at = config.startAt().getEpochSecond() * 1_000_000_000L + config.startAt().getNano() - anchorEpoch - offset;
        if (at < clock()) {
            throw new IllegalArgumentException("--start-at " + config.startAt() + " is in the past");
        }
        return at;
    }

    private static void describeClock(ObjectNode node, ClockOffset offset, long anchorEpoch) {
        node.put("offsetNanos", offset.offsetNanos())
                .put("uncertaintyNanos", offset.uncertaintyNanos())
                .put("atNanos", offset.localNanos() - anchorEpoch)
                .put("exchanges", offset.exchanges());
    }

    private static Thread start(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static long cpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }

    /** Total GC time in ms and collection count so far. */
    private static long[] gc() {
        long time = 0;
        long count = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            time += Math.max(0, gc.getCollectionTime());
            count += Math.max(0, gc.getCollectionCount());
        }
        return new long[] {time, count};
    }

    private static void closeAll(List<AutoCloseable> sessions) {
        for (AutoCloseable s : sessions) {
            try {
                s.close();
            } catch (Exception ignored) {
                // a session that fails to close has nothing left to report
            }
        }
    }
}
