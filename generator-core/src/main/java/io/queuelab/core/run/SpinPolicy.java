package io.queuelab.core.run;

/**
 * How long before an arrival's instant the thread waiting for it stops parking and spins, by the
 * phase's rate. Spinning steals CPU from a server that shares the machine, so it is used only
 * where it pays: when the next request is microseconds away, a park per request would cost more
 * than the request itself and the client could not keep up. Below {@value #SPIN_ABOVE_RATE}
 * requests/s every wait parks (with 1 ns timer slack, see {@link RunClock}).
 */
final class SpinPolicy {
    static final double SPIN_ABOVE_RATE = 20_000;
    static final long SPIN_NANOS = 100_000;
    /**
     * The share of one core that waking early for the timer's tail may spin away: a thread that
     * parks until the p99 of its timed wake-up lateness before each instant spins about that long
     * per arrival, so the lead is capped at this share over the rate (250 us at 200/s, 100 us at
     * 500/s, 25 us at 2,000/s, where the median lead alone already spins that much). At low rates
     * this puts the hand-off's p99 near the spin's microsecond instead of the VM's timer tail
     * (~150 us); a server sharing the client's cores loses at most this share of one.
     */
    static final double TAIL_SPIN_SHARE = 0.05;

    private SpinPolicy() {
    }

    static long spinNanos(double rate) {
        return rate >= SPIN_ABOVE_RATE ? SPIN_NANOS : 0;
    }

    /** The longest lead for the timer's tail at this rate (see {@link #TAIL_SPIN_SHARE}). */
    static long tailLeadCapNanos(double rate) {
        return rate <= 0 ? 0 : (long) Math.min(RunClock.TimerLead.MAX_TAIL_NANOS, TAIL_SPIN_SHARE * 1e9 / rate);
    }
}
