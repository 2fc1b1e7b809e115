package io.queuelab.sim;

import io.queuelab.sim.analytic.BirthDeath;
import io.queuelab.sim.analytic.MM1;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Processor sharing and the load-dependent server against FCFS and the birth-death solution. */
class SharedServerTest {
    private static final double RHO = 0.8;

    private static SimulationResult run(Model model, double lambda, long seed) throws Exception {
        return Simulation.of(model, ArrivalProcess.open(lambda)).customers(1_000_000).replications(4).seed(seed).run();
    }

    @Test
    void processorSharingMeanEqualsTheFcfsMean() throws Exception {
        Estimate ps = run(ProcessorSharingModel.exponential(1.0), RHO, 7).meanResponse();
        Estimate fcfs = run(MM1Model.exponential(1.0), RHO, 8).meanResponse();
        double theory = new MM1(RHO, 1.0).meanResponse();
        assertTrue(ps.covers(theory), () -> "PS " + ps + " vs x/(1-rho) = " + theory);
        assertTrue(ps.covers(fcfs.value()) || fcfs.covers(ps.value()), () -> "PS " + ps + " vs FCFS " + fcfs);
        assertTrue(ps.relativeHalfWidth() < 0.05, () -> "interval too wide: " + ps);
    }

    @Test
    void loadDependentWithoutDependencyIsMM1() throws Exception {
        SimulationResult ld = run(LoadDependentModel.exponential(1.0, 0, LoadDependentModel.DEFAULT_CAPACITY), RHO, 9);
        double theory = new MM1(RHO, 1.0).meanResponse();
        assertTrue(ld.meanResponse().covers(theory), () -> "LD p=0 " + ld.meanResponse() + " vs " + theory);
        assertEquals(0, ld.dropped());
    }

    @Test
    void loadDependentMeanMatchesTheBirthDeathSolution() throws Exception {
        double p = 0.05;
        int capacity = 40;
        double lambda = 0.6;
        BirthDeath theory = BirthDeath.loadDependent(lambda, 1.0, p, capacity);
        // the slowdown makes this clearly different from M/M/1 (x/(1-rho) = 2.5 s)
        assertTrue(theory.meanResponse() > 3.0, "a case where load dependency matters: " + theory.meanResponse());
        SimulationResult ld = run(LoadDependentModel.exponential(1.0, p, capacity), lambda, 10);
        Estimate mean = ld.meanResponse();
        assertTrue(mean.covers(theory.meanResponse()), () -> "LD " + mean + " vs birth-death " + theory.meanResponse());
        assertTrue(mean.relativeHalfWidth() < 0.05, () -> "interval too wide: " + mean);
        assertEquals(theory.throughput(), ld.throughput().value(), 0.01 * theory.throughput());
    }

    @Test
    void fullLoadDependentServerRefusesArrivalsAtTheBlockingRate() throws Exception {
        BirthDeath theory = BirthDeath.loadDependent(1.5, 1.0, 0.0, 5);
        SimulationResult ld = Simulation.of(LoadDependentModel.exponential(1.0, 0.0, 5), ArrivalProcess.open(1.5))
                .customers(400_000).replications(2).seed(11).removeWarmup(false).run();
        double refused = (double) ld.dropped() / (ld.dropped() + ld.customers());
        assertEquals(theory.blockingProbability(), refused, 0.01);
    }
}
