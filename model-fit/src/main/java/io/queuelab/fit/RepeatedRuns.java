package io.queuelab.fit;

import io.queuelab.fit.compare.Distances;
import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.runs.RunShape;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The held-out runs made at the same load more than once (the same configured arrival rate, or the
 * same N), and how far apart they are: the server's own run-to-run spread, measured, against which
 * a model's prediction of that load is judged. The simulation-noise yardstick of a single run
 * contains only the randomness of arrivals and demands drawn from one fixed server; a real server
 * on a shared host also changes between runs (docs/experiments.md: the same rate gave means 60 %
 * apart), and no model of one server can predict a load more closely than the server repeats it.
 *
 * <p>Per group: the pooled measurement (the runs' response histograms merged: mean, p50, p99), the
 * runs' range of each (largest less smallest) and the largest KS distance between two of the runs.
 * A model's prediction of the group (its predictions of the runs, averaged) is <em>within the
 * server's repeat spread</em> on a statistic when it is no farther from the pooled value than the
 * runs are from each other, and on the distribution when its KS distance to every run is no larger
 * than the largest between two runs. The test's power grows with the runs: a model that predicts a
 * statistic's expected value exactly is within on it with probability 0.70 for two runs ((2/pi)
 * atan 2), 0.92 for three and 0.98 for four (normal run-to-run errors: P(|mean of the errors| <= their
 * range), simulated), so a
 * "beyond" from two runs is weak evidence, from four strong.
 *
 * <p>Guarantee: a group has two runs or more, all open at one configured rate or all closed at one
 * N; a run whose manifest gives no configured rate (a CSV log) is in no group.
 */
public final class RepeatedRuns {
    private RepeatedRuns() {
    }

    /**
     * Runs of one load, in the order given, with their pooled values and spread (seconds).
     *
     * @param members indices of the runs in the list the groups were made from, which a model's
     *                predictions of those runs ({@link #judge}) follow
     */
    public record Group(String load, List<Integer> members, List<String> names, double pooledMean, double pooledP50, double pooledP99,
                        double meanRange, double p50Range, double p99Range, double ksBetween) {

        /** "rate-200.7, rate-200.7-repeat-1" */
        public String runs() {
            return String.join(", ", names);
        }

        /** A model's predictions of this group's runs (indices into the held-out list), judged against the spread. */
        public Verdict judge(List<RunPrediction> predictions) {
            double mean = 0, p50 = 0, p99 = 0, ks = 0;
            for (int i : members) {
                RunPrediction p = predictions.get(i);
                if (p.saturated()) {
                    return new Verdict(Double.NaN, Double.NaN, Double.NaN, Double.NaN, false, false, false, false);
                }
                mean += p.predictedMean() / members.size();
                p50 += p.predictedP50() / members.size();
                p99 += p.predictedP99() / members.size();
                ks = Math.max(ks, p.ks());
            }
            return new Verdict(mean, p50, p99, ks, Math.abs(mean - pooledMean) <= meanRange, Math.abs(p50 - pooledP50) <= p50Range,
                    Math.abs(p99 - pooledP99) <= p99Range, ks <= ksBetween);
        }

        /** "pooled mean 11.664 ms (the runs 67.1 % apart), p50 ...; KS D between the runs 0.277": each range over the pooled value. */
        public String describe() {
            return String.format(Locale.ROOT, "pooled mean %.3f ms (the runs %.1f %% apart), p50 %.3f ms (%.1f %%), p99 %.3f ms (%.1f %%);"
                            + " KS D between the runs %.3f", 1e3 * pooledMean, 100 * meanRange / pooledMean, 1e3 * pooledP50,
                    100 * p50Range / pooledP50, 1e3 * pooledP99, 100 * p99Range / pooledP99, ksBetween);
        }
    }

    /**
     * A model's prediction of a group: its mean, p50 and p99 (averaged over the runs' predictions),
     * its largest KS distance to a run, and whether each is within the server's repeat spread.
     */
    public record Verdict(double mean, double p50, double p99, double ks, boolean meanWithin, boolean p50Within, boolean p99Within,
                          boolean ksWithin) {
        public boolean unstable() {
            return Double.isNaN(mean);
        }

        public boolean allWithin() {
            return meanWithin && p50Within && p99Within && ksWithin;
        }

        /** "mean 8.421 ms (-27.8 %, within), p50 ...; KS D to the runs up to 0.207 (within)": errors against the pooled values. */
        public String describe(Group g) {
            if (unstable()) {
                return "the model saturates at this load";
            }
            return String.format(Locale.ROOT, "mean %.3f ms (%+.1f %%, %s), p50 %.3f ms (%+.1f %%, %s), p99 %.3f ms (%+.1f %%, %s);"
                            + " KS D to the runs up to %.3f (%s)",
                    1e3 * mean, HeldOutValidation.percent(mean, g.pooledMean()), word(meanWithin), 1e3 * p50, HeldOutValidation.percent(p50, g.pooledP50()), word(p50Within),
                    1e3 * p99, HeldOutValidation.percent(p99, g.pooledP99()), word(p99Within), ks, word(ksWithin));
        }

        private static String word(boolean within) {
            return within ? "within" : "beyond";
        }
    }

    /** The groups of two runs or more among {@code runs} (named {@code names}), in the order of their first run. */
    public static List<Group> of(List<RunData> runs, List<String> names) {
        Map<String, List<Integer>> byLoad = new LinkedHashMap<>();
        for (int i = 0; i < runs.size(); i++) {
            int index = i;
            configuredLoad(runs.get(i)).ifPresent(load -> byLoad.computeIfAbsent(load, k -> new ArrayList<>()).add(index));
        }
        List<Group> groups = new ArrayList<>();
        for (Map.Entry<String, List<Integer>> e : byLoad.entrySet()) {
            List<Integer> members = e.getValue();
            if (members.size() < 2) {
                continue;
            }
            List<RunData> group = members.stream().map(runs::get).toList();
            Histogram pooled = RunData.mergedResponseNanos(group);
            double meanMin = Double.POSITIVE_INFINITY, meanMax = Double.NEGATIVE_INFINITY;
            double p50Min = meanMin, p50Max = meanMax, p99Min = meanMin, p99Max = meanMax, ks = 0;
            for (int a = 0; a < group.size(); a++) {
                Histogram h = group.get(a).responseNanos();
                meanMin = Math.min(meanMin, h.getMean());
                meanMax = Math.max(meanMax, h.getMean());
                p50Min = Math.min(p50Min, h.getValueAtPercentile(50));
                p50Max = Math.max(p50Max, h.getValueAtPercentile(50));
                p99Min = Math.min(p99Min, h.getValueAtPercentile(99));
                p99Max = Math.max(p99Max, h.getValueAtPercentile(99));
                for (int b = a + 1; b < group.size(); b++) {
                    ks = Math.max(ks, Distances.between(h, group.get(b).responseNanos()).ks());
                }
            }
            groups.add(new Group(e.getKey(), List.copyOf(members), members.stream().map(names::get).toList(), pooled.getMean() / 1e9,
                    pooled.getValueAtPercentile(50) / 1e9, pooled.getValueAtPercentile(99) / 1e9, (meanMax - meanMin) / 1e9,
                    (p50Max - p50Min) / 1e9, (p99Max - p99Min) / 1e9, ks));
        }
        return groups;
    }

    /**
     * "open 200.7/s" or "closed N=16": the load the run was made with ({@link RunShape#configuredRate}
     * for an open run), not its measured rate; empty for a run whose manifest does not say (a CSV log)
     * or that measured nothing.
     */
    public static Optional<String> configuredLoad(RunData run) {
        if (run.manifest().isEmpty() || run.okCount() == 0) {
            return Optional.empty();
        }
        RunShape shape = RunShape.of(run);
        if (shape.closed()) {
            return Optional.of(shape.toString());
        }
        OptionalDouble rate = RunShape.configuredRate(run);
        return rate.isEmpty() ? Optional.empty() : Optional.of(String.format(Locale.ROOT, "open %s/s", rate.getAsDouble()));
    }
}
