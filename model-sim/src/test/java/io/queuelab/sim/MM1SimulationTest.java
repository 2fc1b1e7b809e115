package io.queuelab.sim;

import io.queuelab.sim.analytic.MM1;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The FCFS simulator against the M/M/1 closed forms (mean service 1 s, so rho = lambda). */
class MM1SimulationTest {

    @ParameterizedTest
    @ValueSource(doubles = {0.5, 0.8, 0.9})
    void meanResponseIntervalCoversTheoryAndQuantilesMatchTheExponential(double rho) throws Exception {
        MM1 theory = new MM1(rho, 1.0);
        // heavier load is more autocorrelated: more customers for the same precision
        long customers = rho < 0.85 ? 2_000_000 : 5_000_000;
        SimulationResult result = Simulation.of(MM1Model.exponential(1.0), ArrivalProcess.open(rho))
                .customers(customers).replications(4).seed(20261121L).run();

        // MSER-5 deletes little from a run that starts empty: most customers are counted
        assertTrue(result.customers() > 0.9 * 4 * customers, "counted " + result.customers());
        Estimate mean = result.meanResponse();
        assertTrue(mean.covers(theory.meanResponse()),
                () -> "CI " + mean + " does not cover " + theory.meanResponse());
        assertTrue(mean.relativeHalfWidth() < 0.03, () -> "interval too wide to mean anything: " + mean);
        for (double q : new double[] {0.5, 0.9, 0.99}) {
            double expected = theory.responseQuantile(q);
            double simulated = result.quantile(q).value();
            assertEquals(expected, simulated, 0.03 * expected, "p" + q * 100 + " at rho " + rho);
        }
        assertEquals(rho, result.throughput().value(), 0.01 * rho, "throughput");
        assertEquals(theory.meanPopulation(), result.meanPopulation().value(), 0.05 * theory.meanPopulation(), "population");
    }
}
