package io.queuelab.sim;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The time-sliced client-limited server against what it must reduce to: a mean slice far longer
 * than every demand is FCFS (M/D/1: 3.0 s at rho 0.8 where sharing gives 5.0 s), one far shorter is
 * processor sharing (5.0 s), and between them the mean response falls as the slice grows, smoothly
 * around the demand (the slices' lengths are random, so a demand just over one is not served a round
 * late); a closed
 * population that keeps the cores busy runs at their capacity whatever the slice.
 */
class TimeSlicedServerTest {

    private static Estimate meanAt(double slice, long seed) throws Exception {
        var model = new ClientLimitedModel(Distribution.deterministic(1.0), 10_000, 1, slice);
        return Simulation.of(model, ArrivalProcess.open(0.8)).customers(400_000).replications(4).seed(seed).run().meanResponse();
    }

    @Test
    void aSliceFarLongerThanEveryDemandIsFcfs() throws Exception {
        // a slice of mean 1000 s preempts a 1 s demand once in a thousand
        Estimate mean = meanAt(1000, 31);
        assertEquals(3.0, mean.value(), 0.06, () -> "M/D/1 FCFS is 3.0 s: " + mean);
    }

    @Test
    void aSliceFarShorterThanTheDemandIsProcessorSharing() throws Exception {
        Estimate mean = meanAt(0.005, 32);
        assertEquals(5.0, mean.value(), 0.15, () -> "M/D/1-PS is 5.0 s: " + mean);
    }

    @Test
    void theMeanResponseFallsFromSharingToFcfsAsTheSliceGrows() throws Exception {
        double shortSlice = meanAt(0.1, 33).value(), demandLong = meanAt(1.0, 33).value(), longSlice = meanAt(10, 33).value();
        assertTrue(4.3 < shortSlice && shortSlice < 5.0, "mean slice 0.1 s: near sharing's 5.0 s, got " + shortSlice);
        assertTrue(longSlice < demandLong - 0.3 && demandLong < shortSlice - 0.3,
                "mean slices 0.1, 1, 10 s: " + shortSlice + ", " + demandLong + ", " + longSlice);
        assertTrue(3.0 < longSlice && longSlice < 3.5, "mean slice 10 s: near FCFS's 3.0 s, got " + longSlice);
    }

    @Test
    void aDemandJustOverTheSliceDoesNotWaitAWholeRoundForItsRemainder() throws Exception {
        // with slices of a fixed 0.95 s every 1 s demand would run 0.95 s, queue behind all the others, and come back for
        // 0.05 s (near sharing's 5.0 s), where 1.05 s slices serve it at once (FCFS's 3.0 s); slices of random length
        // make the two nearly the same server
        double under = meanAt(0.95, 34).value(), over = meanAt(1.05, 34).value();
        assertEquals(over, under, 0.05 * over, "mean slices 0.95 and 1.05 s around a 1 s demand: " + under + ", " + over);
    }

    @Test
    void aLoneRequestLosesNoWorkAcrossItsSlices() throws Exception {
        // nobody else inside: a preempted request is the only one ready and runs on, so it leaves after exactly its demand
        var model = new ClientLimitedModel(Distribution.deterministic(1.0), 8, 1, 0.01);
        SimulationResult r = Simulation.of(model, ArrivalProcess.traceSeconds(new double[] {0, 5})).removeWarmup(false).run();
        assertEquals(1.0, r.meanResponse().value(), 1e-9);
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
