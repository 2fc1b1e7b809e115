package io.queuelab.core.run;

import io.queuelab.core.backend.Backend;
import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogWriter;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * The only writer of a run's request log. Workers and callbacks hand finished requests to
 * {@link #submit(Request)}; the logger thread classifies failures (off the hot path), writes the
 * records, feeds the live metrics, and flushes a chunk at least every {@value #FLUSH_MILLIS} ms, so
 * a crash loses at most that much of the log's tail. Error messages go to {@code errors.tsv}: the
 * first {@value #MAX_MESSAGES} in full, after that only their counts per class.
 */
final class RequestLogger implements AutoCloseable {
    static final long FLUSH_MILLIS = 200;
    static final int MAX_MESSAGES = 1000;
    private static final int BATCH = 4096;
    /**
     * How long the idle logger sleeps, at the least and at the most. Every wake-up costs CPU that,
     * on a machine shared with the server, the server does not get (at 0.5 ms this thread alone
     * cost ~50 us per request at 200 requests/s; at a fixed 20 ms still ~15 us). The nap adapts to
     * the rate of records it finds: long enough to find about {@value #RECORDS_PER_NAP} records,
     * within these bounds, so a slow run wakes the logger {@code 1e9 / MAX_NAP_NANOS} times a
     * second and a fast one never lets the hand-off queue ({@value #QUEUE_CAPACITY} requests) fill
     * below ~3 million records/s. A submit that still finds the queue full (a jump from a slow
     * phase to a very fast one) wakes the logger at once rather than waiting for its nap.
     */
    private static final long MIN_NAP_NANOS = 20_000_000;
    private static final long MAX_NAP_NANOS = FLUSH_MILLIS * 1_000_000L;
    private static final int RECORDS_PER_NAP = 8192;
    private static final int QUEUE_CAPACITY = 1 << 16;

    private final RequestLogWriter writer;
    private final BufferedWriter errors;
    private final Backend backend;
    private final LiveMetrics metrics;
    private final int node;
    private final BlockingQueue<Request> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final Thread thread;
    private final Map<String, Integer> errorCodes = new HashMap<>();
    private final Map<Integer, String> outcomeNames = new HashMap<>();
    private final java.util.function.Consumer<Throwable> onWriteFailure;
    private final Map<String, Long> errorCounts = new LinkedHashMap<>();
    private final long[] completedPerPhase;
    private final ArrivalRecorder arrivals;
    private long ok, failed, dropped, unfinished, messages;
    private volatile boolean closing;
    private volatile Throwable writeFailure;
    private Request lastAccounted;
    private ClientStalls stalls;
    private List<ClientStalls.Stall> knownStalls = List.of();

    RequestLogger(Path log, Path errorsFile, long anchorEpochNanos, Backend backend, LiveMetrics metrics, int node,
                  int phases, ArrivalRecorder arrivals, java.util.function.Consumer<Throwable> onWriteFailure)
            throws IOException {
        this(RequestLogWriter.create(log, anchorEpochNanos), errorsFile, backend, metrics, node, phases, arrivals,
                onWriteFailure);
    }

    /**
     * @param onWriteFailure told once when the log cannot be written (a full disk); the logger then
     *                       keeps counting what is submitted, without writing it
     */
    RequestLogger(RequestLogWriter writer, Path errorsFile, Backend backend, LiveMetrics metrics, int node,
                  int phases, ArrivalRecorder arrivals, java.util.function.Consumer<Throwable> onWriteFailure)
            throws IOException {
        this.onWriteFailure = onWriteFailure;
        this.completedPerPhase = new long[phases];
        this.arrivals = arrivals;
        this.writer = writer;
        this.errors = Files.newBufferedWriter(errorsFile, StandardCharsets.UTF_8);
        this.errors.write("intended_ns\tworker\toperation\tclass\tmessage\n");
        this.backend = backend;
        this.metrics = metrics;
        this.node = node;
        List<String> names = backend.operations().names();
        for (int i = 0; i < names.size(); i++) {
            writer.defineOperation(i, names.get(i));
        }
        writer.flush();
        this.thread = new Thread(this::loop, "queuelab-logger");
        thread.setDaemon(true);
        thread.start();
    }

    /** Requests that overlap a stall the watch saw are flagged and counted against it. */
    void watch(ClientStalls stalls) {
        this.stalls = stalls;
    }

    /** Hands a finished request (claimed by the caller) to the logger; never drops it. */
    void submit(Request r) {
        if (queue.offer(r)) {
            return;
        }
        LockSupport.unpark(thread); // full: the logger is napping through a jump in the rate
        boolean interrupted = false;
        while (true) {
            try {
                queue.put(r);
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void loop() {
        List<Request> batch = new ArrayList<>(BATCH);
        long lastFlush = System.nanoTime();
        long napStart = lastFlush;
        long found = 0; // records drained since the last nap began
        try {
            while (true) {
                // drain and nap rather than block per request: a submit then never has to wake
                // this thread, which would cost a system call per request
                int n = queue.drainTo(batch, BATCH);
                if (n > 0) {
                    learnStalls();
                    for (Request r : batch) {
                        write(r);
                    }
                    metrics.publish();
                    batch.clear();
                    found += n;
                } else if (closing) {
                    if (queue.isEmpty()) {
                        break;
                    }
                } else {
                    long start = System.nanoTime();
                    LockSupport.parkNanos(napNanos(found, start - napStart));
                    napStart = start;
                    found = 0;
                }
                long now = System.nanoTime();
                if (now - lastFlush >= FLUSH_MILLIS * 1_000_000L) {
                    writer.flush();
                    errors.flush();
                    lastFlush = now;
                }
            }
        } catch (Throwable t) {
            writeFailure = t;
            onWriteFailure.accept(t);
            // the rest of the batch, from the first request not yet counted
            int from = batch.indexOf(lastAccounted) + 1;
            batch.subList(from, batch.size()).forEach(this::account);
            metrics.publish();
            discardRest();
        }
    }

    /** The next nap: long enough to find about {@value #RECORDS_PER_NAP} records at the rate just seen. */
    static long napNanos(long records, long overNanos) {
        if (records <= 0) {
            return MAX_NAP_NANOS;
        }
        double nanos = (double) overNanos * RECORDS_PER_NAP / records;
        return (long) Math.max(MIN_NAP_NANOS, Math.min(MAX_NAP_NANOS, nanos));
    }

    /**
     * After the log failed (a full disk): keeps taking and counting what is submitted, so that no
     * worker blocks on a full hand-off queue and the totals still count every request.
     */
    private void discardRest() {
        List<Request> batch = new ArrayList<>(BATCH);
        while (true) {
            if (queue.drainTo(batch, BATCH) > 0) {
                learnStalls();
                batch.forEach(this::account);
                metrics.publish();
                batch.clear();
            } else if (closing) {
                if (queue.isEmpty()) {
                    return;
                }
            } else {
                LockSupport.parkNanos(MIN_NAP_NANOS);
            }
        }
    }

    // before a batch: the stalls recorded so far, waiting up to 1 s for one the heartbeat is about
    // to record (ClientStalls.known), so that this batch's requests that overlap it are flagged
    private void learnStalls() {
        ClientStalls s = stalls;
        if (s != null) {
            knownStalls = s.known();
        }
    }

    private void write(Request r) throws IOException {
        int outcome = account(r);
        if (r.failure != null && messages <= MAX_MESSAGES) {
            errors.write(r.intended + "\t" + r.worker + "\t" + r.operation + "\t" + outcomeNames.get(outcome) + "\t"
                    + oneLine(r.failure) + "\n");
        }
        writer.append(r.intended, r.dequeued, r.sent, r.completed, node, r.worker, r.operation, outcome, r.phase, r.flags);
    }

    /** Classifies and counts one request, feeds the live metrics and the self-check; returns its outcome code. */
    private int account(Request r) {
        int outcome = r.outcome;
        if (r.failure != null) {
            String errorClass = safeClassify(r.failure);
            outcome = outcomeCode(errorClass);
            failed++;
            messages++;
            errorCounts.merge(errorClass, 1L, Long::sum);
        } else if (outcome == LogFormat.OK) {
            ok++;
        } else if (outcome == LogFormat.DROPPED) {
            dropped++;
        } else {
            unfinished++;
        }
        if (r.completed != LogFormat.NONE) {
            completedPerPhase[r.phase]++;
        }
        if (!knownStalls.isEmpty()) {
            long end = r.completed != LogFormat.NONE ? r.completed : r.sent != LogFormat.NONE ? r.sent : r.intended;
            if (ClientStalls.touches(knownStalls, r.intended, Math.max(end, r.intended + 1))) {
                r.flags |= LogFormat.FLAG_CLIENT_STALL;
            }
        }
        metrics.logged(r, outcome);
        arrivals.logged(r, outcome);
        lastAccounted = r;
        return outcome;
    }

    private String safeClassify(Throwable t) {
        try {
            String c = backend.classify(t);
            return c == null || c.isBlank() ? "error" : c.trim().replaceAll("\\s+", "_");
        } catch (RuntimeException e) {
            return "error";
        }
    }

    private int outcomeCode(String errorClass) {
        Integer code = errorCodes.get(errorClass);
        if (code == null) {
            int next = LogFormat.FIRST_ERROR + errorCodes.size();
            if (next > LogFormat.MAX_OUTCOME) {
                return outcomeCode("other_error");
            }
            if (writeFailure == null) {
                try {
                    writer.defineOutcome(next, errorClass);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
            errorCodes.put(errorClass, next);
            outcomeNames.put(next, errorClass);
            code = next;
        }
        return code;
    }

    static String oneLine(Throwable t) {
        String m = t.getMessage();
        String text = t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
        text = text.replaceAll("[\\t\\r\\n]+", " ");
        return text.length() > 300 ? text.substring(0, 300) : text;
    }

    /** Why the log could not be written (a full disk), or null: the log then ends before the totals do. */
    Throwable writeFailure() {
        return writeFailure;
    }

    /** Requests completed (ok or failed) per phase; valid after {@link #finish(long)}. */
    long[] completedPerPhase() {
        return completedPerPhase.clone();
    }

    /**
     * Writes everything submitted so far, closes the log, and returns the totals: the records
     * written, by outcome, beside {@code scheduled} as the caller counted it.
     */
    LogTotals finish(long scheduled) throws IOException {
        closing = true;
        LockSupport.unpark(thread); // not a nap's length later
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while closing the request log");
        }
        arrivals.finish();
        try {
            writer.close();
            errors.close();
        } catch (IOException e) {
            if (writeFailure == null) {
                writeFailure = e;
                onWriteFailure.accept(e);
            }
        }
        return new LogTotals(scheduled, ok, failed, dropped, unfinished, errorCounts);
    }

    @Override
    public void close() {
        try {
            if (!closing) {
                finish(0);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
