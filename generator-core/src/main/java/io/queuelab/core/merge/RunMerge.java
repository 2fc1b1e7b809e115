package io.queuelab.core.merge;

import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.manifest.BackendInfo;
import io.queuelab.core.manifest.LoadConfig;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.MergeInfo;
import io.queuelab.core.run.LogTotals;
import io.queuelab.core.run.SelfCheck;
import io.queuelab.core.schedule.Phase;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Merges the run directories of the nodes of one distributed run ({@code --node-index i --node-count
 * k}, same plan) into one run directory that every analysis reads like a single generator's run.
 * The jobs are each one class's: the inputs' checks ({@link NodeRunValidation}), the time line
 * ({@link MergedTimeLine}, {@link NodeClock}), the logs' k-way merge ({@link LogMerge}), the
 * telemetry ({@link TelemetryMerge}), the self-check ({@link MergedSelfCheck}, with the nodes' own
 * stalls from {@link NodeStalls}) and the manifest
 * ({@link MergedManifest}).
 *
 * <p>Guarantees: every input is checked before anything is written; every record of every node
 * appears exactly once in the merged log, with its node index, on one time line (the reference
 * clock's when the nodes measured theirs against one, {@code --clock-reference}, each node's wall
 * clock otherwise); the merged self-check keeps every node's failures and adds the merged log's own
 * checks; the output's manifest is marked complete last; a merge that fails half-way removes its
 * output.
 */
public final class RunMerge {
    /** Largest start skew, as a share of the shortest measured phase, that the self-check accepts. */
    public static final double MAX_START_SKEW_SHARE = 0.01;
    /** Most arrival instants per phase kept for the KS test of the superposed schedule. */
    static final int KS_INSTANTS_PER_PHASE = 2_000_000;

    /**
     * @param clockReference the reference all nodes measured against, or null when the nodes' own
     *                       wall clocks were taken to agree
     * @param startSkewNanos latest minus earliest node schedule start, on the merged time line
     * @param damage         what the nodes' logs lack, one line each; the merged manifest is then not complete
     */
    public record Result(RunDirectory directory, long records, int nodes, String clockReference,
                         long startSkewNanos, long maxClockUncertaintyNanos, SelfCheck selfCheck, List<String> damage) {
    }

    private RunMerge() {
    }

    /** Merges {@code runs} (one per node) into the new run directory {@code out}. */
    public static Result merge(List<Path> runs, Path out) throws IOException {
        return merge(runs, List.of(), out);
    }

    /**
     * Merges {@code runs} into {@code out}; the nodes in {@code missing} have no run to give (a partial
     * merge: the merged run holds the others, its phases carry their rates, and its manifest names the
     * missing nodes with their causes).
     */
    public static Result merge(List<Path> runs, List<MergeInfo.MissingNode> missing, Path out) throws IOException {
        List<NodeRun> nodes = NodeRunValidation.validate(runs, missing);
        MergedTimeLine line = MergedTimeLine.of(nodes);
        RunDirectory dir = RunDirectory.create(out);
        try {
            return write(dir, nodes, line, missing);
        } catch (IOException | RuntimeException e) {
            try (Stream<Path> files = Files.list(dir.path())) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir.path());
            throw e;
        }
    }

    private static Result write(RunDirectory dir, List<NodeRun> nodes, MergedTimeLine line,
                                List<MergeInfo.MissingNode> missing) throws IOException {
        NodeRun first = nodes.get(0);
        List<Phase> phases = mergedPhases(nodes);
        long[] phaseStart = new long[phases.size()];
        long[] phaseEnd = new long[phases.size()];
        line.overlap(phases, phaseStart, phaseEnd);
        PhaseInstants[] instants = new PhaseInstants[phases.size()];
        for (int p = 0; p < phases.size(); p++) {
            double rate = phases.get(p).rate();
            long window = rate > 0 ? (long) Math.min(phaseEnd[p] - phaseStart[p], KS_INSTANTS_PER_PHASE / rate * 1e9) : 0;
            instants[p] = new PhaseInstants(phaseStart[p], phaseStart[p] + Math.max(0, window));
        }

        Manifest manifest = MergedManifest.begin(nodes, phases);
        manifest.write(dir.path());

        List<BackendInfo.Operation> operations = first.manifest.backend().map(BackendInfo::operations).orElse(List.of());
        List<String> damage = new ArrayList<>();
        long records = LogMerge.mergeLogs(dir, nodes, line.anchor, operations, instants, damage);
        LogMerge.mergeErrors(dir, nodes);
        TelemetryMerge.Outcome telemetry = TelemetryMerge.merge(nodes.stream()
                .map(n -> new TelemetryMerge.Node(n.index, n.dir.path(), n::epochOnLine)).toList(), dir.path());

        long skew = line.startSkew();
        LogTotals totals = MergedSelfCheck.sumTotals(nodes);
        List<String> stalls = NodeStalls.find(dir, nodes.stream().map(n -> n.index).toList(), line.earliestStart());
        SelfCheck check = MergedSelfCheck.evaluate(nodes, phases, first.config.arrivalProcess(), !first.config.closedLoop(),
                instants, skew, records, totals, stalls);
        if (!damage.isEmpty()) {
            // the totals are the nodes' own and count records this log lacks: say so, and leave it incomplete
            check = check.withFailures(damage.stream().map(d -> "the merged log lacks records: " + d).toList());
        }
        MergedManifest.complete(manifest, nodes, line, totals, check, telemetry, missing, damage.isEmpty()).write(dir.path());
        String reference = first.clock.measured() ? first.clockReference() : null;
        return new Result(dir, records, nodes.size(), reference, skew, line.maxClockUncertainty(), check, List.copyOf(damage));
    }

    /** The phases of the whole run: the nodes' durations, their rates (or concurrencies) added up. */
    private static List<Phase> mergedPhases(List<NodeRun> nodes) {
        List<Phase> phases = new ArrayList<>();
        List<LoadConfig.PhaseConfig> shape = nodes.get(0).config.phases();
        for (int p = 0; p < shape.size(); p++) {
            LoadConfig.PhaseConfig phase = shape.get(p);
            int index = p;
            if (phase.closedLoop()) {
                int jobs = nodes.stream().mapToInt(n -> n.config.phases().get(index).concurrency()).sum();
                phases.add(Phase.closed(phase.name(), phase.duration(), jobs, phase.warmup()));
            } else {
                double rate = nodes.stream().mapToDouble(n -> n.config.phases().get(index).rate()).sum();
                phases.add(Phase.open(phase.name(), phase.duration(), rate, phase.warmup()));
            }
        }
        return phases;
    }
}
