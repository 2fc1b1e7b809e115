package io.queuelab.fit;

import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.Identification;
import io.queuelab.fit.LoadDependentFit;
import io.queuelab.fit.Mm1Fits;
import io.queuelab.fit.Mm1Point;
import io.queuelab.fit.ModelFit;
import io.queuelab.sim.ArrivalProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fits say when their data cannot identify the parameters, by the statistics: clean sweeps
 * identify (at low utilization too, and up to the knee); noisy or falling ones do not, and their
 * tables show the reason instead of numbers.
 */
class IdentificationTest {
    static final double X = 0.01;
    static final double L = 0.005;

    @TempDir
    Path tmp;

    private List<Mm1Point> sweep(double[] rates, long customers, long seed) throws IOException {
        List<Mm1Point> points = new ArrayList<>();
        for (double rate : rates) {
            Path dir = tmp.resolve("rate-" + rate + "-" + customers);
            SimRuns.write(dir, SimRuns.modifiedMm1(X, L), ArrivalProcess.open(rate), customers, seed++);
            points.add(Mm1Point.of(RunData.read(dir)));
        }
        return points;
    }

    @Test
    void cleanDataAtLowUtilizationIdentifiesTheModel() throws IOException {
        // utilization 0.01 .. 0.25: the curve bends little, but a million requests per rate measure it
        List<Mm1Point> points = sweep(new double[] {1, 7, 13, 19, 25}, 1_000_000, 300);
        for (ModelFit fit : List.of(Mm1Fits.paper(points), Mm1Fits.joint(points))) {
            assertTrue(fit.identified(), fit.toString());
            assertTrue(fit.toString().contains("utilization reached 0.2"), fit.toString());
        }
        ModelFit joint = Mm1Fits.joint(points);
        assertEquals(1 / X, joint.value("mu"), 0.1 / X, joint.toString());
        // the evidence includes how far the curve misses the points, in their own standard errors
        assertTrue(joint.identification().summary().matches(".*largest residual -?[0-9]+ % \\([0-9.]+ standard errors of its point\\).*"),
                joint.identification().summary());
    }

    @Test
    void noisyDataAtLowUtilizationDoesNot() {
        // a flat sweep whose means scatter by +-3 % (standard errors 2 %): no bend to measure x by
        double[] rates = {1, 3, 5, 7, 9};
        double[] scatter = {0.02, -0.03, 0.01, -0.02, 0.03};
        List<Mm1Point> points = new ArrayList<>();
        for (int i = 0; i < rates.length; i++) {
            double mean = 0.015 * (1 + scatter[i]);
            points.add(new Mm1Point("rate-" + rates[i], rates[i], mean, 2000, 0.02 * 0.015));
        }
        for (ModelFit fit : List.of(Mm1Fits.paper(points), Mm1Fits.joint(points))) {
            assertFalse(fit.identified(), fit.toString());
            assertNotIdentifiedTable(fit);
        }
    }

    @Test
    void aSweepUpToTheKneeIdentifiesMuWithin5Percent() throws IOException {
        List<Mm1Point> points = sweep(new double[] {10, 30, 50, 70, 80, 90}, 400_000, 500);
        for (ModelFit fit : List.of(Mm1Fits.paper(points), Mm1Fits.joint(points))) {
            assertTrue(fit.identified(), fit.toString());
            assertEquals(1 / X, fit.value("mu"), 0.05 / X, fit.toString());
            assertTrue(fit.toString().contains("utilization reached 0.9"), fit.toString());
        }
    }

    @Test
    void aMeanThatFallsWithTheRateIsNotIdentified() {
        // the demo's SELECT sweep before the knee: warm-up and CPU wake-up, not queueing
        // (means of 20 s runs, standard errors by sectioning)
        List<Mm1Point> falling = List.of(new Mm1Point("200", 200, 0.000373, 4000, 0.000008),
                new Mm1Point("500", 500, 0.000290, 10_000, 0.000006), new Mm1Point("1000", 1000, 0.000201, 20_000, 0.000004),
                new Mm1Point("2000", 2000, 0.000215, 40_000, 0.000005));
        for (ModelFit fit : List.of(Mm1Fits.paper(falling), Mm1Fits.joint(falling),
                LoadDependentFit.fitWithLatency(falling, LoadDependentFit.DEFAULT_CAPACITY, 0))) {
            assertFalse(fit.identified(), fit.toString());
            assertTrue(fit.identification().reason().contains("falls as the rate rises"), fit.toString());
            assertNotIdentifiedTable(fit);
        }
    }

    @Test
    void aSweepWhoseTopRatesOverloadTheServerPinsTheCurveAtSaturation() {
        // the demo's range sweep on a shared 2-core machine: means and sectioning errors of its runs; the top two rates
        // were beyond what the server sustained (2 s means that drift), so the paper's curve sits at utilization 0.999
        List<Mm1Point> overloaded = List.of(new Mm1Point("87", 83.32, 0.002943, 1000, 0.000193),
                new Mm1Point("262", 255.08, 0.003032, 3060, 0.000279), new Mm1Point("437", 429.09, 0.013794, 5149, 0.002985),
                new Mm1Point("611", 607.04, 0.062979, 7285, 0.012532), new Mm1Point("699", 692.83, 2.434912, 8314, 0.224924),
                new Mm1Point("786", 782.95, 2.076097, 9393, 0.320498));
        ModelFit paper = Mm1Fits.paper(overloaded);
        assertFalse(paper.identified(), paper.toString());
        assertTrue(paper.identification().reason().contains("pinned at its bound"), paper.toString());
        assertFalse(Mm1Fits.joint(overloaded).identified(), Mm1Fits.joint(overloaded).toString());
    }

    @Test
    void aSearchThatMeetsASingularJacobianIsNotIdentifiedInsteadOfFailing() {
        // the demo's UPDATE fit runs of 2026-11-26 (0.1, 0.3, 0.7, 0.9 X_max; the last overloaded, 309 ms): the
        // load-dependent search reached a point where its 4x3 Jacobian had no QR decomposition, and the report died
        List<Mm1Point> update = List.of(new Mm1Point("rate-1701.9", 1701.9, 336.4e-6, 20454),
                new Mm1Point("rate-5105.7", 5105.7, 585.8e-6, 61067), new Mm1Point("rate-11913.2", 11913.2, 1.03e-3, 142596),
                new Mm1Point("rate-15317", 15317, 308.7e-3, 183770));
        ModelFit fit = LoadDependentFit.fit(update, LoadDependentFit.DEFAULT_CAPACITY);
        assertFalse(fit.identified(), fit.toString());
        assertTrue(fit.identification().reason().contains("the least-squares search found no optimum"), fit.toString());
        assertNotIdentifiedTable(fit);
    }

    @Test
    void twoPointsThatFallAreNotIdentifiedEither() {
        // without standard errors on the points
        List<Mm1Point> two = List.of(new Mm1Point("a", 100, 0.002, 1000), new Mm1Point("b", 200, 0.0015, 1000));
        Identification paper = Mm1Fits.paper(two).identification();
        assertFalse(paper.identified(), paper.summary());
        assertTrue(paper.reason().contains("falls as the rate rises, from 0.002000 s to 0.001500 s"), paper.summary());
    }

    /** An unidentified fit says why, and gives no parameter (its table, FitTablesTest in reports, shows the reason in their place). */
    private static void assertNotIdentifiedTable(ModelFit fit) {
        assertFalse(fit.identified(), fit.toString());
        assertTrue(fit.identification().summary().startsWith("not identified: "), fit.identification().summary());
    }
}
