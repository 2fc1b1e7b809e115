package io.queuelab.sim;

import io.queuelab.sim.analytic.ClosedMva;
import io.queuelab.sim.analytic.MM1;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A fitted model's prediction: its latency a stage of every request's path, inside a closed job's cycle. */
class FittedModelTest {
    static final double LATENCY = 0.002;

    @Test
    void aModelWhoseResponsesPassTheLongestTimeIsPredictedWithoutWrappingToNegative() throws Exception {
        // the load-dependent M/M/1 with p = 0.99: the service time nearly doubles with every job inside, so at its 200 jobs the
        // responses pass Long.MAX_VALUE ns, which the histogram holds as that; adding the latency must not wrap it
        FittedModel model = new FittedModel("mm1-ld", LoadDependentModel.exponential(1.0, 0.99, 200), 0.001);
        FittedModel.Prediction p = model.predict(ArrivalProcess.open(5), 2_000, 2, 1);
        assertTrue(p.quantile(0.99) > 1e9, "a p99 of more than 30 years: " + p.quantile(0.99));
        assertTrue(p.responseNanos().getMinValue() >= 0);
    }

    /**
     * Every queue the fits produce, with a latency of 2 ms outside it, predicts closed runs whose
     * throughput and mean response obey Little's law X(N) (R(N) + Z) = N within 2 %, with and without
     * think time. With the latency added to the responses after a simulation of the queue alone (as
     * predictions were once made), X(N) is the queue's and X R / N reached 8 at N = 1 on a fast server.
     */
    @Test
    void everyClosedPredictionObeysLittlesLaw() throws Exception {
        List<Model> queues = List.of(MM1Model.exponential(0.001), new ClientLimitedModel(Distribution.exponential(0.002), 64, 2),
                new ClientLimitedModel(Distribution.exponential(0.002), 8, 2, 0.0005),
                new ClientLimitedModel(Distribution.shiftedExponential(0.0005, 0.0015), 64, 2),
                LoadDependentModel.exponential(0.001, 0.05, 1000), DirtyPageBufferModel.table1(),
                new GroupCommitModel(Distribution.exponential(0.0002), 64, 2, Distribution.shiftedExponential(0.0002, 0.0001), 0.00002, 0));
        for (Model queue : queues) {
            FittedModel model = new FittedModel(queue.name(), queue, LATENCY);
            for (int jobs : new int[] {1, 4, 16}) {
                for (double think : new double[] {0, 0.003}) {
                    ArrivalProcess workload = think == 0 ? ArrivalProcess.closed(jobs)
                            : ArrivalProcess.closed(jobs, Distribution.exponential(think));
                    FittedModel.Prediction p = model.predict(workload, 200_000, 2, 7);
                    double little = p.throughput() * (p.meanResponse() + think) / jobs;
                    assertEquals(1, little, 0.02, () -> String.format("%s N = %d Z = %s: X %.1f/s, R %.3f ms: X (R + Z) / N = %.3f",
                            queue.name(), jobs, think, p.throughput(), 1e3 * p.meanResponse(), little));
                    assertTrue(p.responseNanos().getMinValue() >= LATENCY * 1e9 * 0.999, "no response shorter than the latency (to the histogram's 3 digits)");
                }
            }
        }
    }

    /** The modified M/M/1 in a closed cycle against exact mean value analysis (a delay station and an exponential FCFS server). */
    @Test
    void aClosedModifiedMm1IsTheMeanValueAnalysisOfItsDelayAndQueue() throws Exception {
        double x = 0.001;
        FittedModel model = new FittedModel("mm1", MM1Model.exponential(x), LATENCY);
        ClosedMva mva = new ClosedMva(x, LATENCY);
        for (int jobs : new int[] {1, 3, 8}) {
            FittedModel.Prediction p = model.predict(ArrivalProcess.closed(jobs), 400_000, 2, 11);
            assertEquals(mva.throughputs(jobs)[jobs - 1], p.throughput(), 0.02 * mva.throughputs(jobs)[jobs - 1], "X(" + jobs + ")");
            assertEquals(mva.responseTimes(jobs)[jobs - 1], p.meanResponse(), 0.02 * mva.responseTimes(jobs)[jobs - 1], "R(" + jobs + ")");
        }
    }

    /** In an open run the latency moves every response by itself: E[R] = l + x / (1 - lambda x), capacity 1/x. */
    @Test
    void anOpenPredictionIsTheQueueMovedByTheLatency() throws Exception {
        double x = 0.001;
        FittedModel model = new FittedModel("mm1", MM1Model.exponential(x), LATENCY);
        FittedModel.Prediction p = model.predict(ArrivalProcess.open(500), 400_000, 2, 13);
        double expected = LATENCY + new MM1(500, x).meanResponse();
        assertEquals(expected, p.meanResponse(), 0.02 * expected);
        assertTrue(p.responseNanos().getMinValue() >= LATENCY * 1e9 * 0.999);
        assertEquals(1000, model.capacity(), 1e-9);
    }
}
