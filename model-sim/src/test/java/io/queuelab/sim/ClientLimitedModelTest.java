package io.queuelab.sim;

import io.queuelab.sim.analytic.MM1;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client-limited model (the shared server with a client queue) against the closed forms it reduces to: M/M/1 and
 * M/D/1 (K = c = 1, Pollaczek-Khinchine), M/M/2 (K = c = 2, Erlang C), M/G/1-PS (many connections,
 * one core: insensitive to the demand's distribution), and a closed population larger than K whose
 * throughput is exactly min(K, c) / E[demand].
 */
class ClientLimitedModelTest {

    private static SimulationResult open(ClientLimitedModel model, double lambda, long seed) throws Exception {
        return Simulation.of(model, ArrivalProcess.open(lambda)).customers(1_000_000).replications(4).seed(seed).run();
    }

    /**
     * The theory within the estimate's 99.9 % interval (its 95 % half-width widened by the ratio of
     * Student's t quantiles): a 95 % interval misses in one seed of 20, and a change of the sampler
     * draws that lot anew (seed 24's M/D/1-PS: 5.022 +- 0.017, where seeds 25-33 centre on 4.998);
     * these checks tell one system from another by far more (M/D/1-PS 5.0 s against FCFS 3.0 s).
     */
    private static void assertCovers(Estimate estimate, double theory, String what) {
        org.apache.commons.math3.distribution.TDistribution t =
                new org.apache.commons.math3.distribution.TDistribution(estimate.samples() - 1);
        double halfWidth = estimate.halfWidth() * t.inverseCumulativeProbability(0.9995) / t.inverseCumulativeProbability(0.975);
        assertTrue(Math.abs(estimate.value() - theory) <= halfWidth,
                () -> what + ": simulated " + estimate + " vs theory " + theory + " (99.9 % half-width " + halfWidth + ")");
        assertTrue(estimate.relativeHalfWidth() < 0.05, () -> what + ": interval too wide: " + estimate);
    }

    @Test
    void oneConnectionToOneCoreIsMM1() throws Exception {
        SimulationResult r = open(ClientLimitedModel.fcfs(Distribution.exponential(1.0), 1), 0.8, 21);
        assertCovers(r.meanResponse(), new MM1(0.8, 1.0).meanResponse(), "M/M/1");
    }

    @Test
    void deterministicDemandFollowsPollaczekKhinchine() throws Exception {
        double x = 1.0, lambda = 0.8, rho = lambda * x;
        // M/D/1: E[R] = x + rho x / (2 (1 - rho)) (the second moment of a constant is x^2)
        double theory = x + rho * x / (2 * (1 - rho));
        assertCovers(open(ClientLimitedModel.fcfs(Distribution.deterministic(x), 1), lambda, 22).meanResponse(), theory, "M/D/1");
    }

    @Test
    void twoConnectionsToTwoCoresIsErlangC() throws Exception {
        double mu = 1.0, lambda = 1.6;
        double a = lambda / mu, rho = a / 2;
        // Erlang C for c = 2: P(wait) = a^2/(2(1-rho)) / (1 + a + a^2/(2(1-rho)))
        double top = a * a / (2 * (1 - rho));
        double pWait = top / (1 + a + top);
        double theory = pWait / (2 * mu - lambda) + 1 / mu;
        SimulationResult r = open(ClientLimitedModel.fcfs(Distribution.exponential(1 / mu), 2), lambda, 23);
        assertCovers(r.meanResponse(), theory, "M/M/2");
    }

    @Test
    void manyConnectionsToOneCoreIsProcessorSharingWhateverTheDemand() throws Exception {
        // M/G/1-PS: E[R] = x / (1 - rho) for any demand distribution; deterministic demand under
        // FCFS would give 3.0 s here, so this tells sharing from queueing
        SimulationResult r = open(new ClientLimitedModel(Distribution.deterministic(1.0), 10_000, 1), 0.8, 24);
        assertCovers(r.meanResponse(), 5.0, "M/D/1-PS");
    }

    @Test
    void theConnectionLimitQueuesRequestsInTheClient() throws Exception {
        // K = 1 in front of 4 cores: the cores beyond the first are never used, so this is M/M/1 at
        // rho 0.8, where a server of 4 cores reached by enough connections would hardly queue at all
        SimulationResult limited = open(new ClientLimitedModel(Distribution.exponential(1.0), 1, 4), 0.8, 25);
        assertCovers(limited.meanResponse(), 5.0, "K=1, c=4");
        SimulationResult free = open(new ClientLimitedModel(Distribution.exponential(1.0), 64, 4), 0.8, 26);
        assertTrue(free.meanResponse().value() < 1.05, () -> "K=64, c=4 at 0.8/s hardly waits: " + free.meanResponse());
    }

    @Test
    void aClosedPopulationAboveTheConnectionsRunsAtTheCapacity() throws Exception {
        // 10 jobs, 3 connections, 2 cores: 3 requests always inside share 2 cores, so the
        // throughput is exactly 2 / E[D] and, by Little's law, R = N / X = 10 / 2 = 5 s
        SimulationResult r = Simulation.of(new ClientLimitedModel(Distribution.exponential(1.0), 3, 2), ArrivalProcess.closed(10))
                .customers(400_000).replications(4).seed(27).run();
        assertEquals(2.0, r.throughput().value(), 0.02);
        assertCovers(r.meanResponse(), 5.0, "closed N=10, K=3, c=2");
    }

    @Test
    void theModelRefusesAMeaninglessSystem() {
        var e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new ClientLimitedModel(Distribution.exponential(1.0), 0, 2));
        assertTrue(e.getMessage().contains("connections"), e.getMessage());
        assertTrue(new ClientLimitedModel(Distribution.exponential(1.0), 8, 2).stableAt(1.99));
        assertTrue(!new ClientLimitedModel(Distribution.exponential(1.0), 8, 2).stableAt(2.0));
    }
}
