package io.queuelab.fit;

import io.queuelab.fit.runs.LogCounters;
import io.queuelab.fit.runs.RunData;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.Distribution;
import io.queuelab.sim.FittedModel;
import io.queuelab.sim.GroupCommitModel;
import io.queuelab.sim.SimulationResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The group-commit candidate on runs of a known group-commit server (16 connections, one core,
 * 40 us of cpu, flushes of 200 us + Exp(100 us) and 20 us a commit, 100 us of latency), whose
 * counters say the cpu per request and the commits per fsync the simulation did: F0 and p are
 * found from the counters alone, and runs it was not fitted to (two open rates, one below the
 * lowest fit rate, and closed runs of 1 and 8 jobs) are predicted, their commits per flush with them.
 */
class GroupCommitFitTest {
    static final int K = 16;
    static final GroupCommitModel TRUTH = new GroupCommitModel(Distribution.exponential(0.00004), K, 1,
            Distribution.shiftedExponential(0.0002, 0.0001), 0.00002, 0);
    static final double LATENCY = 0.0001;

    @Test
    void theFlushFoundFromTheCountersPredictsRunsItWasNotFittedTo(@TempDir Path dir) throws Exception {
        List<Path> fit = fitRuns(dir);
        List<Path> held = List.of(run(dir.resolve("held-800"), ArrivalProcess.open(800), 50, true),
                run(dir.resolve("held-9500"), ArrivalProcess.open(9500), 51, true),
                run(dir.resolve("closed-1"), ArrivalProcess.closed(1), 52, true),
                run(dir.resolve("closed-8"), ArrivalProcess.closed(8), 53, true));
        HeldOutValidation.Result result = HeldOutValidation.run(fit, held, CandidateModels.STANDARD.named("group-commit"), K, 1, 3);
        var model = result.model("group-commit");
        assertTrue(model.fit().identified(), model.fit().fit().identification().reason() + "\n" + model.fit().fit().residuals());
        ModelFit f = model.fit().fit();
        assertEquals(0.0003, f.value("F0"), 0.15 * 0.0003, f.toString());
        assertEquals(0.00002, f.value("p"), 0.5 * 0.00002, f.toString());
        assertEquals(LATENCY, f.value("latency"), 0.3 * LATENCY, f.toString());
        for (RunPrediction p : model.predictions()) {
            assertFalse(p.saturated(), p.name());
            assertTrue(Math.abs(p.meanError()) < 0.05, () -> p.name() + " mean error " + p.meanError() + "\n" + f.toString());
            assertTrue(Math.abs(p.p99Error()) < 0.15, () -> p.name() + " p99 error " + p.p99Error());
            // the model's group commit against the counters of the run it was not fitted to
            assertEquals(0, p.commits().error(), 0.08, () -> p.name() + ": " + p.commits());
            if (p.closed()) {
                int jobs = p.name().endsWith("closed-8") ? 8 : 1;
                assertEquals(1, p.predictedThroughput() * p.predictedMean() / jobs, 0.02, p.name() + ": Little's law");
            }
        }
    }

    /**
     * With the client time measured apart (round trips of the truth: its latency and nothing else), the latency is that
     * measurement, not a split fitted beside the flush; the flush of one commit is what it leaves, and the held-out runs are
     * predicted as well. A closed round trip of another latency is the latency of closed predictions alone.
     */
    @Test
    void aClientTimeMeasuredApartIsTheLatencyOfOpenAndClosedPredictions(@TempDir Path dir) throws Exception {
        List<Path> fit = fitRuns(dir);
        fit.add(roundTrip(dir.resolve("round-trip-open"), 0, LATENCY));
        double closedTrip = 0.00003;
        fit.add(roundTrip(dir.resolve("round-trip-closed"), 1, closedTrip));
        List<Path> held = List.of(run(dir.resolve("held-800"), ArrivalProcess.open(800), 50, true),
                run(dir.resolve("held-9500"), ArrivalProcess.open(9500), 51, true));
        HeldOutValidation.Result result = HeldOutValidation.run(fit, held, CandidateModels.STANDARD.named("group-commit"), K, 1, 3);
        assertEquals(LATENCY, result.clientTime().orElseThrow().open().seconds(), 1e-9);
        var model = result.model("group-commit");
        assertTrue(model.fit().identified(), model.fit().fit().identification().reason() + "\n" + model.fit().fit().residuals());
        ModelFit f = model.fit().fit();
        assertEquals(LATENCY, f.value("latency"), 1e-9, f.toString());
        assertTrue(f.toString().contains("latency: the client time"), f.toString());
        assertEquals(0.0003, f.value("F0"), 0.15 * 0.0003, f.toString());
        assertEquals(0.00002, f.value("p"), 0.5 * 0.00002, f.toString());
        assertEquals(LATENCY, model.fit().model(800).latency(), 1e-9);
        assertEquals(closedTrip, model.fit().closedModel().apply(4).latency(), 1e-9, "a closed load's latency: the closed round trip's");
        for (RunPrediction p : model.predictions()) {
            assertFalse(p.saturated(), p.name());
            assertTrue(Math.abs(p.meanError()) < 0.05, () -> p.name() + " mean error " + p.meanError() + "\n" + f.toString());
            assertTrue(Math.abs(p.p99Error()) < 0.15, () -> p.name() + " p99 error " + p.p99Error());
            assertEquals(0, p.commits().error(), 0.08, () -> p.name() + ": " + p.commits());
        }
    }

    /**
     * A round trip of the truth's client ({@code SELECT 1}: no cpu, no commit), each response {@code latency}: Poisson
     * arrivals at 1,000/s ({@code jobs} 0), or one job back to back.
     */
    static Path roundTrip(Path dir, int jobs, double latency) throws Exception {
        java.util.Random random = EmulatedRun.random(jobs);
        int n = 5_000;
        double[] intended = new double[n], sent = new double[n], completed = new double[n];
        double t = 0;
        for (int i = 0; i < n; i++) {
            t = jobs > 0 ? (i == 0 ? 0 : completed[i - 1]) : t - Math.log(1 - random.nextDouble()) / 1000;
            intended[i] = t;
            sent[i] = t;
            completed[i] = t + latency;
        }
        return new EmulatedRun(intended, sent, completed).write(dir, jobs > 0 ? 0 : 1000, jobs, Math.max(1, jobs), 1, 100, 1,
                ClientTime.OPERATION);
    }

    @Test
    void aWorkloadThatCommitsNothingLeavesItUnidentifiedWithTheReason(@TempDir Path dir) throws Exception {
        List<Path> fit = new ArrayList<>();
        long seed = 60;
        for (double rate : new double[] {1500, 4000, 8000}) {
            fit.add(run(dir.resolve("rate-" + (int) rate), ArrivalProcess.open(rate), seed++, false));
        }
        var model = HeldOutValidation.run(fit, List.of(run(dir.resolve("held"), ArrivalProcess.open(9000), 70, false)),
                CandidateModels.STANDARD.named("group-commit"), K, 1, 3).model("group-commit");
        assertFalse(model.fit().identified());
        assertTrue(model.fit().fit().identification().reason().contains("commit and fsync counters"),
                model.fit().fit().identification().reason());
    }

    /** The truth's open runs at 1,500, 4,000, 8,000 and 11,000/s, with their counters. */
    private static List<Path> fitRuns(Path dir) throws Exception {
        List<Path> fit = new ArrayList<>();
        long seed = 40;
        for (double rate : new double[] {1500, 4000, 8000, 11000}) {
            fit.add(run(dir.resolve("rate-" + (int) rate), ArrivalProcess.open(rate), seed++, true));
        }
        return fit;
    }

    /**
     * A run of the truth, with the counters its server would have: cpu per request, and (when
     * {@code commits}) Com_update and Innodb_data_fsyncs over the run, in the ratio the simulated
     * flushes carried; a read-only workload's counters count no commit.
     */
    private static Path run(Path dir, ArrivalProcess workload, long seed, boolean commits) throws Exception {
        SimulationResult r = SimRuns.write(dir, new FittedModel("group-commit", TRUTH, LATENCY), workload, 40_000, seed);
        long records = RunData.read(dir).records();
        long fsyncs = Math.round(records / r.flushSize().orElseThrow().value());
        ServerCounters.write(dir, TRUTH.cpu().mean() * records, commits ? records : 0, fsyncs, r.responseTimes().getTotalCount() / 1e4);
        assertEquals(commits, LogCounters.of(RunData.read(dir)).isPresent());
        return dir;
    }
}
