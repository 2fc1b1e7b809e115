package io.queuelab.core.merge;

import io.queuelab.core.run.LogTotals;
import io.queuelab.core.run.SelfCheck;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The self-check of a merged run. Guarantee: it keeps every node's failures (prefixed with the
 * node) and adds the checks only the merged log allows: the superposed schedule of all nodes
 * against the total rate (the arrival count, and a KS test of its gaps against Exp(total rate),
 * which fails when nodes share a seed), the stalls of single nodes ({@link NodeStalls}), the skew of
 * the nodes' starts (at most
 * {@link RunMerge#MAX_START_SKEW_SHARE} of the shortest measured phase), and the record count
 * against the nodes' totals. Lag percentiles are the largest of the nodes' (the percentile of the
 * merged lags is at most that); CPU, GC, losses and duplicates add up; the verdict holds only if
 * every node and every merged check passed.
 */
final class MergedSelfCheck {
    private MergedSelfCheck() {
    }

    /** The nodes' totals added up, error classes by name. */
    static LogTotals sumTotals(List<NodeRun> nodes) {
        Map<String, Long> byClass = new TreeMap<>();
        for (NodeRun n : nodes) {
            n.totals.errorsByClass().forEach((name, count) -> byClass.merge(name, count, Long::sum));
        }
        return new LogTotals(sumLong(nodes, LogTotals::scheduled), sumLong(nodes, LogTotals::ok),
                sumLong(nodes, LogTotals::errors), sumLong(nodes, LogTotals::dropped), sumLong(nodes, LogTotals::unfinished),
                byClass);
    }

    private static long sumLong(List<NodeRun> nodes, ToLongFunction<LogTotals> field) {
        return nodes.stream().mapToLong(n -> field.applyAsLong(n.totals)).sum();
    }

    static SelfCheck evaluate(List<NodeRun> nodes, List<Phase> phases, LoadPlan.Arrivals arrivals, boolean open,
                              PhaseInstants[] instants, long startSkew, long records, LogTotals totals,
                              List<String> nodeStalls) {
        List<String> failures = new ArrayList<>();
        List<SelfCheck.PhaseCheck> checks = new ArrayList<>();
        for (int p = 0; p < phases.size(); p++) {
            Phase phase = phases.get(p);
            int index = p;
            double achieved = nodes.stream().mapToDouble(n -> index < n.selfCheck.phases().size()
                    ? n.selfCheck.phases().get(index).achievedRate() : 0).sum();
            if (open) {
                checks.add(SelfCheck.openPhase(phase, arrivals, nodes.size(), instants[p].count, achieved,
                        instants[p].gapSample(), "scheduled gaps of all nodes together", failures));
            } else {
                checks.add(new SelfCheck.PhaseCheck(phase.name(), phase.warmup(), 0, instants[p].count, Double.NaN,
                        achieved, Double.NaN, Double.NaN, 0));
            }
        }
        long shortest = phases.stream().filter(p -> !p.warmup()).mapToLong(p -> p.duration().toNanos()).min()
                .orElse(phases.get(0).duration().toNanos());
        if (startSkew > RunMerge.MAX_START_SKEW_SHARE * shortest) {
            failures.add(String.format(Locale.ROOT, "the nodes' schedules started %.1f ms apart, more than %.0f %% of the "
                    + "shortest phase", startSkew / 1e6, RunMerge.MAX_START_SKEW_SHARE * 100));
        }
        if (records != totals.scheduled()) {
            failures.add("the merged log holds " + records + " records but the nodes' totals count " + totals.scheduled());
        }
        failures.addAll(nodeStalls);
        for (NodeRun n : nodes) {
            for (String f : n.selfCheck.failures()) {
                failures.add("node " + n.index + ": " + f);
            }
        }
        double cpu = sum(nodes, SelfCheck::cpuSeconds);
        String verdict = failures.isEmpty() ? "the generators of all " + nodes.size() + " nodes kept up"
                : "the generators did not keep up: " + String.join("; ", failures);
        return new SelfCheck(open, checks, max(nodes, SelfCheck::lagP50Nanos), max(nodes, SelfCheck::lagP99Nanos),
                max(nodes, SelfCheck::lagP999Nanos), max(nodes, SelfCheck::lagMaxNanos), max(nodes, SelfCheck::maxQueueLength),
                totals.dropped(), cpu, totals.scheduled() == 0 ? 0 : cpu * 1e6 / totals.scheduled(),
                sum(nodes, SelfCheck::gcPauseSeconds), (long) sum(nodes, SelfCheck::gcCount), List.copyOf(failures), verdict,
                sum(nodes, SelfCheck::processCpuSeconds),
                // the largest share of its machine's CPU any node's client used (nodes may share a machine or not)
                nodes.stream().mapToDouble(n -> n.selfCheck.cpuMachineShare()).max().orElse(0),
                (long) sum(nodes, SelfCheck::lost), (long) sum(nodes, SelfCheck::duplicated), List.of());
    }

    private static long max(List<NodeRun> nodes, ToLongFunction<SelfCheck> field) {
        return nodes.stream().mapToLong(n -> field.applyAsLong(n.selfCheck)).max().orElse(0);
    }

    private static double sum(List<NodeRun> nodes, ToDoubleFunction<SelfCheck> field) {
        return nodes.stream().mapToDouble(n -> field.applyAsDouble(n.selfCheck)).sum();
    }
}
