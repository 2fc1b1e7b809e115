package io.queuelab.sim;

import io.queuelab.sim.analytic.BirthDeath;
import io.queuelab.sim.analytic.ClosedBounds;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Closed populations with think time (the machine-repairman birth-death chain) and the precision stop. */
class ClosedAndPrecisionTest {
    private static final int JOBS = 5;
    private static final double THINK = 2.0;
    private static final double SERVICE = 0.5;

    /** N jobs, exponential think time Z, one exponential server: births (N-n)/Z, deaths 1/x. */
    private static BirthDeath repairman() {
        double[] birth = new double[JOBS];
        double[] death = new double[JOBS + 1];
        for (int n = 0; n < JOBS; n++) {
            birth[n] = (JOBS - n) / THINK;
            death[n + 1] = 1 / SERVICE;
        }
        return new BirthDeath(birth, death);
    }

    private static void assertMatchesRepairman(Model model) throws Exception {
        BirthDeath theory = repairman();
        SimulationResult r = Simulation.of(model, ArrivalProcess.closed(JOBS, Distribution.exponential(THINK)))
                .duration(200_000).replications(4).seed(12).run();
        assertTrue(r.meanResponse().covers(theory.meanResponse()) || Math.abs(r.meanResponse().value() - theory.meanResponse())
                < 0.01 * theory.meanResponse(), () -> model.name() + " " + r.meanResponse() + " vs " + theory.meanResponse());
        assertEquals(theory.throughput(), r.throughput().value(), 0.01 * theory.throughput());
        assertEquals(theory.meanPopulation(), r.meanPopulation().value(), 0.02 * theory.meanPopulation());
        ClosedBounds bounds = new ClosedBounds(SERVICE, 0, THINK);
        assertTrue(r.throughput().value() <= bounds.throughputBound(JOBS));
        assertTrue(r.meanResponse().value() >= bounds.responseBound(JOBS));
    }

    @Test
    void closedFcfsWithThinkTimeMatchesTheRepairmanModel() throws Exception {
        assertMatchesRepairman(MM1Model.exponential(SERVICE));
    }

    @Test
    void closedProcessorSharingWithThinkTimeMatchesTheRepairmanModel() throws Exception {
        assertMatchesRepairman(ProcessorSharingModel.exponential(SERVICE));
    }

    @Test
    void precisionStopAddsReplicationsUntilTheIntervalIsNarrowEnough() throws Exception {
        SimulationResult r = Simulation.of(MM1Model.exponential(1.0), ArrivalProcess.open(0.7)).customers(20_000)
                .replications(2).precision(0.02, 60).seed(13).run();
        int used = r.replications().size();
        assertTrue(used > 2 && used < 60, "replications used: " + used);
        assertTrue(r.meanResponse().relativeHalfWidth() <= 0.02, r.meanResponse().toString());
        // the same configuration stops at the same replication: the stop depends on results, not timing
        assertEquals(used, Simulation.of(MM1Model.exponential(1.0), ArrivalProcess.open(0.7)).customers(20_000)
                .replications(2).precision(0.02, 60).seed(13).threads(1).run().replications().size());
    }

    @Test
    void traceGivenInSecondsIsReplayedExactly() throws Exception {
        // deterministic service of 1 s on arrivals 0, 0.5, 3: responses 1, 1.5, 1
        SimulationResult r = Simulation.of(new MM1Model(Distribution.deterministic(1)), ArrivalProcess.traceSeconds(new double[] {3, 0, 0.5}))
                .removeWarmup(false).run();
        assertEquals(3, r.customers());
        assertEquals(3.5 / 3, r.meanResponse().value(), 1e-9);
        assertEquals(1.5, r.responseTimes().getMaxValue() / 1e9, 1e-3);
    }

    @Test
    void aTraceThatBeginsLateCountsItsThroughputFromItsFirstArrival() throws Exception {
        double[] arrivals = new double[1000];
        for (int i = 0; i < arrivals.length; i++) {
            arrivals[i] = 5_000 + i * 0.1; // 10 per second, starting at 5000 s
        }
        SimulationResult r = Simulation.of(new MM1Model(Distribution.deterministic(0.05)), ArrivalProcess.traceSeconds(arrivals))
                .removeWarmup(false).run();
        assertEquals(10, r.throughput().value(), 0.01);
        assertEquals(0.5, r.meanPopulation().value(), 0.01);
    }
}
