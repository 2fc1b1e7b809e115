package io.queuelab.core.run;

import io.queuelab.core.backend.AsyncSession;
import io.queuelab.core.backend.SyncSession;
import io.queuelab.core.log.LogFormat;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A dispatched request's path to the log: its execution on a synchronous session (by the worker
 * holding it) or an asynchronous one (completed by the driver's callback), and the one record it
 * leaves.
 *
 * <p>Guarantees: every request handed to this pipeline is logged exactly once, as completed, failed,
 * dropped or unfinished: whoever wins the request's claim logs it, so a completion racing a hard
 * stop cannot log it twice; after {@link #hardStop()}, every request a worker held or that was in
 * flight has been logged as unfinished and nothing more is sent. Timestamps are the run clock's.
 */
final class RequestPipeline {
    private final RunClock clock;
    private final RequestLogger logger;
    private final AtomicReferenceArray<Request> held;
    private final AtomicInteger syncBusy = new AtomicInteger();
    private final Set<Request> asyncInFlight = ConcurrentHashMap.newKeySet();
    private volatile boolean hardStop;

    /** @param workers synchronous workers (0 for an asynchronous backend) */
    RequestPipeline(RunClock clock, RequestLogger logger, int workers) {
        this.clock = clock;
        this.logger = logger;
        this.held = new AtomicReferenceArray<>(workers);
    }

    RunClock clock() {
        return clock;
    }

    boolean stopped() {
        return hardStop;
    }

    /**
     * Executes {@code r} on the calling worker's session and logs it; returns the clock reading at
     * its completion (or, when a hard stop left it unsent, a fresh one).
     */
    long executeSync(int worker, SyncSession session, Request r) {
        held.set(worker, r);
        r.worker = worker;
        if (hardStop) {
            unfinished(r);
            held.set(worker, null);
            return clock.now();
        }
        syncBusy.incrementAndGet();
        Throwable failure = null;
        r.sent = clock.now();
        try {
            session.execute(r.operation);
        } catch (Throwable t) {
            failure = t;
        }
        long done = clock.now();
        syncBusy.decrementAndGet();
        held.set(worker, null);
        complete(r, done, failure);
        return done;
    }

    /** Sends {@code r} on the asynchronous session; {@code onDone} runs after its completion is logged. */
    void sendAsync(AsyncSession session, Request r, Runnable onDone) {
        asyncInFlight.add(r);
        if (hardStop) {
            asyncInFlight.remove(r);
            unfinished(r);
            onDone.run();
            return;
        }
        r.sent = clock.now();
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
                long done = clock.now();
                asyncInFlight.remove(r);
                complete(r, done, failure);
                onDone.run();
            }
        };
        try {
            session.execute(r.operation, completion);
        } catch (Throwable t) {
            completion.failed(t);
        }
    }

    int syncBusy() {
        return syncBusy.get();
    }

    void complete(Request r, long done, Throwable failure) {
        if (r.claim()) {
            r.completed = done;
            r.failure = failure;
            logger.submit(r);
        }
    }

    void dropped(Request r) {
        r.outcome = LogFormat.DROPPED;
        if (r.claim()) {
            logger.submit(r);
        }
    }

    void unfinished(Request r) {
        if (r.claim()) {
            r.outcome = LogFormat.UNFINISHED;
            logger.submit(r);
        }
    }

    /** Sends nothing more, and logs every held or in-flight request that has not completed as unfinished. */
    void hardStop() {
        hardStop = true;
        for (int w = 0; w < held.length(); w++) {
            Request r = held.get(w);
            if (r != null) {
                unfinished(r);
            }
        }
        for (Request r : asyncInFlight) {
            unfinished(r);
        }
    }
}
