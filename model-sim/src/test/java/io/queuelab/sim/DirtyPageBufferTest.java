package io.queuelab.sim;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The DPB model with Table 1 of seed 004 against the consequences listed in docs/models.md. */
class DirtyPageBufferTest {
    private static final DirtyPageBufferModel TABLE_1 = DirtyPageBufferModel.table1();

    @ParameterizedTest
    @ValueSource(doubles = {12.5, 18.75, 25})
    void flushPeriodAndDurationFollowTheBufferSize(double lambda) throws Exception {
        SimulationResult r = Simulation.of(TABLE_1, ArrivalProcess.open(lambda)).duration(20_000).replications(2).seed(3).run();
        assertEquals(111 / lambda, r.flushPeriod().orElseThrow().value(), 0.03 * 111 / lambda, "flush period");
        double duration = 111 * 0.00433;
        assertEquals(duration, r.flushDuration().orElseThrow().value(), 0.03 * duration, "flush duration");
        assertEquals(lambda, r.throughput().value(), 0.02 * lambda, "throughput");
        // the flush is what makes responses of up to ~1 s (docs/models.md)
        double p999 = r.quantile(0.999).value();
        assertTrue(p999 > 0.2 && p999 < 1.5, "p99.9 " + p999);
    }

    @ParameterizedTest
    @ValueSource(ints = {5, 20})
    void closedThroughputSaturatesAtOneOverProcessingPlusPageWrite(int jobs) throws Exception {
        SimulationResult r = Simulation.of(TABLE_1, ArrivalProcess.closed(jobs)).duration(20_000).replications(2).seed(4).run();
        double saturation = 1 / (0.0269 + 0.00433);
        assertEquals(saturation, r.throughput().value(), 0.02 * saturation);
    }

    @Test
    void singleClosedJobSeesDelayProcessingAndItsShareOfTheFlush() throws Exception {
        SimulationResult r = Simulation.of(TABLE_1, ArrivalProcess.closed(1)).duration(20_000).replications(2).seed(5).run();
        double expected = 0.0025 + 0.00049 + 0.0269 + 0.00433;
        assertEquals(expected, r.meanResponse().value(), 0.02 * expected);
    }

    @Test
    void batchMeansOfOneReplicationAgreeWithIndependentReplications() throws Exception {
        SimulationResult one = Simulation.of(TABLE_1, ArrivalProcess.open(25)).duration(40_000).seed(6).run();
        SimulationResult many = Simulation.of(TABLE_1, ArrivalProcess.open(25)).duration(5_000).replications(8).seed(7).run();
        Estimate batch = one.meanResponse();
        Estimate independent = many.meanResponse();
        assertEquals(20, batch.samples());
        assertTrue(batch.relativeHalfWidth() < 0.1, batch.toString());
        assertEquals(independent.value(), batch.value(), batch.halfWidth() + independent.halfWidth(),
                "batch means " + batch + " vs replications " + independent);

        // a run of fewer than two batches of ten flush cycles has no batch-means interval
        Estimate tooShort = Simulation.of(TABLE_1, ArrivalProcess.open(12.5)).duration(150).seed(8).run().meanResponse();
        assertTrue(Double.isNaN(tooShort.halfWidth()), tooShort.toString());
    }

    @Test
    void aBufferThatNeverFillsIsMM1PlusAConstantLatency() throws Exception {
        // how the reports module simulates the paper's modified M/M/1: E[R] = l + x / (1 - lambda x)
        DirtyPageBufferModel latencyPlusMM1 = new DirtyPageBufferModel(Distribution.deterministic(0.001),
                Distribution.exponential(0.01), Integer.MAX_VALUE, Distribution.exponential(1e-9));
        SimulationResult r = Simulation.of(latencyPlusMM1, ArrivalProcess.open(50)).customers(2_000_000).seed(9).run();
        Estimate mean = r.meanResponse();
        assertTrue(mean.covers(0.001 + 0.01 / (1 - 0.5)), mean.toString());
        assertTrue(mean.relativeHalfWidth() < 0.03, mean.toString());
        assertEquals(0, r.flushCount());
    }
}
