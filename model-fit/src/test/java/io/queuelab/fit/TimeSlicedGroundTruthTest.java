package io.queuelab.fit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * client-slice judged by ground truth that shares no code with model-sim
 * ({@link TimeSlicedGroundTruth}, a time-stepped emulation), itself first checked against exact
 * results: a request alone, M/M/1 and M/M/2 means (any slice: with exponential demands the
 * number inside does not depend on the order served), the M/M/1 FCFS p99 and the M/D/1 mean.
 * Then the candidate, fitted through validate's path on four open runs of the truth (50-450/s of
 * a 1.6 ms + Exp(0.2 ms) demand on one core sliced every 2 ms on average, 16 connections),
 * predicts loads it was not fitted to, below its lowest fit rate, inside the range and at 0.95
 * X_max, each mean and p99 within the bound {@link TruthAtLoad} derives from the truth's own
 * replications, and each CDF within its yardstick.
 */
class TimeSlicedGroundTruthTest {
    static final int REQUESTS = 20_000;
    static final int WARMUP = 1_000;
    /** Replications of the truth at each load (the first is the held-out run validate is given). */
    static final int REPLICATIONS = 5;

    static final TimeSlicedGroundTruth.Demand TIGHT = r -> 0.0016 + exponential(r, 0.0002);
    static final TimeSlicedGroundTruth.Server SLICER = new TimeSlicedGroundTruth.Server(TIGHT, 16, 1, 0.002);
    static final double X_MAX = 1 / 0.0018;

    @Test
    void theEmulationMeetsExactResults() {
        // a request alone takes its demand
        var alone = TimeSlicedGroundTruth.open(new TimeSlicedGroundTruth.Server(r -> 0.0017, 16, 1, 0.002), 1, 1, 1);
        assertEquals(0.0017, alone.completed()[0] - alone.intended()[0], 1e-12);

        // exponential demand of 1.8 ms at 70 % of one core: E[R] = x / (1 - rho) = 6 ms whatever the slice; FCFS: R ~ Exp(mu - lambda)
        double x = 0.0018, lambda = 0.7 / x;
        TimeSlicedGroundTruth.Demand exponential = r -> exponential(r, x);
        assertMean(x / 0.3, new TimeSlicedGroundTruth.Server(exponential, 16, 1, 0.002), lambda, "M/M/1, 2 ms slices");
        TimeSlicedGroundTruth.Server fcfs = new TimeSlicedGroundTruth.Server(exponential, 1 << 20, 1, Double.POSITIVE_INFINITY);
        assertMean(x / 0.3, fcfs, lambda, "M/M/1 FCFS");
        double[] p99 = IntStream.range(0, REPLICATIONS).mapToDouble(i -> TimeSlicedGroundTruth.open(fcfs, lambda, REQUESTS, 10 + i)
                .quantile(WARMUP, 0.99)).toArray();
        assertWithinReplications(Math.log(100) * x / 0.3, p99, "M/M/1 FCFS p99");
        // two cores at rho = 0.7 with 1 ms slices: M/M/2, E[R] = x + P(wait) x / (2 (1 - rho)), P(wait) = 2 rho^2 / (1 + rho)
        double rho = 0.7;
        assertMean(x + 2 * rho * rho / (1 + rho) * x / (2 * (1 - rho)), new TimeSlicedGroundTruth.Server(exponential, 16, 2, 0.001),
                2 * rho / x, "M/M/2, 1 ms slices");
        // M/D/1 FCFS at rho = 0.6: E[R] = x + rho x / (2 (1 - rho))
        assertMean(0.001 + 0.6 * 0.001 / 0.8, new TimeSlicedGroundTruth.Server(r -> 0.001, 1 << 20, 1, Double.POSITIVE_INFINITY), 600,
                "M/D/1");
    }

    @Test
    void heldOutPredictionsMeetTheTruthBelowInsideAndBeyondTheFittedRange(@TempDir Path dir) throws Exception {
        List<Path> fit = new ArrayList<>();
        long seed = 100;
        for (double rate : new double[] {50, 150, 300, 450}) {
            fit.add(TimeSlicedGroundTruth.open(SLICER, rate, REQUESTS, seed++).write(dir.resolve("fit-" + rate), rate, 0, 16, 1, WARMUP, seed));
        }
        List<Path> held = new ArrayList<>();
        List<TruthAtLoad> truths = new ArrayList<>();
        // a held-out run and each replication of its load: longer at 0.95 X_max, where one run's mean strays the most
        for (double[] load : new double[][] {{25, REQUESTS}, {250, REQUESTS}, {0.95 * X_MAX, 3 * REQUESTS}}) {
            double rate = load[0];
            List<EmulatedRun> replications = new ArrayList<>();
            for (int i = 0; i < REPLICATIONS; i++) {
                replications.add(TimeSlicedGroundTruth.open(SLICER, rate, (int) load[1], Math.round(1000 * rate) + i));
            }
            held.add(replications.get(0).write(dir.resolve("held-" + rate), rate, 0, 16, 1, WARMUP, 0));
            truths.add(TruthAtLoad.of(String.format(java.util.Locale.ROOT, "%.1f/s", rate), replications, WARMUP));
        }
        HeldOutValidation.Result result = HeldOutValidation.run(fit, held, CandidateModels.STANDARD.named(TimeSlicedCandidate.NAME), 16, 1, 1);
        System.out.print(Outcomes.describe(result));
        truths.forEach(t -> System.out.println("truth " + t.describe()));
        var sliced = result.model(TimeSlicedCandidate.NAME);
        assertTrue(sliced.fit().identified(), sliced.fit().fit().toString());
        for (int i = 0; i < truths.size(); i++) {
            RunPrediction p = sliced.predictions().get(i);
            truths.get(i).assertPredicted(p, TimeSlicedCandidate.NAME);
            assertTrue(p.withinYardstick(), () -> p.name() + ": KS D " + p.ks() + " beyond its yardstick " + p.ksYardstick());
        }
    }

    @Test
    void fixedSlicesArePredictedByTheFixedCandidateAndNotByExponentialSlices(@TempDir Path dir) throws Exception {
        // the same demand on a core sliced every 2 ms exactly: a demand beyond 2 ms (e^-2, 13.5 % of them) waits a round of the
        // others for its rest, which closed runs show as a mode a round late. Fitted on the four open runs, held out: a closed
        // run of 16 jobs (16 connections), where every request finds the others queued
        TimeSlicedGroundTruth.Server fixed = new TimeSlicedGroundTruth.Server(TIGHT, 16, 1, 0.002, true);
        List<Path> fit = new ArrayList<>();
        long seed = 200;
        for (double rate : new double[] {50, 150, 300, 450}) {
            fit.add(TimeSlicedGroundTruth.open(fixed, rate, REQUESTS, seed++).write(dir.resolve("fit-" + rate), rate, 0, 16, 1, WARMUP, seed));
        }
        List<EmulatedRun> replications = new ArrayList<>();
        for (int i = 0; i < REPLICATIONS; i++) {
            replications.add(TimeSlicedGroundTruth.closed(fixed, 16, REQUESTS, 300 + i));
        }
        List<Path> held = List.of(replications.get(0).write(dir.resolve("held-closed-16"), 0, 16, 16, 1, WARMUP, 0));
        TruthAtLoad truth = TruthAtLoad.of("N = 16", replications, WARMUP);
        HeldOutValidation.Result result = HeldOutValidation.run(fit, held,
                CandidateModels.STANDARD.named(TimeSlicedCandidate.NAME + "," + TimeSlicedCandidate.FIXED_NAME), 16, 1, 1);
        System.out.print(Outcomes.describe(result));
        System.out.println("truth " + truth.describe());
        var sliced = result.model(TimeSlicedCandidate.FIXED_NAME);
        assertTrue(sliced.fit().identified(), sliced.fit().fit().toString());
        RunPrediction p = sliced.predictions().get(0);
        truth.assertPredicted(p, TimeSlicedCandidate.FIXED_NAME);
        assertTrue(p.withinYardstick(), () -> p.name() + ": KS D " + p.ks() + " beyond its yardstick " + p.ksYardstick());
        RunPrediction exponential = result.model(TimeSlicedCandidate.NAME).predictions().get(0);
        assertFalse(exponential.withinYardstick(), () -> "exponential slices: KS D " + exponential.ks() + " within " + exponential.ksYardstick());
        assertEquals(TimeSlicedCandidate.FIXED_NAME, result.selected());
    }

    /** The mean of {@link #REPLICATIONS} runs of {@code server} at {@code lambda} against {@code exact}. */
    private static void assertMean(double exact, TimeSlicedGroundTruth.Server server, double lambda, String what) {
        double[] means = IntStream.range(0, REPLICATIONS).mapToDouble(i -> TimeSlicedGroundTruth.open(server, lambda, REQUESTS, i)
                .meanResponse(WARMUP)).toArray();
        assertWithinReplications(exact, means, what);
    }

    /**
     * The replications' average within Student's t (99.5 %, R - 1 degrees of freedom) standard
     * errors of {@code exact}: what their own spread allows, the steps' error included in it.
     */
    static void assertWithinReplications(double exact, double[] replications, String what) {
        double average = java.util.Arrays.stream(replications).average().orElseThrow();
        double t = new org.apache.commons.math3.distribution.TDistribution(replications.length - 1).inverseCumulativeProbability(0.995);
        double bound = t * TruthAtLoad.spread(replications) / Math.sqrt(replications.length);
        assertEquals(exact, average, bound, () -> what + ": the emulation's " + average + " s against the exact " + exact + " s");
    }

    static double exponential(Random random, double mean) {
        return -mean * Math.log(1 - random.nextDouble());
    }
}
