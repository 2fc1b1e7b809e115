package io.queuelab.cli;

import io.queuelab.core.run.RunConfig;
import io.queuelab.core.schedule.LoadPlan;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;

/** The generator's own options: workers, bounds, seed, node identity, reporting. */
public final class GeneratorOptions {
    /** Workers for backends that wait on a server: a driver's concurrency limit, not a cost while idle. */
    static final int SERVER_WORKERS = 16;

    @Option(names = "--workers", paramLabel = "N",
            description = "The client's concurrency limit for synchronous drivers (JDBC, cassandra --sync): at most N requests "
                    + "at the server at once, later arrivals wait in order (their wait counts in the response time). "
                    + "Idle workers cost nothing. Default: " + SERVER_WORKERS + " for a server, 1 for noop (an in-process "
                    + "backend with no service time needs no concurrency, and more threads would measure the client's "
                    + "scheduling instead).")
    Integer workers;

    private int defaultWorkers = SERVER_WORKERS;

    @Option(names = "--queue-bound", defaultValue = "100000",
            description = "Request queue capacity; arrivals finding it full are logged as dropped (default ${DEFAULT-VALUE}).")
    int queueBound;

    @Option(names = "--in-flight", defaultValue = "128",
            description = "Most requests in flight on an asynchronous backend (default ${DEFAULT-VALUE}).")
    int inFlight;

    @Option(names = "--seed", defaultValue = "1", description = "Base seed of every random stream (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--node-index", defaultValue = "0", description = "This generator's index among --node-count (0-based).")
    int nodeIndex;

    @Option(names = "--node-count", defaultValue = "1",
            description = "Generators running the same load; each applies rate/count with its own derived seed.")
    int nodeCount;

    @Option(names = "--start-at", paramLabel = "INSTANT",
            description = "Wall-clock instant (ISO-8601, e.g. 2026-11-21T12:00:00Z) at which every node starts its schedule; "
                    + "with --clock-reference, an instant of the reference's clock.")
    String startAt;

    @Option(names = "--clock-reference", paramLabel = "HOST[:PORT]",
            description = "A 'queuelab clock-server' to measure this node's clock against at the start and end of the run "
                    + "(port " + ClockServerCommand.DEFAULT_PORT + " unless given), so that 'queuelab merge' puts the logs "
                    + "of several nodes on one time line.")
    String clockReference;

    @Option(names = "--report-interval", converter = DurationConverter.class, defaultValue = "5s",
            description = "Progress line interval; 0 for none (default ${DEFAULT-VALUE}).")
    Duration reportInterval;

    @Option(names = "--drain-timeout", converter = DurationConverter.class, defaultValue = "30s",
            description = "How long requests may still complete after the last phase (default ${DEFAULT-VALUE}).")
    Duration drainTimeout;

    public RunConfig config(LoadPlan clusterPlan, Path out) {
        if (nodeCount < 1) {
            throw new IllegalArgumentException("--node-count must be at least 1, got " + nodeCount);
        }
        if (nodeIndex < 0 || nodeIndex >= nodeCount) {
            throw new IllegalArgumentException("--node-index must be in [0, " + nodeCount + "), got " + nodeIndex);
        }
        Instant at = null;
        if (startAt != null) {
            try {
                at = Instant.parse(startAt);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("--start-at '" + startAt + "' is not an ISO-8601 instant such as 2026-11-21T12:00:00Z");
            }
        }
        return new RunConfig(clusterPlan.forNode(nodeCount), workers(), queueBound, inFlight,
                RunConfig.nodeSeed(seed, nodeIndex), nodeIndex, nodeCount, at, reportInterval, drainTimeout, out,
                clockReference == null ? null : ClockServerCommand.address("--clock-reference", clockReference));
    }

    /** The default of {@code --workers} for the backend about to run. */
    void defaultWorkers(int n) {
        defaultWorkers = n;
    }

    int workers() {
        return workers != null ? workers : defaultWorkers;
    }

    Map<String, Object> settings() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("workers", workers());
        m.put("queueBound", queueBound);
        m.put("inFlight", inFlight);
        m.put("baseSeed", seed);
        m.put("nodeIndex", nodeIndex);
        m.put("nodeCount", nodeCount);
        m.put("startAt", startAt);
        m.put("clockReference", clockReference);
        return m;
    }
}
