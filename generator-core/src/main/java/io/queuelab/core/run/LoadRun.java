package io.queuelab.core.run;

import io.queuelab.core.backend.AsyncBackend;
import io.queuelab.core.backend.AsyncSession;
import io.queuelab.core.backend.Backend;
import io.queuelab.core.backend.SyncBackend;
import io.queuelab.core.backend.SyncSession;
import io.queuelab.core.clock.ClockOffset;
import io.queuelab.core.clock.ClockProbe;
import io.queuelab.core.clock.StartBarrier;
import io.queuelab.core.manifest.BackendInfo;
import io.queuelab.core.manifest.ClientInfo;
import io.queuelab.core.manifest.Placement;
import io.queuelab.core.manifest.ClockAnchor;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.RunEnd;
import io.queuelab.core.manifest.ScheduleStart;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.schedule.LoadPlan;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Runs a {@link LoadPlan} against a {@link Backend} and leaves a complete run directory: sets up
 * the sessions, the log and the clock, runs the {@link OpenLoop} or {@link ClosedLoop}, drains,
 * and writes the manifest with the totals and the {@link SelfCheck}.
 *
 * <p>Response time counts from the intended instant, so a stalled server shows in the response
 * time of every request scheduled during the stall.
 *
 * <p>Guarantees: every scheduled request is logged exactly once, as ok, an error class, dropped,
 * or unfinished (still queued or in flight when the drain timeout after the last phase ran out);
 * workers never touch the disk; a {@link RunStop} ends the run as its planned end does (drain,
 * every record, a complete manifest that says why and when); the manifest is marked complete only
 * after the log is closed.
 */
public final class LoadRun {
    /** How often the end of a closed run is checked for a stop request or jobs that have all left. */
    private static final long CLOSED_POLL_NANOS = 10_000_000;
    private final RunConfig config;
    private final Backend backend;
    private final LoadPlan plan;
    private final SplittableRandom root;
    private final RunStop stop;
    private final LiveMetrics metrics = new LiveMetrics();

    private LoadRun(RunConfig config, Backend backend, RunStop stop) {
        this.config = config;
        this.backend = backend;
        this.plan = config.plan();
        this.root = new SplittableRandom(config.seed());
        this.stop = stop;
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
        return execute(config, backend, settings, progress, companion, new RunStop());
    }

    /** As above; {@code stop} may end the run early (it then still drains and completes its manifest). */
    public static RunResult execute(RunConfig config, Backend backend, Map<String, ?> settings, PrintStream progress,
                                    RunCompanion companion, RunStop stop) throws Exception {
        return new LoadRun(config, backend, stop).run(settings, progress, companion);
    }

    /** The run's placement: the caller's (server side, split) with the generator's CPUs as the kernel gives this thread now. */
    private static Placement placement(Placement given) {
        return (given == null ? new Placement(null, null, "none", null) : given).withClient(Placement.Side.ofThisThread());
    }

    private RunResult run(Map<String, ?> settings, PrintStream progress, RunCompanion companion) throws Exception {
        RunDirectory dir = RunDirectory.create(config.outputDir());
        Manifest manifest = MeasuredManifest.describe(config, settings, backend);
        manifest.write(dir.path());

        long scheduleSeed = root.nextLong();
        long operationSeed = root.nextLong();
        long recorderSeed = root.nextLong();
        List<AutoCloseable> sessions = new ArrayList<>();
        RequestLogger logger = null;
        RequestPipeline pipeline = null;
        ClientStalls stallWatch = null;
        try {
            // every connection is set up before the first arrival
            SyncSession[] syncSessions = null;
            AsyncSession asyncSession = null;
            ClockProbe.Anchor anchor = ClockProbe.Anchor.now();
            long anchorEpoch = anchor.epochNanos();
            RunClock clock = new RunClock(anchor.monotonicNanos());
            ClockOffset clockAtStart = null;
            try {
                if (config.clockReference() != null) {
                    clockAtStart = ClockProbe.measure(config.clockReference(), () -> anchorEpoch + clock.now());
                }
                if (plan.finiteWork() && !(backend instanceof SyncBackend)) {
                    throw new IllegalArgumentException("finite work per job needs a synchronous backend (one thread per job)");
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
            manifest.backend(manifest.backend().orElseThrow().withServer(backend.describe()));

            ArrivalRecorder arrivals = new ArrivalRecorder(plan.phases().size(), recorderSeed);
            logger = new RequestLogger(dir.log(), dir.errors(), anchorEpoch, backend, metrics, config.nodeIndex(),
                    plan.phases().size(), arrivals,
                    failure -> stop.request("the request log could not be written (" + dir.log() + ": " + failure.getMessage() + ")"));
            stallWatch = new ClientStalls(clock);
            logger.watch(stallWatch);
            if (clockAtStart != null) {
                manifest.clock(new ClockAnchor(config.clockReference().getHostString() + ":" + config.clockReference().getPort(),
                        ClockAnchor.Measurement.of(clockAtStart, anchorEpoch), null));
            }
            // this thread goes on to be the schedule thread (admissions, or the asynchronous sender), and
            // what it is granted is what every timing thread of the process is granted
            TimerPrecision.Granted timing = TimerPrecision.applyToCurrentThread();
            manifest.client(new ClientInfo(timing.timerSlack(), timing.sliceNanos()));
            manifest.placement(placement(config.placement()));

            sessions.add(companion.start(dir.path()));
            pipeline = new RequestPipeline(clock, logger, syncSessions == null ? 0 : syncSessions.length);
            // the schedule's start is fixed only now that everything before it is set up: the
            // setup above took ~140 ms (the telemetry companion, the placement), and arrivals
            // due meanwhile queued before any worker ran (at 1,000,000/s, 140,000 of them)
            // the start-up's garbage (command line, manifest, connections) is collected now, before
            // the schedule, not by the run's first young collections: those copied it at 50-70 ms a
            // pause, and at 1,000,000/s each pause queued 50,000-70,000 arrivals
            System.gc();
            Instant startAt = config.startAt();
            if (config.startWhenReady()) {
                // every node is told one instant: recorded as if given, it tells this run's nodes from another's
                long named = StartBarrier.await(config.clockReference(), config.nodeIndex(), config.nodeCount(), stop::requested);
                startAt = named == Long.MIN_VALUE ? null : Instant.ofEpochSecond(0, named); // null: stopped while waiting
                if (startAt != null) {
                    manifest.config(manifest.config().orElseThrow().withStartAt(startAt.toString()));
                }
            }
            PhaseTimes times = new PhaseTimes(plan, startOffset(clock, anchorEpoch, clockAtStart, startAt));
            manifest.start(ScheduleStart.of(anchorEpoch, times.start()));
            manifest.write(dir.path());
            ClientCost cost = new ClientCost();
            cost.startAt(clock, times.warmupEnd());
            InFlightLimit limit = new InFlightLimit(plan.closedLoop() ? plan.phases().get(0).concurrency() : config.inFlightBound());
            OpenLoop open = plan.closedLoop() ? null : new OpenLoop(plan, times, pipeline, stop::requested);
            ClosedLoop closed = plan.closedLoop()
                    ? new ClosedLoop(plan, times, backend.operations(), pipeline, stop::requested) : null;
            ScheduleCursor cursor = open == null ? null : new ScheduleCursor(plan, times, backend.operations(),
                    new SplittableRandom(scheduleSeed), new SplittableRandom(operationSeed));
            WorkerSchedule workerSchedule = open != null && syncSessions != null
                    ? new WorkerSchedule(cursor, clock, config.queueBound(), times.phases()) : null;
            RequestPipeline p = pipeline;
            metrics.gauges(syncSessions != null ? p::syncBusy : limit::inFlight, () -> open == null ? 0 : open.queued());
            metrics.startReporter(progress, config.reportInterval().toNanos(), times.end() - times.start(),
                    () -> clock.now() - times.start(), () -> {
                        int phase = times.phaseAt(clock.now());
                        return plan.closedLoop() ? 0 : plan.phases().get(phase).rate();
                    });

            List<Thread> threads = new ArrayList<>();
            List<Request> waiting = List.of();
            long stoppedAt = -1;
            if (workerSchedule != null) {
                threads.addAll(open.startWorkers(syncSessions, workerSchedule));
                open.admit(workerSchedule);
                stoppedAt = open.stoppedAt();
            } else if (open != null) {
                waiting = open.sendAsync(cursor, asyncSession, limit, config.queueBound(), config.drainTimeout().toNanos());
                stoppedAt = open.stoppedAt();
            } else {
                if (syncSessions != null) {
                    threads.addAll(closed.startJobs(syncSessions, operationSeed));
                } else {
                    threads.add(closed.startDispatcher(asyncSession, limit, new SplittableRandom(operationSeed)));
                }
                // a plan with finite work ends when the last job leaves; its phase is then only a time limit
                while (clock.now() < times.end() && !closed.allJobsLeft()) {
                    if (stop.requested()) {
                        stoppedAt = clock.now();
                        break;
                    }
                    clock.awaitInstant(Math.min(times.end(), clock.now() + CLOSED_POLL_NANOS), 0, null);
                }
            }

            // the drain: what is in the client gets the drain timeout to complete
            long deadline = Math.max(clock.now(), times.end()) + config.drainTimeout().toNanos();
            if (stoppedAt >= 0) {
                deadline = stoppedAt + config.drainTimeout().toNanos();
            }
            for (Thread th : threads) {
                th.join(Math.max(1, (deadline - clock.now()) / 1_000_000));
            }
            limit.awaitIdle(Math.max(0, deadline - clock.now()), TimeUnit.NANOSECONDS);
            pipeline.hardStop();
            if (workerSchedule != null) {
                for (Request r : workerSchedule.drainQueue()) {
                    pipeline.unfinished(r);
                }
            }
            for (Request r : waiting) {
                pipeline.unfinished(r);
            }
            ClientCost.Measured measured = cost.stop();
            metrics.stopReporter();
            for (Thread th : threads) {
                th.interrupt();
            }
            closeAll(sessions);
            sessions.clear();
            for (Thread th : threads) {
                th.join(1000);
            }
            recordAtEnd(manifest);
            long[] scheduledPerPhase = new long[times.phases()];
            long scheduled = 0;
            long droppedAtQueue = 0;
            for (int i = 0; i < times.phases(); i++) {
                scheduledPerPhase[i] = open != null ? open.scheduled(i) : 0;
                scheduled += scheduledPerPhase[i];
                droppedAtQueue += open != null ? open.dropped(i) : 0;
            }
            if (closed != null) {
                scheduled = closed.issued();
            }
            LogTotals totals = logger.finish(scheduled);
            List<SelfCheck.ClientStall> stalls = new ArrayList<>();
            for (ClientStalls.Stall s : stallWatch.finish()) {
                if (s.touched == 0) {
                    continue; // before the schedule, or between arrivals: no measurement has it in its times
                }
                stalls.add(new SelfCheck.ClientStall((s.start - times.start()) / 1e9, (s.end - s.start) / 1e9, s.touched));
            }
            if (clockAtStart != null) {
                // a second measurement gives the drift of this node's clock over the run
                ClockAnchor.Measurement end;
                try {
                    end = ClockAnchor.Measurement.of(
                            ClockProbe.measure(config.clockReference(), () -> anchorEpoch + clock.now()), anchorEpoch);
                } catch (IOException e) {
                    end = ClockAnchor.Measurement.failed(e.getMessage());
                }
                manifest.clock(manifest.clock().orElseThrow().withEnd(end));
            }
            long maxQueue = open == null ? 0 : open.maxQueue();
            double[] phaseSeconds = new double[times.phases()];
            long ranUntil = stoppedAt >= 0 ? stoppedAt : times.end();
            if (closed != null && closed.allJobsLeft()) {
                ranUntil = Math.min(ranUntil, closed.lastLeft());
            }
            for (int i = 0; i < times.phases(); i++) {
                phaseSeconds[i] = Math.max(0, Math.min(ranUntil, times.end(i)) - times.start(i)) / 1e9;
            }
            SelfCheck check = SelfCheck.evaluate(plan, arrivals, new SelfCheck.Counts(scheduledPerPhase, droppedAtQueue,
                    logger.completedPerPhase(), maxQueue, syncSessions == null ? config.inFlightBound() : syncSessions.length,
                    totals, phaseSeconds, logger.writeFailure() == null ? null : dir.log() + ": " + logger.writeFailure().getMessage(), stalls,
                    completionSeconds(times, arrivals)), measured);
            boolean finite = plan.finiteWork();
            manifest.totals(totals).selfCheck(check).end(new RunEnd(ClockProbe.wallClockNanos(),
                    finite ? plan.requestsPerJob() : null,
                    finite ? closed.allJobsLeft() : null,
                    finite && closed.allJobsLeft() ? (closed.lastLeft() - times.start()) / 1e9 : null,
                    stoppedAt >= 0 ? (stoppedAt - times.start()) / 1e9 : null,
                    stoppedAt >= 0 ? String.format(Locale.ROOT, "%s at %.1f s of %.1f s", stop.reason(),
                            Math.max(0, stoppedAt - times.start()) / 1e9, (times.end() - times.start()) / 1e9) : null));
            manifest.markComplete();
            RunResult result = new RunResult(dir, totals, check);
            try {
                manifest.write(dir.path());
            } catch (IOException e) {
                throw new ManifestNotWritten(result, manifest, e);
            }
            return result;
        } finally {
            if (stallWatch != null) {
                stallWatch.close();
            }
            metrics.stopReporter();
            if (pipeline != null) {
                pipeline.hardStop();
            }
            closeAll(sessions);
            if (logger != null) {
                logger.close();
            }
        }
    }

    /** The backend's own end-of-run counts ({@link Backend#describeAtEnd()}) into the manifest's backend.server. */
    private void recordAtEnd(Manifest manifest) {
        Map<String, Object> atEnd;
        try {
            atEnd = backend.describeAtEnd();
        } catch (Exception e) {
            atEnd = Map.of("describeAtEndFailed", String.valueOf(e.getMessage()));
        }
        if (atEnd.isEmpty()) {
            return;
        }
        BackendInfo info = manifest.backend().orElseThrow();
        Map<String, Object> server = new LinkedHashMap<>(info.server() == null ? Map.of() : info.server());
        server.putAll(atEnd);
        manifest.backend(info.withServer(server));
    }

    /** Per phase, from its start to the last completion of its requests (0 where none completed). */
    private static double[] completionSeconds(PhaseTimes times, ArrivalRecorder arrivals) {
        double[] seconds = new double[times.phases()];
        for (int i = 0; i < seconds.length; i++) {
            long last = arrivals.lastCompleted(i);
            seconds[i] = last == Long.MIN_VALUE ? 0 : Math.max(0, last - times.start(i)) / 1e9;
        }
        return seconds;
    }

    private long startOffset(RunClock clock, long anchorEpoch, ClockOffset clockAtStart, Instant startAt) {
        if (startAt == null) {
            return clock.now() + 10_000_000; // threads are started within this margin
        }
        // with a clock reference, the start is the reference's instant: every node starts together
        long offset = clockAtStart == null ? 0 : clockAtStart.offsetNanos();
        long at = startAt.getEpochSecond() * 1_000_000_000L + startAt.getNano() - anchorEpoch - offset;
        long now = clock.now();
        if (at < now) {
            throw new IllegalArgumentException((config.startWhenReady() ? "the start the clock reference named, " + startAt + ","
                    : "--start-at " + startAt) + " is " + seconds(now - at)
                    + " in the past" + (clockAtStart == null ? "" : " on the reference's clock (this node's clock is "
                    + (Math.abs(offset) < 100_000_000 ? "within 0.1 s of it: the node started too late"
                    + (config.startWhenReady() ? ", after the reference stopped waiting for it" : "")
                    : seconds(Math.abs(offset)) + (offset < 0 ? " ahead of" : " behind") + " it") + ")"));
        }
        return at;
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
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
