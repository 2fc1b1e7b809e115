package io.queuelab.fit;

import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.LoadDependentFit;
import io.queuelab.fit.Mm1Fits;
import io.queuelab.fit.Mm1Point;
import io.queuelab.fit.ModelFit;
import io.queuelab.fit.Residual;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.LoadDependentModel;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Open runs simulated by model-sim from known M/M/1 parameters are fitted back. */
class Mm1FitTest {
    static final double X = 0.01;   // mu = 100/s
    static final double L = 0.005;  // latency outside the queue
    static final double[] RATES = {1, 20, 40, 55, 70};

    @TempDir
    static Path tmp;
    static List<Mm1Point> points = new ArrayList<>();

    @BeforeAll
    static void simulateSweep() throws IOException {
        for (int i = 0; i < RATES.length; i++) {
            Path dir = tmp.resolve("rate-" + RATES[i]);
            SimRuns.write(dir, SimRuns.modifiedMm1(X, L), ArrivalProcess.open(RATES[i]), 600_000, 100 + i);
            points.add(Mm1Point.of(RunData.read(dir)));
        }
    }

    @Test
    void paperMethodRecoversMuAndLatencyWithin5Percent() {
        ModelFit fit = Mm1Fits.paper(points);
        assertTrue(fit.identified(), fit.toString());
        assertEquals(1 / X, fit.value("mu"), 0.05 / X, fit.toString());
        assertEquals(L, fit.value("l"), 0.05 * L, fit.toString());
        assertEquals(points.get(0).meanResponse(), fit.value("R0"), 1e-12);
        assertTrue(fit.parameter("l").standardError() > 0 && Double.isFinite(fit.parameter("l").standardError()));
        assertEquals(RATES.length, fit.residuals().size());
        for (Residual r : fit.residuals()) {
            assertTrue(Math.abs(r.relative()) < 0.05, fit.toString());
        }
    }

    @Test
    void jointFitRecoversMuAndLatencyWithin5PercentWithStandardErrors() {
        ModelFit fit = Mm1Fits.joint(points);
        assertTrue(fit.identified(), fit.toString());
        assertEquals(1 / X, fit.value("mu"), 0.05 / X, fit.toString());
        assertEquals(L, fit.value("l"), 0.05 * L, fit.toString());
        double seMu = fit.parameter("mu").standardError();
        assertTrue(seMu > 0 && seMu < 0.05 / X, fit.toString());
        assertTrue(fit.rmsRelativeResidual() < 0.03, fit.toString());
        // the curve passes through the model at a rate between the points
        assertEquals(Mm1Fits.meanResponse(50, X, L), fit.curve().applyAsDouble(50), 0.05 * Mm1Fits.meanResponse(50, X, L));
    }

    /**
     * Means that rise faster than an M/M/1's (runs of different servers, or a server that slows with
     * its load) once gave the joint fit a latency of -1.388 ms and a negative fitted mean at the
     * lowest rate, printed as results: a latency is a time outside the server, never below 0.
     */
    @Test
    void theJointFitNeverGivesANegativeLatencyOrMean() {
        List<Mm1Point> steep = List.of(new Mm1Point("100", 100, 0.0005, 20_000), new Mm1Point("400", 400, 0.001, 20_000),
                new Mm1Point("600", 600, 0.003, 20_000), new Mm1Point("700", 700, 0.009, 20_000));
        ModelFit fit = Mm1Fits.joint(steep);
        assertTrue(fit.value("l") >= 0, fit.toString());
        for (Residual r : fit.residuals()) {
            assertTrue(r.fitted() > 0, fit.toString());
        }
    }

    @Test
    void fitsRefuseTooFewOrImpossiblePoints() {
        assertThrows(IllegalArgumentException.class, () -> Mm1Fits.paper(points.subList(0, 1)));
        assertThrows(IllegalArgumentException.class, () -> new Mm1Point("no requests", 10, Double.NaN, 0));
    }

    @Test
    void loadDependentFitRecoversPFromASimulatedLoadDependentServer() throws IOException {
        double x = 0.01, p = 0.02;
        List<Mm1Point> ld = new ArrayList<>();
        double[] rates = {5, 15, 25, 35, 45};
        for (int i = 0; i < rates.length; i++) {
            Path dir = tmp.resolve("ld-" + rates[i]);
            // 1,000,000 requests a run: the fitted p then spreads by 5 % of p over seeds (0.0181-0.0210 in 8), so 25 % is
            // 5 sds; with 200,000 it spread by 16 % (0.0133-0.0223 in 12), and the bound held or not by the seed's luck
            SimRuns.write(dir, LoadDependentModel.exponential(x, p, 1000), ArrivalProcess.open(rates[i]), 1_000_000, 200 + i);
            ld.add(Mm1Point.of(RunData.read(dir)));
        }
        ModelFit fit = LoadDependentFit.fitWithLatency(ld, 1000, 0);
        assertTrue(fit.identified(), fit.toString());
        assertEquals(p, fit.value("p"), 0.25 * p, fit.toString());
        assertEquals(x, fit.value("x"), 0.05 * x, fit.toString());
        ModelFit free = LoadDependentFit.fit(ld, 1000);
        assertTrue(free.rmsRelativeResidual() < 0.01, free.toString());
        assertTrue(Double.isFinite(fit.parameter("p").standardError()), fit.toString());
        // a plain M/M/1 curve fits these points worse than the load-dependent one
        assertTrue(Mm1Fits.joint(ld).rmsRelativeResidual() > fit.rmsRelativeResidual(), fit.toString());
    }
}
