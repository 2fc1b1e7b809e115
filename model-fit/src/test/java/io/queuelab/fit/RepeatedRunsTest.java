package io.queuelab.fit;

import io.queuelab.fit.SimRuns;
import io.queuelab.fit.runs.RunData;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.ClientLimitedModel;
import io.queuelab.sim.Distribution;
import io.queuelab.sim.FittedModel;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs made at one load more than once, from simulated servers whose truth is known: two runs of
 * one server at 300/s, one of a server 20 % slower at the same 300/s (the host changed between
 * runs), and one at another rate. The runs of one configured rate are grouped though their measured
 * rates differ; the group's spread is that of its runs; and a model is judged against it: one
 * between the two servers is within their spread, one of a server much faster is beyond it, one a
 * little faster than the fast server has its mean within and its distribution beyond.
 */
class RepeatedRunsTest {
    static final double RATE = 300;
    static final int K = 16;

    @TempDir
    static Path dir;
    static RunData fast, fastAgain, slow, other;

    @BeforeAll
    static void runs() throws Exception {
        fast = run("fast", 0.002, RATE, 1);
        fastAgain = run("fast-again", 0.002, RATE, 2);
        slow = run("slow", 0.0024, RATE, 3);
        other = run("other", 0.002, 200, 4);
    }

    private static RunData run(String name, double demand, double rate, long seed) throws Exception {
        Path run = dir.resolve(name);
        SimRuns.write(run, model(demand).queue(), ArrivalProcess.open(rate), 20_000, seed);
        return RunData.read(run);
    }

    private static FittedModel model(double demand) {
        return new FittedModel("truth", new ClientLimitedModel(Distribution.exponential(demand), K, 1), 0);
    }

    @Test
    void runsOfOneConfiguredRateAreGroupedThoughTheirMeasuredRatesDiffer() {
        assertTrue(fast.arrivalRate() != fastAgain.arrivalRate());
        List<RepeatedRuns.Group> groups = RepeatedRuns.of(List.of(fast, other, fastAgain), List.of("a", "b", "c"));
        assertEquals(1, groups.size(), groups.toString());
        RepeatedRuns.Group g = groups.get(0);
        assertEquals(List.of(0, 2), g.members());
        assertEquals(List.of("a", "c"), g.names());
        assertEquals("open 300.0/s", g.load());
    }

    /**
     * The group's figures against the runs' own records, read here from their logs and reduced by
     * hand (an exact mean, a sorted p99, a two-sample KS D over the sorted samples), not by the
     * histograms and distances the group is computed with.
     */
    @Test
    void theSpreadIsThatOfTheRuns() throws Exception {
        RepeatedRuns.Group g = RepeatedRuns.of(List.of(fast, slow), List.of("fast", "slow")).get(0);
        double[] a = responses(fast), b = responses(slow);
        double[] pooled = java.util.stream.DoubleStream.concat(java.util.Arrays.stream(a), java.util.Arrays.stream(b)).sorted().toArray();
        double meanA = java.util.Arrays.stream(a).average().orElseThrow(), meanB = java.util.Arrays.stream(b).average().orElseThrow();
        assertEquals(java.util.Arrays.stream(pooled).average().orElseThrow(), g.pooledMean(), 1e-5 * g.pooledMean());
        // the histogram's 3 significant digits
        assertEquals(pooled[(int) Math.ceil(0.99 * pooled.length) - 1], g.pooledP99(), 2e-3 * g.pooledP99());
        assertEquals(Math.abs(meanA - meanB), g.meanRange(), 1e-5 * g.pooledMean());
        assertEquals(ks(a, b), g.ksBetween(), 0.005);
        // the slower server's queue: 0.72 against 0.6 busy, a mean some 70 % longer
        assertTrue(g.meanRange() / g.pooledMean() > 0.3, g.describe());
    }

    /** The response times, seconds, of a run's successful requests outside warm-up, sorted: from its log. */
    private static double[] responses(RunData run) throws Exception {
        List<Double> out = new ArrayList<>();
        try (io.queuelab.core.log.RequestLogReader log = io.queuelab.core.log.RunDirectory.open(run.source()).openLog()) {
            while (log.next()) {
                if (log.outcome() == io.queuelab.core.log.LogFormat.OK && !log.warmup()) {
                    out.add((log.completed() - log.intended()) / 1e9);
                }
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }

    /** The largest distance between two sorted samples' empirical CDFs. */
    private static double ks(double[] a, double[] b) {
        int i = 0, j = 0;
        double d = 0;
        while (i < a.length && j < b.length) {
            double x = Math.min(a[i], b[j]);
            while (i < a.length && a[i] <= x) {
                i++;
            }
            while (j < b.length && b[j] <= x) {
                j++;
            }
            d = Math.max(d, Math.abs((double) i / a.length - (double) j / b.length));
        }
        return d;
    }

    @Test
    void aModelBetweenTheTwoServersIsWithinTheirSpreadAndAFasterOneIsNot() throws Exception {
        List<RunData> runs = List.of(fast, slow);
        RepeatedRuns.Group g = RepeatedRuns.of(runs, List.of("fast", "slow")).get(0);
        RepeatedRuns.Verdict between = g.judge(predictions(runs, model(0.0022)));
        assertTrue(between.allWithin(), between.describe(g));
        RepeatedRuns.Verdict faster = g.judge(predictions(runs, model(0.0014)));
        assertFalse(faster.meanWithin(), faster.describe(g));
        assertFalse(faster.p99Within(), faster.describe(g));
        assertFalse(faster.ksWithin(), faster.describe(g));
        // a little slower than the fast server: its mean (-35 %) within the runs' 48 % apart, its distribution (KS D 0.17 to the
        // slow run) farther than the runs are from each other (0.13)
        RepeatedRuns.Verdict nearFast = g.judge(predictions(runs, model(0.0019)));
        assertTrue(nearFast.meanWithin(), nearFast.describe(g));
        assertFalse(nearFast.ksWithin(), nearFast.describe(g));
    }

    @Test
    void twoRunsOfOneServerAreCloserThanRunsOfTwo() {
        RepeatedRuns.Group same = RepeatedRuns.of(List.of(fast, fastAgain), List.of("a", "b")).get(0);
        RepeatedRuns.Group changed = RepeatedRuns.of(List.of(fast, slow), List.of("a", "b")).get(0);
        assertTrue(same.meanRange() < changed.meanRange() / 4, same.describe() + " / " + changed.describe());
        assertTrue(same.ksBetween() < changed.ksBetween() / 2, same.describe() + " / " + changed.describe());
    }

    private static List<RunPrediction> predictions(List<RunData> runs, FittedModel model) throws Exception {
        List<RunPrediction> out = new ArrayList<>();
        for (RunData r : runs) {
            out.add(RunPrediction.open(r.name(), r, model, 7));
        }
        return out;
    }
}
