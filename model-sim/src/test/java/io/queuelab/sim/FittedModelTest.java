package io.queuelab.sim;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** A fitted model's prediction, its latency added to every response time. */
class FittedModelTest {

    @Test
    void aModelWhoseResponsesPassTheLongestTimeIsPredictedWithoutWrappingToNegative() throws Exception {
        // the load-dependent M/M/1 with p = 0.99: the service time nearly doubles with every job inside, so at its 200 jobs the
        // responses pass Long.MAX_VALUE ns, which the histogram holds as that; adding the latency must not wrap it
        FittedModel model = new FittedModel("mm1-ld", LoadDependentModel.exponential(1.0, 0.99, 200), 0.001);
        FittedModel.Prediction p = model.predict(ArrivalProcess.open(5), 2_000, 2, 1);
        assertTrue(p.quantile(0.99) > 1e9, "a p99 of more than 30 years: " + p.quantile(0.99));
        assertTrue(p.responseNanos().getMinValue() >= 0);
    }
}
