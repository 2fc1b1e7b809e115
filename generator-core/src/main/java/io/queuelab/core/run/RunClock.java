package io.queuelab.core.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * The run's monotonic clock (ns after its anchor) and the one way a pipeline thread waits for an
 * instant of the schedule.
 *
 * <p>Guarantee of {@link #awaitInstant}: it never returns before the instant, and it burns no CPU
 * while the instant is more than the spin window away: it parks, with the calling thread's timer
 * slack lowered to 1 ns where Linux allows it (the default slack of 50 us would add up to 50 us to
 * every timed wake-up), and spins only for the last {@code spinNanos}. Lateness is then the
 * machine's timer wake-up (tens of microseconds on a VM), or the spin's microsecond where a
 * caller spins.
 */
final class RunClock {
    private final long anchorNano;

    RunClock(long anchorNano) {
        this.anchorNano = anchorNano;
    }

    long now() {
        return System.nanoTime() - anchorNano;
    }

    /**
     * Waits until {@code instant}; parks until {@code spinNanos} before it, then spins. Returns
     * early, with false, when {@code interrupt} becomes true (checked at every wake-up).
     */
    boolean awaitInstant(long instant, long spinNanos, java.util.function.BooleanSupplier interrupt) {
        long left;
        while ((left = instant - now()) > 0) {
            if (interrupt != null && interrupt.getAsBoolean()) {
                return false;
            }
            if (left > spinNanos) {
                LockSupport.parkNanos(left - spinNanos);
            } else {
                Thread.onSpinWait();
            }
        }
        return true;
    }

    /** As {@link #awaitInstant(long, long, java.util.function.BooleanSupplier)}, never interrupted. */
    void awaitInstant(long instant, long spinNanos) {
        awaitInstant(instant, spinNanos, null);
    }

    /**
     * Lowers the calling thread's timer slack to 1 ns (Linux {@code /proc/TID/timerslack_ns}, which a
     * thread may set for itself without privileges). True when it took effect.
     */
    static boolean preciseTimers() {
        try {
            Path self = Files.readSymbolicLink(Path.of("/proc/thread-self"));
            Path slack = Path.of("/proc", self.getFileName().toString(), "timerslack_ns");
            Files.writeString(slack, "1");
            return "1".equals(Files.readString(slack).trim());
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false; // not Linux, or an old kernel: timed waits keep the default slack
        }
    }
}
