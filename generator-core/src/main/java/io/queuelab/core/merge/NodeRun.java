package io.queuelab.core.merge;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.manifest.ClockAnchor;
import io.queuelab.core.manifest.LoadConfig;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.RunNode;
import io.queuelab.core.manifest.ScheduleStart;
import io.queuelab.core.run.LogTotals;
import io.queuelab.core.run.SelfCheck;

/**
 * One node's complete run, as a merge reads it, and how its log times map onto the merged time
 * line: its clock's offset from the reference ({@link NodeClock}) plus its anchor's distance from
 * the merged anchor ({@link #shift}, set once the merged anchor is known).
 */
final class NodeRun {
    final RunDirectory dir;
    final Manifest manifest;
    final int index;
    final int count;
    final long anchor;
    final long scheduleStart;
    final NodeClock clock;
    final LoadConfig config;
    final SelfCheck selfCheck;
    final LogTotals totals;
    long shift;

    /** @throws IllegalArgumentException when the manifest is not one node's complete measured run */
    NodeRun(RunDirectory dir, Manifest manifest) {
        this.dir = dir;
        this.manifest = manifest;
        RunNode node = manifest.node().orElse(null);
        if (node == null || node.index() == null || node.index() < 0 || node.count() < 1 || node.mergedRun()) {
            throw new IllegalArgumentException(dir + " is not one node's run (its manifest names no node index)");
        }
        this.index = node.index();
        this.count = node.count();
        ScheduleStart start = manifest.start().orElseThrow(() -> missing("start"));
        this.anchor = start.anchorEpochNanos();
        this.scheduleStart = start.scheduleStartNanos();
        this.clock = NodeClock.of(manifest.clock());
        this.config = manifest.config().orElseThrow(() -> missing("config"));
        this.selfCheck = manifest.selfCheck().orElseThrow(() -> missing("selfCheck"));
        this.totals = manifest.totals().orElseThrow(() -> missing("totals"));
    }

    private IllegalArgumentException missing(String section) {
        return new IllegalArgumentException(dir + " has no " + section + " in its manifest: not a complete measured run");
    }

    /** The reference the node measured its clock against ({@code host:port}); empty when none. */
    String clockReference() {
        return manifest.clock().map(ClockAnchor::reference).orElse("");
    }

    /** A node wall-clock instant (a telemetry sample's epoch_ns) on the merged time line, as an epoch instant. */
    long epochOnLine(long epochNanos) {
        return epochNanos + clock.offsetAt(epochNanos - anchor);
    }

    /** A node log time on the merged time line; an instant that never happened stays so. */
    long onLine(long t) {
        return t == LogFormat.NONE ? LogFormat.NONE : t + shift + clock.offsetAt(t);
    }

    @Override
    public String toString() {
        return dir.toString();
    }
}
