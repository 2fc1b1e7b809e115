package io.queuelab.fit;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The server's cpu per request by load: interpolated between the fit runs, flat beyond them, and the rate's own load found. */
class LoadDemandTest {
    // the 20:19 demo's range sweep on one core (docs/experiments.md): seconds of server cpu per request at each run's busy fraction
    private final LoadDemand demo = new LoadDemand(List.of(
            new LoadDemand.Point("0.9", 0.87, 0.002474), new LoadDemand.Point("0.1", 0.13, 0.003594),
            new LoadDemand.Point("0.7", 0.66, 0.002447), new LoadDemand.Point("0.3", 0.37, 0.003238)), 1);

    @Test
    void betweenTwoRunsTheDemandIsInterpolatedAndBeyondThemItIsTheNearestRuns() {
        assertEquals(0.003594, demo.at(0), 1e-12, "below the least busy run: its own");
        assertEquals(0.003594, demo.at(0.13), 1e-12);
        assertEquals((0.003238 + 0.002447) / 2, demo.at((0.37 + 0.66) / 2), 1e-12);
        assertEquals(0.002474, demo.at(1.5), 1e-12, "beyond the most busy run: its own, never extrapolated");
        assertEquals(0.002474, demo.saturated(), 1e-12);
        assertEquals((0.003238 + 0.002474) / 2, demo.median(), 1e-12);
    }

    @Test
    void aRatesLoadIsTheBusyFractionItsOwnDemandGives() {
        for (double lambda : new double[] {10, 100, 192.8, 308.5, 380}) {
            double u = demo.busyAt(lambda);
            assertEquals(u, lambda * demo.at(u), 1e-9, "U = lambda D(U) at " + lambda);
        }
        // two cores share the load: half the busy fraction of one at the same demand
        LoadDemand flat = new LoadDemand(List.of(new LoadDemand.Point("a", 0.5, 0.002)), 2);
        assertEquals(0.2, flat.busyAt(200), 1e-9);
        assertEquals(1.2, flat.busyAt(1200), 1e-9, "beyond the capacity the busy fraction passes 1: overloaded");
    }

    @Test
    void theLeastRootIsTaken() {
        // a demand that jumps with the load: U = 100 D(U) holds at 0.15, at about 0.214 and at 0.6; the lightest load is the one reached
        LoadDemand jumping = new LoadDemand(List.of(new LoadDemand.Point("a", 0.1, 0.0015), new LoadDemand.Point("b", 0.2, 0.0015),
                new LoadDemand.Point("c", 0.3, 0.006), new LoadDemand.Point("d", 1.0, 0.006)), 1);
        assertEquals(0.15, jumping.busyAt(100), 1e-9);
    }

    @Test
    void noRunOrNoCoreIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new LoadDemand(List.of(), 1));
        assertThrows(IllegalArgumentException.class, () -> new LoadDemand(List.of(new LoadDemand.Point("a", 0.5, 0.002)), 0));
        assertThrows(IllegalArgumentException.class, () -> new LoadDemand(List.of(new LoadDemand.Point("a", Double.NaN, 0.002)), 1));
        assertThrows(IllegalArgumentException.class, () -> new LoadDemand(List.of(new LoadDemand.Point("a", 0.5, 0)), 1));
        assertThrows(IllegalArgumentException.class, () -> demo.busyAt(Double.POSITIVE_INFINITY), "no endless search");
        assertThrows(IllegalArgumentException.class, () -> demo.busyAt(Double.NaN));
    }
}
