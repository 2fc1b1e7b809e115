package io.queuelab.core.merge;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.log.RunDirectory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * Finds the nodes of a merged run whose responses stopped while the other nodes' went on: a stall
 * on that node's side (its machine, its JVM, or its network path to the server), which the
 * response times would otherwise blame on the server.
 *
 * <p>Guarantee: a node is named for an interval when (1) it logged no completion for at least
 * {@link #THRESHOLD_NANOS}, (2) the first request it completed after that gap had waited at least
 * half the gap (so requests were outstanding through it: an idle node, with nothing scheduled, is
 * not stalled), and (3) every other node of the merge logged at least one completion within the gap
 * (ends included) and has no gap of its own of {@link #THRESHOLD_NANOS} overlapping it by more than
 * half (a gap that every node shares is the server's or the shared network's, and is not a
 * generator's fault; a node whose log ends before the gap, or starts after it, did not answer). A
 * merge of one node names none. Read from the merged log after it is written (one more sequential
 * pass, and a second one only when some node had a gap with requests outstanding).
 */
final class NodeStalls {
    /** The shortest silence of a node that counts as a stall. */
    static final long THRESHOLD_NANOS = 1_000_000_000L;

    /** A node's silence: no completion between {@code from} and {@code to}, merged time line. */
    record Gap(int node, long from, long to, boolean outstanding) {
        long length() {
            return to - from;
        }

        long overlap(Gap other) {
            return Math.max(0, Math.min(to, other.to) - Math.max(from, other.from));
        }
    }

    private NodeStalls() {
    }

    /**
     * The self-check failures for the stalls in {@code merged}, one per stalled node and interval;
     * {@code runStart} is the merged schedule's start, from which the intervals are counted.
     */
    static List<String> find(RunDirectory merged, List<Integer> nodes, long runStart) throws IOException {
        if (nodes.size() < 2) {
            return List.of();
        }
        List<Gap> gaps = gaps(merged);
        Map<Gap, Set<Integer>> answered = answered(merged, gaps);
        List<String> failures = new ArrayList<>();
        for (Gap g : gaps) {
            if (!g.outstanding()) {
                continue;
            }
            boolean othersAnswered = true;
            for (int node : nodes) {
                if (node != g.node() && !answered.get(g).contains(node)) {
                    othersAnswered = false;
                }
            }
            for (Gap other : gaps) {
                if (other.node() != g.node() && other.overlap(g) * 2 > g.length()) {
                    othersAnswered = false;
                }
            }
            if (othersAnswered) {
                failures.add(String.format(Locale.ROOT, "node %d: no response for %.1f s (%.1f s to %.1f s of the run) while "
                                + "the other nodes' responses went on: a client-side or network stall of that node",
                        g.node(), g.length() / 1e9, (g.from() - runStart) / 1e9, (g.to() - runStart) / 1e9));
            }
        }
        return failures;
    }

    /**
     * For each gap during which requests were outstanding, the other nodes that logged at least one
     * completion within it, ends included: a second pass over {@code merged}, made only when there
     * is such a gap. A node whose log ends before a gap (or starts after it) completed nothing in it.
     */
    static Map<Gap, Set<Integer>> answered(RunDirectory merged, List<Gap> gaps) throws IOException {
        Map<Gap, Set<Integer>> answered = new HashMap<>();
        Map<Integer, NavigableMap<Long, Gap>> byNode = new HashMap<>(); // one node's gaps by their start: they do not overlap
        for (Gap g : gaps) {
            if (g.outstanding()) {
                answered.put(g, new HashSet<>());
                byNode.computeIfAbsent(g.node(), n -> new TreeMap<>()).put(g.from(), g);
            }
        }
        if (answered.isEmpty()) {
            return answered;
        }
        try (RequestLogReader log = merged.openLog()) {
            while (log.next()) {
                long completed = log.completed();
                if (completed == LogFormat.NONE) {
                    continue;
                }
                int node = log.node();
                for (Map.Entry<Integer, NavigableMap<Long, Gap>> e : byNode.entrySet()) {
                    if (e.getKey() == node) {
                        continue;
                    }
                    // the last gap to start at or before the completion, and the one before it (which may end where
                    // that one starts)
                    Map.Entry<Long, Gap> last = e.getValue().floorEntry(completed);
                    for (int k = 0; k < 2 && last != null; k++, last = e.getValue().lowerEntry(last.getKey())) {
                        Gap g = last.getValue();
                        if (completed >= g.from() && completed <= g.to()) {
                            answered.get(g).add(node);
                        }
                    }
                }
            }
        }
        return answered;
    }

    /** Every node's completion gaps of at least {@link #THRESHOLD_NANOS}, in the merged log's order. */
    static List<Gap> gaps(RunDirectory merged) throws IOException {
        Map<Integer, Long> last = new HashMap<>();
        List<Gap> gaps = new ArrayList<>();
        try (RequestLogReader log = merged.openLog()) {
            while (log.next()) {
                long completed = log.completed();
                if (completed == LogFormat.NONE) {
                    continue;
                }
                Long previous = last.put(log.node(), completed);
                if (previous != null && completed - previous >= THRESHOLD_NANOS) {
                    long waited = completed - log.intended();
                    gaps.add(new Gap(log.node(), previous, completed, waited * 2 >= completed - previous));
                }
            }
        }
        return gaps;
    }
}
