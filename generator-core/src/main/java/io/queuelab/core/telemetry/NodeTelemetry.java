package io.queuelab.core.telemetry;

import io.queuelab.core.run.RunCompanion;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * Who samples what in a run of several generator nodes ({@code --node-count k}), at the run's
 * telemetry interval. Every node samples its own machine: its generator process ({@code client})
 * and its host ({@code host}) into its {@value HostResourceSampler#FILE_NAME}. The server, its own
 * counters and its local processes alike, is sampled by node {@value #SERVER_NODE} only, so a
 * merged run holds the server's telemetry once, not k times; a single-generator run is node 0 of 1
 * and samples both.
 */
public final class NodeTelemetry {
    /** The node that samples the server. */
    public static final int SERVER_NODE = 0;

    private NodeTelemetry() {
    }

    /** Whether node {@code nodeIndex} samples the server. */
    public static boolean samplesServer(int nodeIndex) {
        return nodeIndex == SERVER_NODE;
    }

    /**
     * The companion of node {@code nodeIndex}: its client and host, and on the server node also
     * {@code serverCounters} and the {@code serverProcesses}.
     */
    public static RunCompanion companion(int nodeIndex, RunCompanion serverCounters,
                                         Supplier<List<HostResourceSampler.SampledProcess>> serverProcesses, Duration interval) {
        if (samplesServer(nodeIndex)) {
            return serverCounters.and(HostResourceSampler.companion(serverProcesses, interval));
        }
        return HostResourceSampler.companion(List::of, interval);
    }
}
