package io.queuelab.core.run;

import org.HdrHistogram.Histogram;

import java.util.concurrent.locks.LockSupport;

/**
 * The machine's timed wake-up lateness, measured on a thread of its own: it parks for
 * {@value #PARK_NANOS} ns again and again and records how late each wake-up was. Read while no run
 * goes on ({@link #idle}), it shares nothing with the generator, so it is an independent reading of
 * what the machine does to any timed thread, the run's dispatcher included: a generator that delays
 * its own sends does not move it, a machine that holds threads back does.
 */
final class WakeupProbe implements AutoCloseable {
    static final long PARK_NANOS = 200_000;
    private final Histogram lateness = new Histogram(1_000_000_000L, 2);
    private final Thread thread;
    private volatile boolean stop;

    WakeupProbe() {
        thread = new Thread(this::probe, "wakeup-probe");
        thread.setDaemon(true);
        thread.start();
    }

    private void probe() {
        while (!stop) {
            long target = System.nanoTime() + PARK_NANOS;
            LockSupport.parkNanos(PARK_NANOS);
            lateness.recordValue(Math.max(0, System.nanoTime() - target));
        }
    }

    /** Probes for {@code length} and stops. */
    static WakeupProbe idle(java.time.Duration length) throws InterruptedException {
        WakeupProbe probe = new WakeupProbe();
        Thread.sleep(length.toMillis());
        probe.close();
        return probe;
    }

    /** Stops the probe; its readings are then final. */
    @Override
    public void close() throws InterruptedException {
        stop = true;
        thread.join();
    }

    /** The p99 lateness in ns (call after {@link #close}). */
    long p99Nanos() {
        return lateness.getValueAtPercentile(99);
    }

    long wakeups() {
        return lateness.getTotalCount();
    }
}
