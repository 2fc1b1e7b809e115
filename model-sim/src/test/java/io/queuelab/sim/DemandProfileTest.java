package io.queuelab.sim;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client-limited server replaying a measured server's work per request over time: a profile of
 * one factor is the demand scaled by it (the same draws, so the same run), the factors repeat after
 * the last, each demand takes the factor of the instant its request enters, and a server that
 * alternates slow and fast seconds queues more than one that runs at their mean speed throughout
 * (the mean response is convex in the load), which is what a run's mean work per request alone
 * cannot show.
 */
class DemandProfileTest {

    private static SimulationResult run(ClientLimitedModel model, double rate, long seed) throws Exception {
        return Simulation.of(model, ArrivalProcess.open(rate)).customers(200_000).replications(2).seed(seed).run();
    }

    @Test
    void oneFactorIsTheDemandScaledByIt() throws Exception {
        for (double slice : new double[] {0, 0.0005}) {
            var scaled = new ClientLimitedModel(Distribution.exponential(0.0024), 16, 1, slice);
            var profiled = new ClientLimitedModel(Distribution.exponential(0.002), 16, 1, slice)
                    .withProfile(new DemandProfile(1, new double[] {1.2}));
            double a = run(scaled, 300, 5).meanResponse().value(), b = run(profiled, 300, 5).meanResponse().value();
            assertEquals(a, b, 1e-9 * a, "slice " + slice);
        }
    }

    @Test
    void theFactorsRepeatAfterTheLast() {
        DemandProfile p = new DemandProfile(0.5, new double[] {1, 2, 3});
        assertEquals(1, p.at(0));
        assertEquals(2, p.at(0.5));
        assertEquals(3, p.at(1.49));
        assertEquals(1, p.at(1.5));
        assertEquals(3, p.at(100 * 1.5 + 1.2));
        assertEquals(2, p.mean(), 1e-12);
    }

    @Test
    void slowAndFastSecondsQueueMoreThanTheirMeanSpeed() throws Exception {
        // 1 core, demand 2 ms at 350/s: 70 % busy at the mean factor; seconds at 0.8 and 1.2 of it are 56 and 84 % busy
        var steady = new ClientLimitedModel(Distribution.exponential(0.002), 16, 1, 0.00075);
        var alternating = steady.withProfile(new DemandProfile(1, new double[] {0.8, 1.2}));
        double s = run(steady, 350, 7).meanResponse().value(), a = run(alternating, 350, 7).meanResponse().value();
        // M/M/1 by seconds: (2 ms / (1 - 0.56) + 2 ms x 1.2 / (1 - 0.84)) / 2 = 9.8 ms against 6.7 ms, less the
        // queue carried between seconds
        assertTrue(a > 1.25 * s, "alternating " + a + " s against steady " + s + " s");
        assertTrue(a < 2 * s, "alternating " + a + " s against steady " + s + " s");
    }

    @Test
    void aRequestTakesTheFactorOfTheInstantItEnters() throws Exception {
        // two lone requests, at 0.1 s and 1.1 s, each alone: the first at factor 1, the second at factor 3
        var model = new ClientLimitedModel(Distribution.deterministic(0.01), 4, 1, 0.001).withProfile(new DemandProfile(1, new double[] {1, 3}));
        SimulationResult r = Simulation.of(model, ArrivalProcess.traceSeconds(new double[] {0.1, 1.1})).removeWarmup(false).run();
        assertEquals(0.02, r.meanResponse().value(), 1e-9, "(0.01 + 0.03) / 2");
    }

    @Test
    void aReplayedWarmUpLoadsTheServerButIsNotMeasured() throws Exception {
        // the first second at factor 3 (a slow start), then factor 1: measured from 1 s, the queue the slow second left
        // raises the first measured responses above the steady server's, which the same profile measured from 0 s also shows
        var model = new ClientLimitedModel(Distribution.exponential(0.002), 16, 1, 0.00075)
                .withProfile(new DemandProfile(1, new double[] {3, 1, 1}));
        SimulationResult fromOne = Simulation.of(model, ArrivalProcess.open(250)).duration(3).removeWarmup(false).measureFrom(1)
                .replications(40).seed(3).run();
        SimulationResult steady = Simulation.of(new ClientLimitedModel(Distribution.exponential(0.002), 16, 1, 0.00075),
                ArrivalProcess.open(250)).duration(3).removeWarmup(false).replications(40).seed(3).run();
        // 2 s of arrivals at 250/s a replication: about 500 measured, not the 750 of the whole 3 s
        assertEquals(500, fromOne.customers() / 40.0, 40);
        assertTrue(fromOne.meanResponse().value() > 1.3 * steady.meanResponse().value(),
                fromOne.meanResponse() + " after a slow second against " + steady.meanResponse());
        assertThrows(IllegalArgumentException.class, () -> Simulation.of(model, ArrivalProcess.open(250)).duration(3).measureFrom(-1));
        // a replay's timeline is fixed: it needs a duration, and a load beyond capacity is replayed, not refused
        assertThrows(IllegalArgumentException.class, () -> Simulation.of(model, ArrivalProcess.open(250)).customers(1000).measureFrom(1).run());
        var overloaded = new ClientLimitedModel(Distribution.exponential(0.002), 16, 1, 0.00075).withProfile(new DemandProfile(1, new double[] {3}));
        assertThrows(IllegalArgumentException.class, () -> Simulation.of(overloaded, ArrivalProcess.open(250)).duration(3).run());
        SimulationResult replayed = Simulation.of(overloaded, ArrivalProcess.open(250)).duration(3).measureFrom(0).removeWarmup(false)
                .replications(4).seed(4).run();
        // 1.5 times the capacity for 3 s: the backlog grows to about 250 x 3 / 3 requests' worth, responses to some 0.5 s
        assertTrue(replayed.meanResponse().value() > 0.2, replayed.meanResponse().toString());
    }

    @Test
    void badProfilesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new DemandProfile(0, new double[] {1}));
        assertThrows(IllegalArgumentException.class, () -> new DemandProfile(1, new double[0]));
        assertThrows(IllegalArgumentException.class, () -> new DemandProfile(1, new double[] {1, -0.5}));
        assertThrows(IllegalArgumentException.class, () -> new DemandProfile(1, new double[] {Double.NaN}));
    }
}
