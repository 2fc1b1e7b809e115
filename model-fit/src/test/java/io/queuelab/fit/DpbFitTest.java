package io.queuelab.fit;

import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.runs.SteadyState;
import io.queuelab.fit.DpbFit;
import io.queuelab.fit.FlushDetector;
import io.queuelab.fit.Flushes;
import io.queuelab.fit.RunPrediction;
import io.queuelab.fit.SimulationRefinement;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.DirtyPageBufferModel;
import io.queuelab.sim.MM1Model;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs simulated by model-sim from Table 1 of seed 004 are fitted back the paper's way. */
class DpbFitTest {
    @TempDir
    static Path tmp;
    static RunData open;
    static RunData closed;
    static RunData single;

    @BeforeAll
    static void simulateTable1() throws IOException {
        DirtyPageBufferModel table1 = DirtyPageBufferModel.table1();
        SimRuns.writeFor(tmp.resolve("open-25"), table1, ArrivalProcess.open(25), 3600, 11);
        SimRuns.writeFor(tmp.resolve("closed-50"), table1, ArrivalProcess.closed(50), 3600, 12);
        SimRuns.writeFor(tmp.resolve("closed-1"), table1, ArrivalProcess.closed(1), 20_000, 13);
        open = RunData.read(tmp.resolve("open-25"));
        closed = RunData.read(tmp.resolve("closed-50"));
        single = RunData.read(tmp.resolve("closed-1"));
    }

    @Test
    void detectedFlushesAreTheSimulatorsFlushes() throws IOException {
        long trueFlushes = Files.readAllLines(tmp.resolve("open-25").resolve("flushes.tsv")).stream()
                .filter(line -> !line.isBlank() && Character.isDigit(line.charAt(0))).count();
        Flushes flushes = FlushDetector.detect(open, FlushDetector.threshold(closed));
        assertTrue(trueFlushes > 700, "flushes in the simulation: " + trueFlushes);
        assertEquals(trueFlushes, flushes.count(), 0.02 * trueFlushes);
        // period = DPB_max / lambda (seed 004, equation 1)
        assertEquals(111 / 25.0, flushes.periodSeconds(), 0.05 * 111 / 25.0);
        // the open run's own threshold (what the report uses on a lone log) finds the same flushes, and fit dpb reports those
        Flushes own = FlushDetector.detect(open);
        assertEquals(trueFlushes, own.count(), 0.02 * trueFlushes, "own threshold " + own.thresholdSeconds() + " s");
        assertEquals(flushes.thresholdSeconds(), own.thresholdSeconds(), 0.1 * flushes.thresholdSeconds());
        assertEquals(own.count(), DpbFit.fit(open, closed, single).openFlushes().count());
    }

    /**
     * A server whose normal-period processing is far from exponential (T_proc = 20 ms + Exp(6.9 ms):
     * the same mean as Table 1, a coefficient of variation of 0.26): the fit takes T_proc's shape
     * from the N = 1 run (its responses outside flushes less T_nd's constant), and its model's CDF
     * is less than half as far from the open run's as the paper's exponential T_proc's with the same
     * means, which does not fit.
     */
    @Test
    void aNonExponentialNormalPeriodIsFittedByItsShape() throws IOException {
        DirtyPageBufferModel t1 = DirtyPageBufferModel.table1();
        DirtyPageBufferModel server = new DirtyPageBufferModel(t1.networkDelay(), io.queuelab.sim.Distribution.shiftedExponential(0.020, 0.0069),
                t1.bufferPages(), t1.dirtyPage());
        SimRuns.writeFor(tmp.resolve("shaped-open"), server, ArrivalProcess.open(25), 3600, 31);
        SimRuns.writeFor(tmp.resolve("shaped-closed"), server, ArrivalProcess.closed(50), 3600, 32);
        SimRuns.writeFor(tmp.resolve("shaped-single"), server, ArrivalProcess.closed(1), 20_000, 33);
        RunData shapedOpen = RunData.read(tmp.resolve("shaped-open"));
        // min(T_pause) given, as the paper sets it by examining the runs: the automatic threshold assumes exponential
        // gaps, and this server's ordinary gaps (20 ms + Exp) put it above its 0.48 s flushes
        DpbFit fit = DpbFit.fit(shapedOpen, RunData.read(tmp.resolve("shaped-closed")), RunData.read(tmp.resolve("shaped-single")), 0.2);
        assertTrue(fit.identification().identified(), fit.toString());
        assertEquals(111, fit.bufferPages(), 11.1, fit.toString());
        // T_proc's shape: the N = 1 run's responses outside flushes less c, 20 ms + Exp(6.9 ms) + T_nd's exponential part
        assertEquals(0.0269, fit.normalPeriod().mean(), 0.03 * 0.0269, fit.toString());
        assertEquals(0.020, fit.normalPeriod().lowerBound(), 0.001, fit.toString());
        DpbFit.TestedDpb shaped = fit.tested(shapedOpen, List.of(), 5);
        DpbFit.TestedDpb exponential = fit.exponentialProcessing().tested(shapedOpen, List.of(), 5);
        // the paper's estimates of DPB_max and T_dp carry their own error, so the shaped model is judged against the
        // exponential one with the same estimates, and its median against the run's
        assertTrue(!exponential.lackOfFit().fits(), exponential.lackOfFit().summary());
        assertEquals(shapedOpen.quantileSeconds(0.5), shaped.open().predictedP50(), 0.05 * shapedOpen.quantileSeconds(0.5), shaped.open().toString());
        assertTrue(shaped.open().ks() < exponential.open().ks() / 2, shaped.open() + " vs " + exponential.open());
    }

    /**
     * The fit predicts runs it did not take, each from its own rate: a run at 10/s of the same
     * server (Table 1) within simulation noise, its median within 10 %; a run at 10/s of a server
     * whose processing is 1.5 times slower beyond it. A prediction made at the fit run's rate
     * (25/s) would miss the first as well.
     */
    @Test
    void heldOutRunsArePredictedFromTheirOwnRate() throws IOException {
        DirtyPageBufferModel t1 = DirtyPageBufferModel.table1();
        DirtyPageBufferModel slower = new DirtyPageBufferModel(t1.networkDelay(), io.queuelab.sim.Distribution.exponential(1.5 * 0.0269),
                t1.bufferPages(), t1.dirtyPage());
        SimRuns.writeFor(tmp.resolve("held-out-10"), t1, ArrivalProcess.open(10), 900, 21);
        SimRuns.writeFor(tmp.resolve("slower-10"), slower, ArrivalProcess.open(10), 900, 22);
        RunData same = RunData.read(tmp.resolve("held-out-10"));
        DpbFit.TestedDpb tested = DpbFit.fit(open, closed, single).tested(open, List.of(same, RunData.read(tmp.resolve("slower-10"))), 5);
        RunPrediction at10 = tested.heldOut().get(0);
        assertEquals(10, at10.level(), 0.5, at10.toString());
        assertTrue(at10.withinYardstick(), at10.toString());
        assertEquals(same.quantileSeconds(0.5), at10.predictedP50(), 0.1 * same.quantileSeconds(0.5), at10.toString());
        assertTrue(!tested.heldOut().get(1).withinYardstick(), tested.heldOut().get(1).toString());
        assertEquals(1, tested.heldOutWithinNoise());
        assertEquals("predicts: response-time CDF within simulation noise at 1 of 2 held-out runs", tested.predictionSummary());
    }

    @Test
    void aGivenMinimumPauseIsUsedInBothRuns() throws IOException {
        // Table 1's flushes last ~0.48 s, and the automatic threshold is ~0.385 s: a min(T_pause) of 0.2 s finds every
        // flush and some ordinary gaps between 0.2 and 0.385 s besides (916-945 pauses against 802-809 found
        // automatically and 806-812 true flushes, in ten runs of this design). It was asserted "within 15 % of the
        // automatic count", which held by 4 pauses on one sample path and failed on the next
        DpbFit fit = DpbFit.fit(open, closed, single, 0.2);
        assertEquals(0.2, fit.pauseThresholdSeconds());
        assertEquals(0.2, fit.openFlushes().thresholdSeconds());
        int automatic = DpbFit.fit(open, closed, single).openFlushes().count();
        long trueFlushes = Files.readAllLines(tmp.resolve("open-25").resolve("flushes.tsv")).stream()
                .filter(line -> !line.isBlank() && Character.isDigit(line.charAt(0))).count();
        int given = fit.openFlushes().count();
        assertTrue(given > automatic && given >= 0.99 * trueFlushes && given <= 1.25 * trueFlushes,
                "flushes in the open run at 0.2 s: " + given + ", automatic " + automatic + ", true " + trueFlushes);
        assertEquals(0.48, fit.meanPauseSeconds(), 0.48 * 0.1, "T_pause of the closed run");
        // one above every flush finds none
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> DpbFit.fit(open, closed, single, 5));
        assertTrue(none.getMessage().startsWith("no flush pauses longer than 5"), none.getMessage());
        assertThrows(IllegalArgumentException.class, () -> DpbFit.fit(open, closed, single, -1));
    }

    @Test
    void table1IsRecoveredWithin10PercentPerParameter() {
        DpbFit fit = DpbFit.fit(open, closed, single);
        String table = fit.toString();
        assertTrue(fit.identification().identified(), table);
        assertEquals(111, fit.bufferPages(), 11.1, table);
        assertEquals(0.0269, fit.processingMean(), 0.00269, table);
        assertEquals(0.00433, fit.dirtyPageMean(), 0.000433, table);
        assertEquals(0.0025, fit.networkDelayConstant(), 0.00025, table);
        assertEquals(0.0025 + 0.00049, fit.networkDelayTotal(), 0.1 * (0.0025 + 0.00049), table);
        assertEquals(4, fit.table1().size());
    }

    /**
     * The exponential part of T_nd (truth 0.49 ms) is E[T] of the N = 1 run minus 1/P of the
     * closed run minus min T: a small difference of large means, as precise as those means. Their
     * 95 % half-widths come from sectioning (SteadyState); 1/P = E[R]/50 in a closed loop of 50
     * jobs without think time (Little's law). The estimate must lie within 1.6 half-widths of the
     * truth (about 3.3 standard errors; the runs' seeds are fixed), and that bound must be
     * narrower than the truth itself, so the check says that T_nd has an exponential part.
     */
    @Test
    void theExponentialPartOfTndIsWithinItsStandardErrorOfTable1() throws IOException {
        DpbFit fit = DpbFit.fit(open, closed, single);
        double singleHalfWidth = SteadyState.of(tmp.resolve("closed-1")).phases().get(0).mean().halfWidth();
        double closedHalfWidth = SteadyState.of(tmp.resolve("closed-50")).phases().get(0).mean().halfWidth() / 50;
        double halfWidth = Math.hypot(singleHalfWidth, closedHalfWidth);
        double bound = 1.6 * halfWidth;
        String why = String.format(java.util.Locale.ROOT, "E[T_nd] - c = %.6f s, 95 %% half-width %.6f s (N = 1 run %.6f,"
                + " closed run %.6f)%n%s", fit.networkDelayMean(), halfWidth, singleHalfWidth, closedHalfWidth, fit.toString());
        assertEquals(0.00049, fit.networkDelayMean(), bound, why);
        assertTrue(bound < 0.00049, why);
    }

    @Test
    void refinementBySimulationMovesAPerturbedStartTowardsTable1() throws IOException {
        DpbFit fit = DpbFit.fit(open, closed, single);
        DpbFit perturbed = new DpbFit(fit.processingMean() * 1.15, fit.networkDelayConstant(), fit.networkDelayMean(), 85,
                fit.dirtyPageMean() * 0.8, fit.flushPeriodSeconds(), fit.openThroughput(), fit.pauseThresholdSeconds(),
                fit.meanPauseSeconds(), fit.closedThroughput(), fit.singleMeanResponse(), fit.openFlushes(), fit.closedFlushes(),
                fit.normalPeriod());
        SimulationRefinement.DpbRefinement refined = SimulationRefinement.refineDpb(open, perturbed, 80, 21);
        String table = refined.toString();
        assertTrue(refined.result().distance() < 0.5 * refined.result().startDistance(), table);
        assertTrue(refined.result().distance() < 0.03, table);
        // one open run's response times do not pin down T_proc, T_dp and DPB_max separately (they trade
        // off), so only the distance is asserted
        // the paper-method fit itself already reproduces the open run as closely as the refined perturbed start
        SimulationRefinement.DpbRefinement fromPaper = SimulationRefinement.refineDpb(open, fit, 1, 21);
        assertTrue(fromPaper.result().startDistance() < 0.03, fromPaper.toString());
    }

    @Test
    void aServerWithoutFlushesIsNotGivenADirtyPageBuffer() throws IOException {
        SimRuns.write(tmp.resolve("mm1-closed"), MM1Model.exponential(0.01), ArrivalProcess.closed(20), 100_000, 5);
        RunData noFlush = RunData.read(tmp.resolve("mm1-closed"));
        assertEquals(0, FlushDetector.detect(noFlush).count());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DpbFit.fit(open, noFlush, single));
        assertTrue(e.getMessage().contains("no flush"), e.getMessage());
    }
}
