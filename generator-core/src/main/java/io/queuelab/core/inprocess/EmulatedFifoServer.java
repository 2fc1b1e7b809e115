package io.queuelab.core.inprocess;

import java.util.SplittableRandom;

/**
 * A single FIFO server on a virtual timeline: a request arriving at instant t departs at
 * max(t, previous departure) + S with S ~ Exp(mu). Departures are computed exactly, so a late
 * wake-up of the thread that waits for one never delays the next: the queueing is the theory's.
 * Thread-safe.
 */
public final class EmulatedFifoServer {
    private final double meanServiceNanos;
    private final SplittableRandom random;
    private long lastDeparture = Long.MIN_VALUE;

    /** @param mu service rate per second */
    public EmulatedFifoServer(double mu, long seed) {
        if (!(mu > 0) || Double.isInfinite(mu)) {
            throw new IllegalArgumentException("service rate mu must be a positive number, got " + mu);
        }
        this.meanServiceNanos = 1e9 / mu;
        this.random = new SplittableRandom(seed);
    }

    /** The departure instant (System.nanoTime scale) of a request arriving now. */
    public synchronized long arrive(long nowNanos) {
        long service = (long) (-Math.log(1.0 - random.nextDouble()) * meanServiceNanos);
        long begin = lastDeparture == Long.MIN_VALUE ? nowNanos : Math.max(nowNanos, lastDeparture);
        lastDeparture = begin + service;
        return lastDeparture;
    }
}
