package io.queuelab.sim;

/**
 * When a replication stops admitting arrivals: at simulated instant {@code duration} (seconds) or
 * after {@code customers} arrivals, whichever comes first. Admitted requests are served to the end.
 */
record Stop(double duration, long customers) {
}
