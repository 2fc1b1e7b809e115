package io.queuelab.sim;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The time-sliced client-limited server against what it must reduce to and one trace worked by hand:
 * a slice longer than every demand is FCFS (M/D/1: 3.0 s at rho 0.8 where sharing gives 5.0 s), a
 * slice far shorter is processor sharing (5.0 s), and two requests 0.2 s apart with 1 s of demand
 * each and a slice of 0.5 s leave at 1.5 and 2.0 s (FCFS: 1.0 and 2.0; sharing: 1.8 and 2.0).
 */
class TimeSlicedServerTest {

    private static SimulationResult open(ClientLimitedModel model, double lambda, long seed) throws Exception {
        return Simulation.of(model, ArrivalProcess.open(lambda)).customers(400_000).replications(4).seed(seed).run();
    }

    @Test
    void aSliceLongerThanEveryDemandIsFcfs() throws Exception {
        var model = new ClientLimitedModel(Distribution.deterministic(1.0), 10_000, 1, 2.0);
        Estimate mean = open(model, 0.8, 31).meanResponse();
        assertEquals(3.0, mean.value(), 0.06, () -> "M/D/1 FCFS is 3.0 s: " + mean);
    }

    @Test
    void aSliceFarShorterThanTheDemandIsProcessorSharing() throws Exception {
        var model = new ClientLimitedModel(Distribution.deterministic(1.0), 10_000, 1, 0.005);
        Estimate mean = open(model, 0.8, 32).meanResponse();
        // a slice of 1/200 of the demand still serves the request that arrives to an idle core a little longer
        // than its share: the mean lies within 3 % of M/D/1-PS's 5.0 s, far from FCFS's 3.0 s
        assertEquals(5.0, mean.value(), 0.15, () -> "M/D/1-PS is 5.0 s: " + mean);
    }

    @Test
    void twoRequestsTakeTurnsSliceBySlice() throws Exception {
        var model = new ClientLimitedModel(Distribution.deterministic(1.0), 8, 1, 0.5);
        SimulationResult r = Simulation.of(model, ArrivalProcess.traceSeconds(new double[] {0, 0.2})).removeWarmup(false).run();
        assertEquals(2, r.customers());
        // A runs 0-0.5, B 0.5-1.0, A 1.0-1.5 (leaves: 1.5 s), B 1.5-2.0 (leaves: 1.8 s after its arrival)
        assertEquals((1.5 + 1.8) / 2, r.meanResponse().value(), 1e-9);
        assertEquals(1.8, r.responseTimes().getMaxValue() / 1e9, 2e-3);
    }

    @Test
    void theConnectionsAndCoresLimitAClosedPopulation() throws Exception {
        // 10 jobs, 3 connections, 2 cores: the cores never idle, so X = 2 / E[D] whatever the slice
        SimulationResult r = Simulation.of(new ClientLimitedModel(Distribution.exponential(1.0), 3, 2, 0.3), ArrivalProcess.closed(10))
                .customers(200_000).replications(4).seed(33).run();
        assertEquals(2.0, r.throughput().value(), 0.03);
    }

    @Test
    void aSliceMustBeAFiniteTime() {
        for (double bad : new double[] {-1, Double.NaN, Double.POSITIVE_INFINITY}) {
            var e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> new ClientLimitedModel(Distribution.exponential(1.0), 1, 1, bad));
            assertTrue(e.getMessage().contains("slice"), e.getMessage());
        }
    }
}
