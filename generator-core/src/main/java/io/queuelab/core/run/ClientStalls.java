package io.queuelab.core.run;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Stalls of the client process itself: intervals in which the process did not run at all (stopped
 * by SIGSTOP or a debugger, a paused VM, a long safepoint). Arrivals that came meanwhile wait in
 * the queue as behind a busy server, and their response time grows by the stall, so without this
 * a stall of queuelab looks like a slow server.
 *
 * <p>A heartbeat thread wakes every {@value #BEAT_NANOS} ns; a gap of more than
 * {@value #STALL_NANOS} ns between two beats in which the process used less than a tenth of one
 * core's time is a stall, from the last beat before it to the first after it (so its start and
 * length are known to within a beat). The CPU condition tells a stopped process from a heartbeat
 * thread that merely waited for a core while the others ran (58-60 ms gaps seen with 16 workers
 * draining a backlog on a 2-core machine shared with other builds). The logger beats too before each
 * batch, so a stall is known before any request completed after it is logged, whichever thread
 * ran first after it. Guarantee: a request whose interval (intended to completed) overlaps a stall
 * is counted against it once and is {@linkplain #touches reported} to the logger, which flags it.
 */
final class ClientStalls implements AutoCloseable {
    static final long BEAT_NANOS = 5_000_000;
    /**
     * A gap this long is not the scheduler's: a runnable thread on a busy 2-core machine waits for
     * a few slices (1.4 ms each, docs/benchmarks.md), not for 50 ms.
     */
    static final long STALL_NANOS = 50_000_000;

    /** One stall, on the run clock; {@code touched} is counted by the logger thread alone. */
    static final class Stall {
        final long start;
        final long end;
        long touched;

        Stall(long start, long end) {
            this.start = start;
            this.end = end;
        }
    }

    private final RunClock clock;
    private final List<Stall> stalls = new ArrayList<>();
    private final Thread heartbeat;
    private long lastBeat;
    private long lastCpu;
    private volatile boolean closed;

    ClientStalls(RunClock clock) {
        this.clock = clock;
        this.lastBeat = clock.now();
        this.lastCpu = ClientCost.processCpuNanos();
        this.heartbeat = new Thread(() -> {
            while (!closed) {
                LockSupport.parkNanos(BEAT_NANOS);
                beat();
            }
        }, "queuelab-stall-watch");
        heartbeat.setDaemon(true);
        heartbeat.start();
    }

    /** Notes that the process runs now; returns the stalls seen so far (a copy of the list). */
    synchronized List<Stall> beat() {
        long now = clock.now();
        long cpu = ClientCost.processCpuNanos();
        if (now - lastBeat > STALL_NANOS && (cpu - lastCpu) * 10 < now - lastBeat) {
            stalls.add(new Stall(lastBeat, now));
        }
        lastBeat = now;
        lastCpu = cpu;
        return List.copyOf(stalls);
    }

    /**
     * Whether the interval overlaps one of {@code known} (as {@link #beat} returned them); counts
     * the request against the first such stall. Called by the logger thread alone.
     */
    static boolean touches(List<Stall> known, long from, long to) {
        for (Stall s : known) {
            if (from < s.end && to > s.start) {
                s.touched++;
                return true;
            }
        }
        return false;
    }

    /** Stops the heartbeat and returns every stall, with the requests counted against it. */
    List<Stall> finish() {
        close();
        synchronized (this) {
            return List.copyOf(stalls);
        }
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(heartbeat);
    }
}
