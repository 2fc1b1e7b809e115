package io.queuelab.core.merge;

import io.queuelab.core.manifest.LoadConfig;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.MergeInfo;
import io.queuelab.core.manifest.RunEnd;
import io.queuelab.core.manifest.RunNode;
import io.queuelab.core.manifest.ScheduleStart;
import io.queuelab.core.run.LogTotals;
import io.queuelab.core.run.SelfCheck;
import io.queuelab.core.schedule.Phase;

import java.util.ArrayList;
import java.util.List;

/**
 * The manifest of a merged run. Guarantee: it describes the run as a whole (the first node's
 * configuration, with the phases' rates or job counts added up and no seed or start instant; node
 * {@code {"count": k, "merged": true}}; the merged anchor, schedule start and end; the summed
 * totals and the merged self-check) and lists every node in its {@code merge} section; a node's
 * own host, settings and clock appear only there; a partial merge's {@code merge.missing} names every
 * node of the run that is not in it, with the cause the launcher gave. {@link #begin} gives an incomplete manifest for
 * the merge's start, {@link #complete} the complete one.
 */
final class MergedManifest {
    private MergedManifest() {
    }

    /** What is known before the logs are merged: the configuration, the node count, the first node's versions. */
    static Manifest begin(List<NodeRun> nodes, List<Phase> phases) {
        // the run's node count: a partial merge still names the k of the run it comes from
        NodeRun first = nodes.get(0);
        List<LoadConfig.PhaseConfig> merged = new ArrayList<>();
        for (int p = 0; p < phases.size(); p++) {
            LoadConfig.PhaseConfig own = first.config.phases().get(p);
            Phase total = phases.get(p);
            merged.add(new LoadConfig.PhaseConfig(own.name(), own.durationSeconds(),
                    total.closedLoop() ? total.concurrency() : null, total.closedLoop() ? null : total.rate(), own.warmup()));
        }
        Manifest manifest = Manifest.create(Manifest.MEASURED)
                .config(first.config.merged(merged))
                .node(RunNode.mergedFrom(first.count));
        first.manifest.queuelabVersion().ifPresent(manifest::queuelabVersion);
        first.manifest.jvm().ifPresent(manifest::jvm);
        first.manifest.backend().ifPresent(manifest::backend);
        first.manifest.client().ifPresent(manifest::client);
        return manifest;
    }

    /** Adds what the merge found and, when the nodes' logs were {@code whole}, marks the manifest complete. */
    static Manifest complete(Manifest manifest, List<NodeRun> nodes, MergedTimeLine line, LogTotals totals,
                             SelfCheck check, TelemetryMerge.Outcome telemetry, List<MergeInfo.MissingNode> missing, boolean whole) {
        NodeRun first = nodes.get(0);
        List<MergeInfo.Node> entries = new ArrayList<>();
        for (NodeRun n : nodes) {
            boolean measured = n.clock.measured();
            entries.add(new MergeInfo.Node(n.index, n.dir.path().toAbsolutePath().toString(), n.manifest.host().orElse(null),
                    n.config.seed(), n.anchor, n.onLine(n.scheduleStart),
                    measured ? n.clock.startOffsetNanos() : null, measured ? n.clock.uncertaintyNanos() : null,
                    n.clock.driftKnown() ? n.clock.driftNanosPerSecond() : null, n.totals, n.selfCheck.verdict(), n.manifest.settings(),
                    new MergeInfo.NodeTelemetry(telemetry.hostRows().getOrDefault(n.index, 0L),
                            n.index == telemetry.serverNode())));
        }
        MergeInfo merge = new MergeInfo(first.clock.measured() ? "reference " + first.clockReference()
                : "none: each node's wall clock taken as correct", line.startSkew(), line.maxClockUncertainty(), entries,
                new MergeInfo.Telemetry("every sample's epoch_ns moved as its node's records are", telemetry.files(),
                        telemetry.serverNode() >= 0 ? telemetry.serverNode() : null, telemetry.leftOut()), missing);
        Manifest merged = manifest.start(ScheduleStart.of(line.anchor, line.earliestStart()))
                .end(RunEnd.at(line.endEpochNanos()))
                .totals(totals)
                .selfCheck(check)
                .merge(merge);
        return whole ? merged.markComplete() : merged;
    }
}
