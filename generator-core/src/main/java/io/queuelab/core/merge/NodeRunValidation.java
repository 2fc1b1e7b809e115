package io.queuelab.core.merge;

import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.manifest.LoadConfig;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.MergeInfo;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Checks the run directories given to a merge before anything is written. Guarantee: what it
 * returns are complete measured runs of single nodes, every node of the run exactly once (but those
 * declared missing, which must then be absent: a partial merge), at least one node, sorted by
 * node index, with the same loop, arrival process and phases, measured against the same clock
 * reference or none; anything else is refused with an {@link IllegalArgumentException} naming the
 * run directories that disagree.
 */
final class NodeRunValidation {
    private NodeRunValidation() {
    }

    static List<NodeRun> validate(List<Path> runs, List<MergeInfo.MissingNode> missing) throws IOException {
        if (runs.isEmpty() || missing.isEmpty() && runs.size() < 2) {
            throw new IllegalArgumentException("give the run directories of at least two nodes, got " + runs.size()
                    + (missing.isEmpty() ? "" : " (and " + missing.size() + " missing)"));
        }
        List<NodeRun> nodes = new ArrayList<>();
        for (Path path : runs) {
            RunDirectory dir = RunDirectory.open(path);
            Manifest m = dir.manifest();
            if (!m.complete()) {
                throw new IllegalArgumentException(path + " did not finish (its manifest is not complete): nothing to merge");
            }
            if (!m.kind().equals(Manifest.MEASURED)) {
                throw new IllegalArgumentException(path + " is a " + m.kind() + " run; only measured runs of several nodes merge");
            }
            nodes.add(new NodeRun(dir, m));
        }
        nodes.sort(Comparator.comparingInt(n -> n.index));
        int count = nodes.get(0).count;
        Map<Integer, NodeRun> byIndex = new TreeMap<>();
        for (NodeRun n : nodes) {
            try {
                n.config.arrivalProcess();
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(n.dir + ": " + e.getMessage());
            }
            if (n.count != count) {
                throw new IllegalArgumentException(n.dir + " is node " + n.index + " of " + n.count + ", " + nodes.get(0).dir
                        + " is node " + nodes.get(0).index + " of " + count + ": not the same run");
            }
            NodeRun twice = byIndex.put(n.index, n);
            if (twice != null) {
                throw new IllegalArgumentException("node " + n.index + " appears twice: " + twice.dir + " and " + n.dir);
            }
        }
        Map<Integer, MergeInfo.MissingNode> absent = new TreeMap<>();
        for (MergeInfo.MissingNode m : missing) {
            if (m.index() < 0 || m.index() >= count) {
                throw new IllegalArgumentException("missing node " + m.index() + " is not a node of this run of " + count);
            }
            if (byIndex.containsKey(m.index())) {
                throw new IllegalArgumentException("node " + m.index() + " is given as missing, but " + byIndex.get(m.index()).dir
                        + " is its run");
            }
            if (absent.put(m.index(), m) != null) {
                throw new IllegalArgumentException("node " + m.index() + " is given as missing twice");
            }
        }
        for (int i = 0; i < count; i++) {
            if (!byIndex.containsKey(i) && !absent.containsKey(i)) {
                throw new IllegalArgumentException("node " + i + " of " + count + " is missing (give one run directory per node, or --missing for a partial merge)");
            }
        }
        NodeRun first = nodes.get(0);
        for (NodeRun n : nodes.subList(1, nodes.size())) {
            if (!Objects.equals(n.config.loop(), first.config.loop())) {
                throw new IllegalArgumentException(n.dir + " and " + first.dir + " differ in loop: not the same run");
            }
            if (!Objects.equals(n.config.arrivals(), first.config.arrivals())) {
                throw new IllegalArgumentException(n.dir + " and " + first.dir + " differ in arrivals: not the same run");
            }
            if (!phaseShape(n).equals(phaseShape(first))) {
                throw new IllegalArgumentException(n.dir + " and " + first.dir + " have different phases: "
                        + phaseShape(n) + " vs " + phaseShape(first));
            }
            if (n.clock.measured() != first.clock.measured()
                    || n.clock.measured() && !n.clockReference().equals(first.clockReference())) {
                throw new IllegalArgumentException("node " + n.index + " measured its clock against "
                        + (n.clock.measured() ? n.clockReference() : "no reference") + ", node " + first.index + " against "
                        + (first.clock.measured() ? first.clockReference() : "no reference")
                        + ": run every node with the same --clock-reference");
            }
        }
        return nodes;
    }

    /** The phases' names, durations and warm-up flags: what every node of one run shares (rates may differ). */
    private static List<String> phaseShape(NodeRun n) {
        List<String> shape = new ArrayList<>();
        for (LoadConfig.PhaseConfig p : n.config.phases()) {
            shape.add(p.name() + "/" + p.durationSeconds() + "s" + (p.warmup() ? "/warm-up" : ""));
        }
        return shape;
    }
}
