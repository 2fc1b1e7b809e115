package io.queuelab.core.run;

import java.util.concurrent.locks.LockSupport;

/**
 * The run's monotonic clock (ns after its anchor) and the one way a pipeline thread waits for an
 * instant of the schedule.
 *
 * <p>Guarantee of {@link #awaitInstant}: it never returns before the instant, and it burns no CPU
 * while the instant is more than the spin window away: it parks (its callers' threads have applied
 * {@link TimerPrecision}: 1 ns timer slack and a short scheduler slice where Linux allows them), and
 * spins only for the last {@code spinNanos}. Lateness is then the
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
     * Waits until {@code instant}; parks until {@code spinNanos} (or the thread's timer lead, see
     * {@link TimerLead}) before it, then spins. Returns early, with false, when {@code interrupt}
     * becomes true (checked at every wake-up).
     *
     * @param lead         the calling thread's own estimate of its timed wake-up lateness; null for none
     * @param tailCapNanos the longest the lead may reach for the tail of that lateness (its median is always used)
     */
    boolean awaitInstant(long instant, long spinNanos, java.util.function.BooleanSupplier interrupt, TimerLead lead,
                         long tailCapNanos) {
        long left;
        while ((left = instant - now()) > 0) {
            if (interrupt != null && interrupt.getAsBoolean()) {
                return false;
            }
            long early = lead == null ? spinNanos : Math.max(spinNanos, lead.nanos(tailCapNanos));
            if (left > early) {
                long target = instant - early;
                LockSupport.parkNanos(target - now());
                if (lead != null) {
                    lead.observe(now() - target);
                }
            } else {
                Thread.onSpinWait();
            }
        }
        return true;
    }

    /** As {@link #awaitInstant(long, long, java.util.function.BooleanSupplier, TimerLead, long)} without a lead. */
    boolean awaitInstant(long instant, long spinNanos, java.util.function.BooleanSupplier interrupt) {
        return awaitInstant(instant, spinNanos, interrupt, null, 0);
    }

    /**
     * How early a thread parks before an instant: running estimates of the median and of the p99
     * of its timed wake-ups' lateness (tens of microseconds at the median on a VM, where a timer
     * interrupt passes through the hypervisor, ~100-200 us at p99). Parking that much earlier and
     * spinning the remainder puts the wake-up on the instant; the median costs a few microseconds
     * of spinning per wait and is always used, the p99 up to a cap the caller sets by its rate
     * ({@link SpinPolicy#tailLeadCapNanos}), so that at low rates even the slow wake-ups reach the
     * instant (issue 28 item 11: at 200-500/s the hand-off's p99 was the timer's tail).
     *
     * <p>Each estimate moves by a quantile-tracking step per observation: up by u when a wake-up
     * was later than the estimate, down by d when not, which settles where P(later) = d / (u + d):
     * 1/2 for the median, 1/100 for the p99. The median stays within [0, {@value #MAX_NANOS}] ns,
     * the p99 within [0, {@value #MAX_TAIL_NANOS}] ns.
     *
     * <p>The workers of one run share one estimate (they wake on the same machine's timer), so it
     * learns from every wake-up rather than from one worker's share of them: with 16 workers at
     * 200 requests/s a lead of each worker's own took longer than a typical warm-up to converge.
     * Concurrent observations may overwrite each other; a lost step only slows the tracking.
     */
    static final class TimerLead {
        static final long MAX_NANOS = 100_000;
        static final long MAX_TAIL_NANOS = 1_000_000;
        private static final long STEP_NANOS = 500;
        /** The p99's step up; its step down is 1/99 of it. */
        private static final long TAIL_UP_NANOS = 4_950;
        private static final long TAIL_DOWN_NANOS = 50;
        private volatile long nanos;
        private volatile long tailNanos;

        void observe(long lateNanos) {
            if (lateNanos < 0) {
                return; // woken before the target (an unpark): says nothing about the timer
            }
            long median = nanos;
            nanos = Math.max(0, Math.min(MAX_NANOS, median + (lateNanos > median ? STEP_NANOS : -STEP_NANOS)));
            long tail = tailNanos;
            tailNanos = Math.max(0, Math.min(MAX_TAIL_NANOS, tail + (lateNanos > tail ? TAIL_UP_NANOS : -TAIL_DOWN_NANOS)));
        }

        /** The median lateness. */
        long nanos() {
            return nanos;
        }

        /** The p99 lateness. */
        long tailNanos() {
            return tailNanos;
        }

        /** How early to park: the median, or the p99 up to {@code tailCapNanos} where that is later. */
        long nanos(long tailCapNanos) {
            return Math.max(nanos, Math.min(tailNanos, tailCapNanos));
        }
    }
}
