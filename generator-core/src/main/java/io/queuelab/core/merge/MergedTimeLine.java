package io.queuelab.core.merge;

import io.queuelab.core.manifest.RunEnd;
import io.queuelab.core.schedule.Phase;

import java.util.Arrays;
import java.util.List;

/**
 * The one time line of a merged run: the reference clock's when the nodes measured theirs against
 * one, each node's wall clock otherwise. Guarantee: its anchor is the earliest node's anchor on
 * that line, so every node's log time maps to a non-negative offset ({@link NodeRun#onLine}); each
 * node's {@link NodeRun#shift} is set when it is built.
 */
final class MergedTimeLine {
    /** The merged log's anchor, ns since the Unix epoch on the merged time line. */
    final long anchor;
    private final List<NodeRun> nodes;

    private MergedTimeLine(long anchor, List<NodeRun> nodes) {
        this.anchor = anchor;
        this.nodes = nodes;
    }

    static MergedTimeLine of(List<NodeRun> nodes) {
        long anchor = nodes.stream().mapToLong(n -> n.anchor + n.clock.offsetAt(0)).min().orElseThrow();
        for (NodeRun n : nodes) {
            n.shift = n.anchor - anchor;
        }
        return new MergedTimeLine(anchor, nodes);
    }

    /** The earliest node's schedule start, ns after the merged anchor. */
    long earliestStart() {
        return nodes.stream().mapToLong(n -> n.onLine(n.scheduleStart)).min().orElseThrow();
    }

    /** Latest minus earliest node schedule start. */
    long startSkew() {
        return nodes.stream().mapToLong(n -> n.onLine(n.scheduleStart)).max().orElseThrow() - earliestStart();
    }

    /** The latest node's end (the manifests' {@code end.epochNanos}) on the merged time line, ns since the epoch. */
    long endEpochNanos() {
        return nodes.stream().mapToLong(n -> {
            long end = n.manifest.end().map(RunEnd::epochNanos).orElse(0L);
            return end + n.clock.offsetAt(end - n.anchor);
        }).max().orElseThrow();
    }

    /** The part of each phase in which every node was in it: {@code start[p]} to {@code end[p]}, ns after the anchor. */
    void overlap(List<Phase> phases, long[] start, long[] end) {
        Arrays.fill(start, Long.MIN_VALUE);
        Arrays.fill(end, Long.MAX_VALUE);
        for (NodeRun n : nodes) {
            long t = n.scheduleStart;
            for (int p = 0; p < phases.size(); p++) {
                long next = t + phases.get(p).duration().toNanos();
                start[p] = Math.max(start[p], n.onLine(t));
                end[p] = Math.min(end[p], n.onLine(next));
                t = next;
            }
        }
    }

    /** The largest clock uncertainty of any node (0 without a reference). */
    long maxClockUncertainty() {
        return nodes.stream().mapToLong(n -> n.clock.uncertaintyNanos()).max().orElse(0);
    }
}
