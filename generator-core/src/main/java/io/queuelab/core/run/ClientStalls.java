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
 * {@value #STALL_NANOS} ns between two beats during which the heartbeat did not wait in the
 * kernel's run queue for most of the gap is a stall, from the last beat before it to the first
 * after it (so its start and length are known to within a beat). The run-queue condition
 * ({@code /proc/thread-self/schedstat}) tells a stopped process or a long safepoint from a
 * heartbeat that was runnable but found no free core: 58-180 ms gaps of that kind were seen on a
 * 2-core machine shared with other builds (load 13), which are the machine's, not queuelab's.
 *
 * <p>Only the heartbeat records a stall, at its first beat after it. The logger does not beat:
 * before each batch it asks {@link #known}, which, when the last beat is more than
 * {@value #STALL_NANOS} ns old (the logger ran first after a stall), waits for the heartbeat's
 * next beat, but at most 1 s. Guarantee: a request is {@linkplain #touches counted} against the
 * first stall its interval (intended to completed) overlaps, at most once, and flagged, when that
 * stall was recorded before the batch the request is logged in started; when the heartbeat did not
 * beat within that 1 s (a machine too busy to run it), the requests of that batch that overlap
 * the stall are neither flagged nor counted, though the stall itself is recorded and
 * {@linkplain #finish returned} at the end.
 */
final class ClientStalls implements AutoCloseable {
    static final long BEAT_NANOS = 5_000_000;
    /**
     * A gap this long is not the scheduler's (a runnable thread on a busy 2-core machine waits for a
     * few 1.4 ms slices, and such waits are told apart anyway) and rarely a collection's: G1's young
     * pauses here are 5-80 ms on a loaded machine (an 83 ms one was counted at a 50 ms bound). A
     * shorter stall still shows, as the queue wait it causes, but is not named.
     */
    static final long STALL_NANOS = 200_000_000;

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
    /** The heartbeat's last beat on the run clock; written by the heartbeat thread alone. */
    private volatile long lastBeat;
    private volatile boolean closed;

    ClientStalls(RunClock clock) {
        this.clock = clock;
        this.lastBeat = clock.now();
        this.heartbeat = new Thread(this::beatUntilClosed, "queuelab-stall-watch");
        heartbeat.setDaemon(true);
        heartbeat.start();
    }

    private void beatUntilClosed() {
        long waited = RunQueueWait.ofThisThread();
        while (!closed) {
            LockSupport.parkNanos(BEAT_NANOS);
            long now = clock.now();
            long waitedNow = RunQueueWait.ofThisThread();
            long gap = now - lastBeat;
            // a thread that was runnable but found no free core waited in the run queue: the machine
            // was busy, not the process stopped (then nothing of it is runnable)
            if (gap > STALL_NANOS && (waited < 0 || waitedNow - waited < gap / 2)) {
                synchronized (this) {
                    stalls.add(new Stall(lastBeat, now));
                }
            }
            waited = waitedNow;
            lastBeat = now;
        }
    }

    /**
     * The stalls recorded so far (a copy of the list). Called by the logger before each batch: if the
     * heartbeat has not beaten for a stall's length, it is about to record one (this thread runs, so
     * the process does), so this waits for its next beat, but gives up after 1 s and returns what is
     * recorded then, without the stall the heartbeat has yet to record.
     */
    List<Stall> known() {
        long deadline = System.nanoTime() + 1_000_000_000L;
        while (!closed && clock.now() - lastBeat > STALL_NANOS && System.nanoTime() < deadline) {
            LockSupport.parkNanos(BEAT_NANOS / 5);
        }
        synchronized (this) {
            return List.copyOf(stalls);
        }
    }

    /**
     * Whether the interval overlaps one of {@code known} (as {@link #known} returned them); counts
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

    /** The time a thread spent runnable but waiting for a core, from Linux's schedstat; -1 where unknown. */
    static final class RunQueueWait {
        private static final java.nio.file.Path SELF = java.nio.file.Path.of("/proc/thread-self/schedstat");

        private RunQueueWait() {
        }

        static long ofThisThread() {
            try {
                String[] fields = java.nio.file.Files.readString(SELF).trim().split("\\s+");
                return Long.parseLong(fields[1]);
            } catch (java.io.IOException | RuntimeException e) {
                return -1;
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(heartbeat);
    }
}
