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
     * @param lead the calling thread's own estimate of its timed wake-up lateness; null for none
     */
    boolean awaitInstant(long instant, long spinNanos, java.util.function.BooleanSupplier interrupt, TimerLead lead) {
        return reach(instant, spinNanos, interrupt, lead) != NOT_REACHED;
    }

    /** What {@link #reach} returns when {@code interrupt} ended the wait. */
    static final long NOT_REACHED = Long.MIN_VALUE;

    /**
     * As {@link #awaitInstant(long, long, java.util.function.BooleanSupplier, TimerLead)}, returning the
     * clock reading that found the instant come (at or after it), or {@link #NOT_REACHED}. A caller
     * that stamps the moment it acted on the instant uses this reading: a second one would put the
     * time of the read itself (~30 ns on a VM's clock) into every stamp.
     */
    long reach(long instant, long spinNanos, java.util.function.BooleanSupplier interrupt, TimerLead lead) {
        long now;
        while ((now = now()) < instant) {
            if (interrupt != null && interrupt.getAsBoolean()) {
                return NOT_REACHED;
            }
            long early = lead == null ? spinNanos : Math.max(spinNanos, lead.nanos());
            if (instant - now > early) {
                long target = instant - early;
                LockSupport.parkNanos(target - now());
                if (lead != null) {
                    lead.observe(now() - target);
                }
            } else {
                Thread.onSpinWait();
            }
        }
        return now;
    }

    /** As {@link #awaitInstant(long, long, java.util.function.BooleanSupplier, TimerLead)} without a lead. */
    boolean awaitInstant(long instant, long spinNanos, java.util.function.BooleanSupplier interrupt) {
        return awaitInstant(instant, spinNanos, interrupt, null);
    }

    /**
     * How early a thread parks before an instant: a running estimate of the median lateness of
     * timed wake-ups (tens of microseconds on a VM, where a timer interrupt passes through the
     * hypervisor). Parking that much earlier and spinning the remainder puts the median wake-up on
     * the instant, at a cost of a few microseconds of spinning per wait; the estimate moves by a
     * quantile-tracking step per observation (up when a wake-up was later than the lead, down when
     * earlier) and stays within [0, {@value #MAX_NANOS}] ns.
     *
     * <p>The workers of one run share one estimate (they wake on the same machine's timer), so it
     * learns from every wake-up rather than from one worker's share of them: with 16 workers at
     * 200 requests/s a lead of each worker's own took longer than a typical warm-up to converge.
     * Concurrent observations may overwrite each other; a lost step only slows the tracking.
     */
    static final class TimerLead {
        static final long MAX_NANOS = 100_000;
        private static final long STEP_NANOS = 500;
        private volatile long nanos;

        void observe(long lateNanos) {
            if (lateNanos < 0) {
                return; // woken before the target (an unpark): says nothing about the timer
            }
            long now = nanos;
            nanos = Math.max(0, Math.min(MAX_NANOS, now + (lateNanos > now ? STEP_NANOS : -STEP_NANOS)));
        }

        long nanos() {
            return nanos;
        }
    }
}
