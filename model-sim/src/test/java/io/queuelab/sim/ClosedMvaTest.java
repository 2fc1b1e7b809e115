package io.queuelab.sim;

import io.queuelab.sim.analytic.ClosedMva;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Mean value analysis of the modified M/M/1 under a closed workload against model-sim. */
class ClosedMvaTest {
    static final double X = 0.01;
    static final double L = 0.02;

    @Test
    void mvaMatchesTheSimulatedModifiedMm1AtEveryPopulation() throws Exception {
        ClosedMva mva = new ClosedMva(X, L);
        double[] response = mva.responseTimes(16);
        double[] throughput = mva.throughputs(16);
        assertEquals(X + L, response[0], 1e-12);
        // a constant latency outside an exponential server: model-sim's DPB model with a buffer that never fills
        Model model = new DirtyPageBufferModel(Distribution.deterministic(L), Distribution.exponential(X), Integer.MAX_VALUE,
                Distribution.exponential(1e-9));
        for (int n : new int[] {1, 2, 4, 16}) {
            SimulationResult r = Simulation.of(model, ArrivalProcess.closed(n)).duration(5_000).seed(n).run();
            assertEquals(response[n - 1], r.meanResponse().value(), 0.02 * response[n - 1], "N = " + n);
            assertEquals(throughput[n - 1], r.throughput().value(), 0.02 * throughput[n - 1], "N = " + n);
        }
        // far past the knee the throughput is the server's capacity 1/x
        assertEquals(1 / X, mva.throughputs(200)[199], 0.01 / X);
    }
}
