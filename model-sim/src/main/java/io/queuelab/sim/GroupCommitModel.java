package io.queuelab.sim;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The group-commit model of a write on a log-based store (InnoDB's redo log): Poisson (or closed)
 * arrivals wait in the client's FIFO queue for one of {@code connections} (K) connections; a request
 * holding one runs its {@code cpu} demand on {@code cores} (c) cores shared by those running (each
 * of n gets min(1, c/n) of a core), then waits for the log flush. One flush runs at a time; it
 * carries every commit waiting when it starts (at most {@code maxGroup}, 0 for no bound) and lasts
 * {@code flush} plus {@code perCommit} seconds for each commit it carries; when it ends, every
 * commit it carried is answered and frees its connection. A commit that arrives during a flush waits
 * for the next one, so the more requests come, the more share one flush (seed 004's UPDATE: 1.07
 * updates per fsync at 2.5k/s, 16.6 with 64 jobs), and a request alone pays its cpu and a whole flush.
 *
 * <p>Capacity: at most min(K, c) / E[cpu] requests a second (the cores), B / (E[flush] + B
 * perCommit) with B = K or the bound if lower (the log: a flush carries at most B commits), and
 * K / (E[cpu] + E[flush] + perCommit) (the connections: each is held at least for a request's cpu
 * and one whole flush). The least of the three is an upper bound of the capacity: under load a
 * commit also waits for the flush under way, which only the simulation gives.
 *
 * @param cpu         the cpu a request needs on one core, seconds
 * @param connections K, the client's connections
 * @param cores       c, the server's cores
 * @param flush       the duration of one flush apart from its commits (the fsync), seconds
 * @param perCommit   what each commit a flush carries adds to it (writing its log records), seconds, 0 or more
 * @param maxGroup    the most commits one flush carries, 0 for no bound but K
 */
public record GroupCommitModel(Distribution cpu, int connections, int cores, Distribution flush, double perCommit, int maxGroup)
        implements Model {
    public static final ModelKind KIND = new ModelKind("group-commit",
            "a client queue, K connections, c cores, then one log flush at a time carrying every waiting commit",
            List.of("service", "connections", "cores", "flush"), List.of("perCommitSeconds", "maxGroup"),
            in -> new GroupCommitModel(in.distribution("service").orElseThrow(), in.count("connections").orElseThrow(),
                    in.count("cores").orElseThrow(), in.distribution("flush").orElseThrow(), in.number("perCommitSeconds").orElse(0.0),
                    in.count("maxGroup").orElse(0)));

    public GroupCommitModel {
        java.util.Objects.requireNonNull(cpu, "cpu");
        java.util.Objects.requireNonNull(flush, "flush");
        if (connections < 1 || connections > ClientLimitedModel.MAX_CONNECTIONS) {
            throw new IllegalArgumentException("connections must be between 1 and " + ClientLimitedModel.MAX_CONNECTIONS + ", got " + connections);
        }
        if (cores < 1) {
            throw new IllegalArgumentException("server cores must be at least 1, got " + cores);
        }
        if (!(perCommit >= 0) || Double.isInfinite(perCommit)) {
            throw new IllegalArgumentException("the time a commit adds to its flush must be a finite number of seconds, 0 or more, got " + perCommit);
        }
        if (maxGroup < 0) {
            throw new IllegalArgumentException("the most commits a flush carries must be 0 (no bound) or more, got " + maxGroup);
        }
    }

    /** The most commits one flush can carry: K, or the bound if it is lower. */
    public int largestGroup() {
        return maxGroup > 0 ? Math.min(maxGroup, connections) : connections;
    }

    /** The log's capacity, commits a second: B / (E[flush] + B perCommit) with B the largest group. */
    public double logCapacity() {
        int b = largestGroup();
        return b / (flush.mean() + b * perCommit);
    }

    /** The connections' bound, requests a second: K / (E[cpu] + E[flush] + perCommit). */
    public double connectionCapacity() {
        return connections / (cpu.mean() + flush.mean() + perCommit);
    }

    @Override
    public Engine engine() {
        // cores beyond K are never used (at most K requests run): the same system on min(K, c) cores
        return Engine.groupCommit(cpu, connections, Math.min(connections, cores), flush, perCommit, maxGroup);
    }

    @Override
    public String name() {
        return KIND.name();
    }

    @Override
    public Map<String, Object> parameters() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("service", cpu.describe());
        m.put("connections", connections);
        m.put("cores", cores);
        m.put("flush", flush.describe());
        m.put("perCommitSeconds", perCommit);
        m.put("maxGroup", maxGroup);
        return m;
    }

    /** The cpu a request brings; its flush is the log's time, shared by the commits of a group. */
    @Override
    public double serverDemand() {
        return cpu.mean();
    }

    /** The busiest of the cores, the log and the connections, as a fraction of its bound (see the class's capacity). */
    @Override
    public double utilization(double lambda) {
        return Math.max(lambda * cpu.mean() / Math.min(connections, cores), Math.max(lambda / logCapacity(), lambda / connectionCapacity()));
    }
}
