package io.queuelab.sim;

import java.util.SplittableRandom;

/**
 * One replication of a configured simulation: the model's engine serving the arrival process until
 * the stop rule, each request reaching the server {@code latency} seconds after its arrival,
 * summarized by {@link ReplicationStatistics}.
 *
 * <p>Guarantee: the sample path depends only on the replication's seed (every part of the model
 * draws from its own stream of {@code new SplittableRandom(seed)}, see {@link Streams}), so running
 * the same index and seed again, e.g. to log it once its warm-up cut is known, reproduces it exactly.
 */
record Replication(Engine engine, ArrivalProcess arrivalProcess, Stop stop, boolean removeWarmup, double confidence, double measureFrom,
                   double latency) {

    /** Runs replication {@code index} from {@code seed}, keeping only its statistics. */
    ReplicationResult run(int index, long seed) {
        return run(index, seed, new ReplicationStatistics(measureFrom));
    }

    /** Runs replication {@code index} from {@code seed} into {@code statistics} (which may log every request). */
    ReplicationResult run(int index, long seed, ReplicationStatistics statistics) {
        Streams streams = Streams.of(new SplittableRandom(seed));
        if (engine.flushes()) {
            statistics.expectFlushes();
        }
        statistics.latency(latency);
        engine.run(ArrivalSource.of(arrivalProcess, stop, streams, latency), streams, statistics);
        // an open or closed run observes until its duration; a trace until its last departure
        double windowEnd = arrivalProcess instanceof ArrivalProcess.Trace || stop.duration() == Double.POSITIVE_INFINITY
                ? 0 : stop.duration();
        return statistics.finish(index, removeWarmup, confidence, windowEnd);
    }
}
