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

    private SpinPolicy() {
    }

    static long spinNanos(double rate) {
        return rate >= SPIN_ABOVE_RATE ? SPIN_NANOS : 0;
    }
}
