package io.queuelab.core.run;

import io.queuelab.core.schedule.LoadPlan;

import io.queuelab.core.manifest.Placement;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * Everything a run needs besides its backend.
 *
 * @param plan           the phases (open or closed loop); rates are this node's own
 * @param workers        synchronous worker threads (open loop; a closed run uses one per job)
 * @param queueBound     capacity of the request queue; a request that finds it full is logged as dropped
 * @param inFlightBound  most requests in flight at once on an asynchronous backend
 * @param seed           the node's seed (see {@link #nodeSeed(long, int)})
 * @param nodeIndex      this node's index, 0-based, written in every record
 * @param nodeCount      the number of nodes running the same plan
 * @param startAt        a wall-clock instant at which the schedule starts on every node; null for "now"
 *                       (or for the instant the clock reference names, with {@code startWhenReady})
 * @param reportInterval progress line interval; zero for none
 * @param drainTimeout   how long requests may still complete after the last phase ends
 * @param outputDir      the run directory to create (must not exist)
 * @param clockReference a {@link io.queuelab.core.clock.ClockReferenceServer} the run measures its
 *                       clock against at its start and end, for merging the logs of several nodes;
 *                       {@code startAt} is then an instant of the reference's clock. Null for none.
 * @param placement      where the server runs and how the machine was split between it and the
 *                       generator, as established by whoever started the server; the run fills in the
 *                       generator's own CPUs (read from the kernel at its start). Null: nothing is
 *                       known of the server, the run records the generator's CPUs alone.
 * @param startWhenReady the schedule starts at the instant the clock reference names once every one
 *                       of the {@code nodeCount} nodes is ready ({@link io.queuelab.core.clock.StartBarrier});
 *                       needs {@code clockReference} and no {@code startAt}
 */
public record RunConfig(LoadPlan plan, int workers, int queueBound, int inFlightBound, long seed,
                        int nodeIndex, int nodeCount, Instant startAt, Duration reportInterval,
                        Duration drainTimeout, Path outputDir, InetSocketAddress clockReference, Placement placement,
                        boolean startWhenReady) {

    /** A run that starts at {@code startAt} (or now). */
    public RunConfig(LoadPlan plan, int workers, int queueBound, int inFlightBound, long seed,
                     int nodeIndex, int nodeCount, Instant startAt, Duration reportInterval,
                     Duration drainTimeout, Path outputDir, InetSocketAddress clockReference, Placement placement) {
        this(plan, workers, queueBound, inFlightBound, seed, nodeIndex, nodeCount, startAt, reportInterval,
                drainTimeout, outputDir, clockReference, placement, false);
    }

    /** A run whose placement is not known beyond the generator's own CPUs. */
    public RunConfig(LoadPlan plan, int workers, int queueBound, int inFlightBound, long seed,
                     int nodeIndex, int nodeCount, Instant startAt, Duration reportInterval,
                     Duration drainTimeout, Path outputDir, InetSocketAddress clockReference) {
        this(plan, workers, queueBound, inFlightBound, seed, nodeIndex, nodeCount, startAt, reportInterval,
                drainTimeout, outputDir, clockReference, null);
    }

    /** A run with no clock reference. */
    public RunConfig(LoadPlan plan, int workers, int queueBound, int inFlightBound, long seed,
                     int nodeIndex, int nodeCount, Instant startAt, Duration reportInterval,
                     Duration drainTimeout, Path outputDir) {
        this(plan, workers, queueBound, inFlightBound, seed, nodeIndex, nodeCount, startAt, reportInterval,
                drainTimeout, outputDir, null, null);
    }

    /** This configuration with another placement. */
    public RunConfig withPlacement(Placement where) {
        return new RunConfig(plan, workers, queueBound, inFlightBound, seed, nodeIndex, nodeCount, startAt, reportInterval,
                drainTimeout, outputDir, clockReference, where, startWhenReady);
    }

    public RunConfig {
        if (workers < 1 || workers > Short.MAX_VALUE) {
            throw new IllegalArgumentException("workers must be between 1 and 32767, got " + workers);
        }
        if (queueBound < 1) {
            throw new IllegalArgumentException("queue bound must be positive, got " + queueBound);
        }
        if (inFlightBound < 1) {
            throw new IllegalArgumentException("in-flight bound must be positive, got " + inFlightBound);
        }
        if (nodeCount < 1 || nodeIndex < 0 || nodeIndex >= nodeCount || nodeCount > Short.MAX_VALUE) {
            throw new IllegalArgumentException("node index must be in [0, node count), got " + nodeIndex + " of " + nodeCount);
        }
        if (plan.closedLoop() && plan.maxConcurrency() > Short.MAX_VALUE) {
            throw new IllegalArgumentException("concurrency must be at most 32767");
        }
        if (startWhenReady && (clockReference == null || startAt != null)) {
            throw new IllegalArgumentException("a start when every node is ready needs a clock reference and no start instant");
        }
        if (reportInterval == null || reportInterval.isNegative()) {
            throw new IllegalArgumentException("report interval must be zero or positive");
        }
        if (drainTimeout == null || drainTimeout.isNegative()) {
            throw new IllegalArgumentException("drain timeout must be zero or positive");
        }
    }

    /**
     * The seed of node {@code index} derived from a base seed (a SplitMix64 finaliser, so nearby
     * indices get unrelated streams and node 0 of 1 is not simply the base seed reused elsewhere).
     */
    public static long nodeSeed(long baseSeed, int index) {
        long z = baseSeed + (index + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
