package io.queuelab.cassandra;

import io.queuelab.core.backend.AsyncBackend;
import io.queuelab.core.backend.AsyncSession;
import io.queuelab.core.backend.OperationMix;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * A minimal closed-loop driver for tests of the backend alone (the real pipeline lives in
 * generator-core): issues requests with at most {@code inFlight} outstanding and records each
 * request's completions, failures and their error classes.
 */
final class RecordingDriver {
    private static final int MAX_REQUESTS = 1_000_000;

    private final AsyncBackend backend;
    private final AsyncSession session;
    private final OperationMix mix;
    private final SplittableRandom random;
    private final Semaphore slots;
    private final int inFlight;
    private final AtomicIntegerArray completions = new AtomicIntegerArray(MAX_REQUESTS);
    private final int[] operations = new int[MAX_REQUESTS];
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final Map<Integer, String> failureOf = new ConcurrentHashMap<>();
    private int issued;

    RecordingDriver(AsyncBackend backend, int inFlight, long seed) throws Exception {
        this.backend = backend;
        this.session = backend.openSession(seed);
        this.mix = backend.operations();
        this.random = new SplittableRandom(seed);
        this.inFlight = inFlight;
        this.slots = new Semaphore(inFlight);
    }

    static RecordingDriver run(AsyncBackend backend, int requests, int inFlight, long seed) throws Exception {
        RecordingDriver driver = new RecordingDriver(backend, inFlight, seed);
        driver.issue(requests);
        driver.awaitAll();
        return driver;
    }

    /** Issues {@code count} more requests; returns when the last is issued. */
    void issue(int count) throws InterruptedException {
        for (int i = 0; i < count; i++) {
            slots.acquire();
            int id = issued++;
            int operation = mix.pick(random.nextDouble());
            operations[id] = operation;
            session.execute(operation, new AsyncSession.Completion() {
                @Override
                public void succeeded() {
                    completions.incrementAndGet(id);
                    slots.release();
                }

                @Override
                public void failed(Throwable failure) {
                    String errorClass = backend.classify(failure);
                    failures.add(errorClass + ": " + failure);
                    failureOf.put(id, errorClass);
                    completions.incrementAndGet(id);
                    slots.release();
                }
            });
        }
    }

    void awaitAll() throws InterruptedException {
        if (!slots.tryAcquire(inFlight, 120, TimeUnit.SECONDS)) {
            throw new AssertionError("requests still in flight after 120 s");
        }
        slots.release(inFlight);
    }

    /** Requests completed exactly once (a request completed twice is not counted). */
    int completed() {
        int once = 0;
        for (int i = 0; i < issued; i++) {
            int c = completions.get(i);
            if (c > 1) {
                throw new AssertionError("request " + i + " completed " + c + " times");
            }
            once += c;
        }
        return once;
    }

    int issued() {
        return issued;
    }

    List<String> failures() {
        return failures;
    }

    /** The error class of each failed request, by request number. */
    Map<Integer, String> failureClasses() {
        return failureOf;
    }

    int countOf(int operation) {
        int n = 0;
        for (int i = 0; i < issued; i++) {
            n += operations[i] == operation ? 1 : 0;
        }
        return n;
    }
}
