package io.queuelab.fit;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogWriter;
import io.queuelab.fit.bench.YardstickScalingProbe;
import io.queuelab.fit.compare.Comparison;
import io.queuelab.fit.compare.Distances;
import io.queuelab.fit.compare.LittlesLawCheck;
import io.queuelab.fit.compare.Replications;
import io.queuelab.fit.compare.SimulatedRunModel;
import io.queuelab.fit.runs.RunData;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.DirtyPageBufferModel;
import io.queuelab.sim.FittedModel;
import io.queuelab.sim.MM1Model;
import org.HdrHistogram.Histogram;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompareTest {
    @TempDir
    Path tmp;

    @Test
    void histogramDistancesAgreeWithRawSampleDistances() {
        Random random = new Random(9);
        int n = 20_000;
        double[] a = new double[n], b = new double[n];
        Histogram ha = new Histogram(3), hb = new Histogram(3);
        for (int i = 0; i < n; i++) {
            a[i] = -Math.log(1 - random.nextDouble()) * 0.010;
            b[i] = 0.002 + -Math.log(1 - random.nextDouble()) * 0.011;
            ha.recordValue(Math.round(a[i] * 1e9));
            hb.recordValue(Math.round(b[i] * 1e9));
        }
        Distances d = Distances.between(ha, hb);
        double ks = new KolmogorovSmirnovTest().kolmogorovSmirnovStatistic(a, b);
        assertEquals(ks, d.ks(), 0.005);
        Arrays.sort(a);
        Arrays.sort(b);
        double w1 = 0;
        for (int i = 0; i < n; i++) {
            w1 += Math.abs(a[i] - b[i]) / n;
        }
        assertEquals(w1, d.wasserstein(), 0.01 * w1);
        assertEquals(0, Distances.between(ha, ha).ks(), 0);
        assertEquals(0, Distances.between(ha, ha).wasserstein(), 0);
    }

    @Test
    void theRightModelIsWithinSimulationNoiseAndAWrongOneIsBeyondIt() throws IOException {
        DirtyPageBufferModel table1 = DirtyPageBufferModel.table1();
        ArrivalProcess poisson28 = ArrivalProcess.open(28);
        long n = 20_000;
        // the "measurement": the model itself on other random streams
        SimRuns.write(tmp.resolve("measured"), table1, poisson28, n, 1);
        SimRuns.write(tmp.resolve("simulated"), table1, poisson28, 200_000, 2);
        RunData measured = RunData.read(tmp.resolve("measured"));
        RunData simulated = RunData.read(tmp.resolve("simulated"));
        List<Histogram> replications = new FittedModel("dpb", table1, 0).replications(poisson28, measured.okCount(), 20, 3);
        Comparison right = Comparison.of("measured", measured.responseNanos(), "simulated", simulated.responseNanos(), replications);
        assertEquals(10, right.yardstickPairs());
        assertTrue(right.row("KS D").withinNoise(), right.toString());
        assertTrue(right.row("Wasserstein-1").withinNoise(), right.toString());

        DirtyPageBufferModel slower = DirtyPageBufferModel.of(0.0285, 0.0025, 0.00049, 111, 0.00433);
        SimRuns.write(tmp.resolve("wrong"), slower, poisson28, 200_000, 4);
        RunData wrongRun = RunData.read(tmp.resolve("wrong"));
        Comparison wrong = Comparison.of("measured", measured.responseNanos(), "wrong", wrongRun.responseNanos(), replications);
        assertFalse(wrong.row("KS D").withinNoise(), wrong.toString());
        assertFalse(wrong.row("Wasserstein-1").withinNoise(), wrong.toString());
        assertEquals("beyond it", wrong.row("Wasserstein-1").verdict());

        assertEquals(new SimulatedRunModel(new FittedModel("dpb", table1, 0), poisson28), SimulatedRunModel.of(simulated.manifest()).orElseThrow());
        assertTrue(SimulatedRunModel.of(RunData.read(tmp.resolve("measured")).manifest()).isPresent());
        Replications.Yardstick yardstick = Replications.forSimulatedRun(simulated, 5000, 4, 9);
        assertEquals(4, yardstick.replications().size());
        assertTrue(yardstick.description().contains("model-sim"), yardstick.description());

        List<Histogram> segments = Replications.segments(tmp.resolve("simulated"), measured.okCount(), 6);
        assertEquals(6, segments.size());
        assertEquals(measured.okCount(), segments.get(5).getTotalCount());
    }

    @Test
    void theYardstickScalesEachPairToTheMeasuredSampleSize() {
        Random random = new Random(4);
        Histogram shortA = exponentialSample(random, 5_000), shortB = exponentialSample(random, 3_000);
        Histogram measured = exponentialSample(random, 20_000);
        Comparison c = Comparison.of("measured", measured, "model", exponentialSample(random, 100_000), List.of(shortA, shortB));
        double unscaled = Distances.between(shortA, shortB).ks();
        // two samples of 20,000 are sqrt((2/20,000) / (1/5,000 + 1/3,000)) as far apart as these two are
        double factor = Math.sqrt((2.0 / 20_000) / (1.0 / 5_000 + 1.0 / 3_000));
        assertEquals(factor, Comparison.toSampleSize(20_000, 5_000, 3_000), 1e-12);
        assertEquals(unscaled * factor, c.row("KS D").yardstick(), 1e-12);
        assertEquals(Distances.between(shortA, shortB).wasserstein() * factor, c.row("Wasserstein-1").yardstick(), 1e-12);
        // replications of the measured size are taken as they are
        assertEquals(1, Comparison.toSampleSize(20_000, 20_000, 20_000), 1e-12);
    }

    @Test
    void shortReplicationsScaledGiveTheNoiseOfTheRunsSize() throws IOException {
        // M/M/1 at rho 0.8, 100 pairs each: the mean KS D between replications of 80,000 against those of 20,000
        // scaled by sqrt(20,000 / 80,000); measured 0.93-0.99 of it over four seeds (docs/models.md, "The yardstick")
        FittedModel mm1 = new FittedModel("mm1", MM1Model.exponential(0.01), 0);
        long n = 80_000;
        double direct = YardstickScalingProbe.meanPairKs(mm1.replications(ArrivalProcess.open(80), n, 200, 5), n);
        List<Histogram> shorter = mm1.replications(ArrivalProcess.open(80), 20_000, 200, 15);
        double scaled = YardstickScalingProbe.meanPairKs(shorter, n);
        assertTrue(scaled > 0.8 * direct && scaled < 1.25 * direct, "scaled " + scaled + " against the run size's " + direct);
        double unscaled = YardstickScalingProbe.meanPairKs(shorter, 0);
        assertTrue(unscaled > 1.6 * direct, "without the scale the short replications' noise is twice the run's: " + unscaled + " vs " + direct);
    }

    @Test
    void aLongRunsYardstickReplicationsAreBounded() {
        assertEquals(12_000, Replications.replicationSize(12_000));
        assertEquals(Replications.MAX_REPLICATION_SIZE, Replications.replicationSize(300_000));
        assertEquals(1, Replications.replicationSize(0));
        assertEquals("50000 requests (scaled to the sample's 300000)", Replications.describe(50_000, 300_000));
        assertEquals("12000 requests", Replications.describe(12_000, 12_000));
    }

    private static Histogram exponentialSample(Random random, int count) {
        Histogram h = new Histogram(3);
        for (int i = 0; i < count; i++) {
            h.recordValue(Math.round(-Math.log(1 - random.nextDouble()) * 1e7));
        }
        return h;
    }

    @Test
    void littlesLawHoldsOnAStationaryRunAndFlagsAStall() throws IOException {
        SimRuns.write(tmp.resolve("mm1"), MM1Model.exponential(0.01), ArrivalProcess.open(50), 100_000, 8);
        List<LittlesLawCheck.Window> windows = LittlesLawCheck.check(RunData.read(tmp.resolve("mm1")));
        assertTrue(windows.size() > 150);
        assertTrue(windows.stream().noneMatch(LittlesLawCheck.Window::flagged),
                windows.stream().filter(LittlesLawCheck.Window::flagged).toList().toString());

        Path log = tmp.resolve("stall.qlog");
        try (RequestLogWriter w = RequestLogWriter.create(log, 0)) {
            for (long ms = 0; ms < 100_000; ms += 10) {
                long t = ms * 1_000_000L;
                // requests scheduled in [40 s, 45 s) wait until 58 s
                long done = ms >= 40_000 && ms < 45_000 ? 58_000_000_000L : t + 5_000_000L;
                w.append(t, t, t, done, 0, 0, 0, LogFormat.OK, 0, 0);
            }
        }
        List<LittlesLawCheck.Window> stalled = LittlesLawCheck.check(RunData.read(log), 10, 0.1, 50);
        assertTrue(stalled.get(4).flagged(), stalled.get(4).toString());
        assertFalse(stalled.get(1).flagged());
        assertFalse(stalled.get(8).flagged());
    }
}
