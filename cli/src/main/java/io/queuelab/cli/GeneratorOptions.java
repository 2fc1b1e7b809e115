package io.queuelab.cli;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.run.RunConfig;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The generator's own options: workers, bounds, seed, node identity, reporting. {@link #config}
 * validates everything a run needs before anything is created: a start instant in the future, a
 * rate one generator can schedule, room for the log, and a run directory that can be created.
 */
public final class GeneratorOptions {
    /**
     * The most arrivals per second one generator node is allowed to schedule: 2.5 times the
     * ceiling measured on a 2-core machine (1,000,000/s kept up, docs/benchmarks.md), so a faster
     * machine still has room, while an absurd rate (1e12/s) is refused instead of running behind
     * schedule and filling the disk with its log at 40 bytes a request.
     */
    static final double MAX_RATE_PER_NODE = 2_500_000;

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

    @Option(names = "--start-at", paramLabel = "INSTANT|ready",
            description = "Wall-clock instant (ISO-8601, e.g. 2026-11-21T12:00:00Z) at which every node starts its schedule; "
                    + "with --clock-reference, an instant of the reference's clock. 'ready' (with --clock-reference): "
                    + "the instant the reference names once every one of --node-count nodes has its connections open "
                    + "('queuelab clock-server --nodes K').")
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
        boolean whenReady = "ready".equals(startAt);
        if (whenReady && clockReference == null) {
            throw new IllegalArgumentException("--start-at ready needs --clock-reference: the reference names the instant");
        }
        if (startAt != null && !whenReady) {
            try {
                at = Instant.parse(startAt);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("--start-at '" + startAt + "' is not an ISO-8601 instant such as 2026-11-21T12:00:00Z");
            }
            // with a reference, the instant is the reference's: only the run, once it has measured this
            // clock against it, can tell (and then names the clock) whether it is past
            Instant now = Instant.now();
            if (clockReference == null && at.isBefore(now)) {
                throw new IllegalArgumentException("--start-at " + at + " is in the past (now " + now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + ")");
            }
        }
        LoadPlan nodePlan = clusterPlan.forNode(nodeCount);
        requireSchedulable(nodePlan);
        OutputPath.requireCreatable(out, "run directory");
        requireRoomForLog(nodePlan, out);
        return new RunConfig(nodePlan, workers(), queueBound, inFlight,
                RunConfig.nodeSeed(seed, nodeIndex), nodeIndex, nodeCount, at, reportInterval, drainTimeout, out,
                clockReference == null ? null : ClockServerCommand.address("--clock-reference", clockReference), placement,
                whenReady);
    }

    /** Where the server runs and how the CPUs were split ({@link BackendOptions#place}); every later run records it. */
    void placement(io.queuelab.core.manifest.Placement where) {
        placement = where;
    }

    private io.queuelab.core.manifest.Placement placement;

    /** Refuses a rate above {@link #MAX_RATE_PER_NODE}. */
    private static void requireSchedulable(LoadPlan nodePlan) {
        for (Phase phase : nodePlan.phases()) {
            if (!phase.closedLoop() && phase.rate() > MAX_RATE_PER_NODE) {
                throw new IllegalArgumentException(String.format(Locale.ROOT,
                        "a rate of %.4g/s per generator is above the bound of %,.0f/s (one generator kept up with 1,000,000/s "
                                + "on a 2-core machine, docs/benchmarks.md); spread a higher rate over several nodes (--node-count)",
                        phase.rate(), MAX_RATE_PER_NODE));
            }
        }
    }

    /** Refuses an open-loop run whose log (40 bytes a request) cannot fit in the free space of its file system. */
    private static void requireRoomForLog(LoadPlan nodePlan, Path out) {
        double requests = 0;
        for (Phase phase : nodePlan.phases()) {
            if (!phase.closedLoop()) {
                requests += phase.rate() * phase.duration().toNanos() / 1e9;
            }
        }
        double bytes = requests * LogFormat.RECORD_SIZE;
        Path existing = out.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return;
        }
        try {
            java.nio.file.FileStore store = Files.getFileStore(existing);
            long free = store.getUsableSpace();
            if (bytes > free && store.getTotalSpace() > 0) { // a pseudo file system reports no space at all
                throw new IllegalArgumentException(String.format(Locale.ROOT,
                        "the run would log about %.3g requests (%.3g GB at %d bytes each) but %s has %.3g GB free",
                        requests, bytes / 1e9, LogFormat.RECORD_SIZE, existing, free / 1e9));
            }
        } catch (java.io.IOException unknown) {
            // no free-space figure: the run goes ahead; a full disk stops it with a reason
        }
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
