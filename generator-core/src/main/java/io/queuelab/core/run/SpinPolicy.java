package io.queuelab.core.run;

/**
 * When a pipeline thread spins instead of parking, by the phase's rate. Spinning steals CPU from a
 * server that shares the machine, so it is used only where it pays: when the next request is
 * microseconds away, a park and unpark per request would cost more than the request itself and
 * the generator could not keep up. Below {@value #SPIN_ABOVE_RATE} requests/s every wait parks
 * (with 1 ns timer slack, see {@link RunClock}).
 *
 * @param waitSpinNanos      how long before an arrival's instant the thread waiting for it (the
 *                           schedule's, or a worker given the arrival ahead) stops parking
 * @param idleSpinNanos      how long an idle worker spins for its next request before parking
 * @param leadNanos          how far ahead of its instant an arrival is given to an idle worker,
 *                           which then waits for the instant itself: more than the schedule
 *                           thread's own wake-up and the worker's wake-up together
 */
record SpinPolicy(long waitSpinNanos, long idleSpinNanos, long leadNanos) {
    static final double SPIN_ABOVE_RATE = 20_000;
    static final long LEAD_NANOS = 1_000_000;

    static SpinPolicy forRate(double rate) {
        if (rate >= SPIN_ABOVE_RATE) {
            return new SpinPolicy(100_000, 20_000, LEAD_NANOS);
        }
        return new SpinPolicy(0, 0, LEAD_NANOS);
    }
}
