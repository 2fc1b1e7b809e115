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
 * node index, of one run (the same start instant, base seed and per-node plan), with the same loop,
 * arrival process and phases, measured against the same clock reference or none; anything else is
 * refused with an {@link IllegalArgumentException} naming the run directories that disagree.
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
        requireOneRun(nodes);
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

    /**
     * Refuses nodes of different runs: every node of one run was given the same start instant
     * ({@code --start-at}, config.startAt), base seed ({@code --seed}, settings.baseSeed, when recorded)
     * and per-node plan (each phase's rate or jobs). The odd node is the one outside the largest
     * group of nodes that agree (ties: outside node 0's group), and the one line names it and how it differs.
     */
    private static void requireOneRun(List<NodeRun> nodes) {
        // seeds are compared only when every manifest records its base seed (older ones do not)
        boolean seeds = nodes.stream().allMatch(n -> n.manifest.settings().get("baseSeed") != null);
        Map<List<String>, List<NodeRun>> groups = new java.util.LinkedHashMap<>();
        for (NodeRun n : nodes) {
            groups.computeIfAbsent(identity(n, seeds), k -> new ArrayList<>()).add(n);
        }
        if (groups.size() == 1) {
            return;
        }
        List<NodeRun> run = groups.values().stream().max(Comparator.comparingInt(List::size)).orElseThrow();
        NodeRun odd = nodes.stream().filter(n -> !run.contains(n)).findFirst().orElseThrow();
        List<String> theirs = identity(run.get(0), seeds);
        List<String> its = identity(odd, seeds);
        List<String> differences = new ArrayList<>();
        for (int i = 0; i < its.size(); i++) {
            if (!its.get(i).equals(theirs.get(i))) {
                differences.add(IDENTITY[i] + " " + its.get(i) + ", theirs " + theirs.get(i));
            }
        }
        throw new IllegalArgumentException(odd.dir + " (node " + odd.index + ") is not of the same run as "
                + String.join(", ", run.stream().map(n -> n.dir + " (node " + n.index + ")").toList()) + ": its "
                + String.join("; its ", differences) + " (merge the nodes of one run only)");
    }

    /** What each element of {@link #identity} is, in words. */
    private static final String[] IDENTITY = {"start instant (--start-at)", "base seed (--seed)", "plan"};

    /** A node's start instant, base seed (when {@code seeds}, else a blank that matches) and per-node plan. */
    private static List<String> identity(NodeRun n, boolean seeds) {
        String startAt = n.config.startAt() == null ? "none" : n.config.startAt();
        Object seed = seeds ? n.manifest.settings().get("baseSeed") : "";
        List<String> plan = new ArrayList<>();
        for (LoadConfig.PhaseConfig p : n.config.phases()) {
            plan.add(p.name() + " " + (p.concurrency() != null ? p.concurrency() + " jobs" : p.rate() + "/s"));
        }
        return List.of(startAt, String.valueOf(seed), String.join(", ", plan));
    }

    /** The phases' names, durations and warm-up flags: what every node of one run shares (their rates are {@link #requireOneRun}'s). */
    private static List<String> phaseShape(NodeRun n) {
        List<String> shape = new ArrayList<>();
        for (LoadConfig.PhaseConfig p : n.config.phases()) {
            shape.add(p.name() + "/" + p.durationSeconds() + "s" + (p.warmup() ? "/warm-up" : ""));
        }
        return shape;
    }
}
