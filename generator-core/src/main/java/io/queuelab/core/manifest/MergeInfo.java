package io.queuelab.core.manifest;

import io.queuelab.core.run.LogTotals;

import java.util.List;
import java.util.Map;

/**
 * The manifest's {@code merge} section, in a run merged from the runs of its nodes
 * ({@code queuelab merge}): how their time lines were joined and what each node brought.
 *
 * @param clock                    {@code reference HOST:PORT}, or that each node's wall clock was taken as correct
 * @param startSkewNanos           latest minus earliest node schedule start, on the merged time line
 * @param maxClockUncertaintyNanos the largest clock uncertainty of any node (0 without a reference)
 * @param nodes                    every node, by index
 * @param telemetry                the telemetry files carried over
 * @param missing                  the nodes of the run whose records are not in it (a partial merge), with
 *                                 why; empty when every node is merged
 */
public record MergeInfo(String clock, long startSkewNanos, long maxClockUncertaintyNanos, List<Node> nodes,
                        Telemetry telemetry, List<MissingNode> missing) {
    public MergeInfo {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        missing = missing == null ? List.of() : List.copyOf(missing);
    }

    /** Whether some node of the run is not in the merge. */
    public boolean partial() {
        return !missing.isEmpty();
    }

    /**
     * "partial: node 2 of 3 missing (killed by signal 9)", one clause per missing node; empty when
     * the merge is whole.
     */
    public String partialText() {
        if (missing.isEmpty()) {
            return "";
        }
        int count = nodes.size() + missing.size();
        StringBuilder b = new StringBuilder("partial: ");
        for (int i = 0; i < missing.size(); i++) {
            MissingNode m = missing.get(i);
            b.append(i == 0 ? "" : "; ").append("node ").append(m.index()).append(" of ").append(count).append(" missing (")
                    .append(m.cause()).append(m.host() == null ? "" : ", on " + m.host()).append(')');
        }
        return b.toString();
    }

    /**
     * A node of the run that the merge does not hold: its records are not counted anywhere in the
     * merged run, and the merged phases' rates are those of the nodes present.
     *
     * @param index its node index
     * @param host  the host it ran on, as the launcher named it; null when unknown
     * @param cause why it is missing, as the launcher saw it ("killed by signal 9")
     */
    public record MissingNode(int index, String host, String cause) {
    }

    /**
     * One node's run.
     *
     * @param runDirectory              its run directory, absolute
     * @param host                      its {@code host} section
     * @param anchorEpochNanos          its log's anchor (its own wall clock)
     * @param scheduleStartNanos        its schedule's start on the merged time line, ns after the merged anchor
     * @param clockOffsetNanos          reference minus node clock at its start; null without a reference
     * @param clockUncertaintyNanos     that offset's uncertainty; null without a reference
     * @param clockDriftNanosPerSecond  the offset's drift over the run, ns per s; null without a reference or
     *                                  when the start or the end measurement is missing (drift unknown)
     * @param totals                    its {@code totals}
     * @param verdict                   its self-check's verdict
     * @param settings                  its {@code settings}
     * @param telemetry                 what it brought of the telemetry
     */
    public record Node(int index, String runDirectory, HostInfo host, Long seed, long anchorEpochNanos,
                       long scheduleStartNanos, Long clockOffsetNanos, Long clockUncertaintyNanos,
                       Double clockDriftNanosPerSecond, LogTotals totals, String verdict, Map<String, Object> settings,
                       NodeTelemetry telemetry) {
    }

    /**
     * @param hostResourceRows its rows in the merged {@code host-resources.csv}
     * @param sampledServer    whether the merged run's server telemetry is this node's
     */
    public record NodeTelemetry(long hostResourceRows, boolean sampledServer) {
    }

    /**
     * @param timeLine        how sample instants were moved (every sample's {@code epoch_ns} as its node's records)
     * @param files           the telemetry files of the merged run
     * @param serverSampledBy the node whose server telemetry was kept; null when none sampled the server
     * @param leftOut         other nodes' server telemetry files left out
     */
    public record Telemetry(String timeLine, List<String> files, Integer serverSampledBy, List<String> leftOut) {
        public Telemetry {
            files = files == null ? List.of() : List.copyOf(files);
            leftOut = leftOut == null ? List.of() : List.copyOf(leftOut);
        }
    }
}
