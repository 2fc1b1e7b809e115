package io.queuelab.fit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The closed sweep predicted from the open fit (the models issue's closed target): run directories
 * of the independent ground truth ({@link ClientServerGroundTruth}: 8 workers, 2 cores, bimodal
 * demand of mean 2 ms), the model fitted on open runs at 0.1, 0.3, 0.7 and 0.9 of capacity (the
 * demo's plan) predicts closed runs of N = 1, 4 and 16 jobs: X(N) and R(N) within 10 %. A closed
 * run of N jobs holds N connections, so the client-limited model predicts it with K = N; the
 * manifest gives K = 8 for the open runs.
 */
class ClosedPredictionTest {
    static final int CORES = 2;
    static final double CAPACITY = CORES / ClientServerGroundTruth.MEAN_DEMAND;

    @TempDir
    static Path dir;
    static HeldOutValidation.Result result;

    @BeforeAll
    static void validate() throws Exception {
        List<Path> fit = new ArrayList<>();
        double[] loads = {0.1, 0.3, 0.7, 0.9};
        for (int i = 0; i < loads.length; i++) {
            fit.add(ClientServerGroundTruth.writeRun(dir.resolve("open-" + i), loads[i] * CAPACITY, 0, 8, CORES, 12_000, 600, 300 + i));
        }
        List<Path> closed = new ArrayList<>();
        for (int jobs : new int[] {1, 4, 16}) {
            closed.add(ClientServerGroundTruth.writeRun(dir.resolve("closed-" + jobs), 0, jobs, 8, CORES, 12_000, 600, 400 + jobs));
        }
        result = HeldOutValidation.run(fit, closed, CandidateModels.STANDARD.all(), null, CORES, 1);
        System.out.print(Outcomes.describe(result));
    }

    @Test
    void theManifestGivesTheConnections() {
        assertEquals(8, result.limits().connections());
        assertTrue(result.limits().connectionsSource().contains("manifest"), result.limits().connectionsSource());
    }

    @Test
    void throughputAndResponseOfTheClosedRunsArePredictedWithinTenPercent() {
        var clientPs = result.model("client-ps");
        assertEquals(3, clientPs.predictions().size());
        for (RunPrediction p : clientPs.predictions()) {
            assertTrue(p.closed(), p.name());
            double xError = (p.predictedThroughput() - p.measuredThroughput()) / p.measuredThroughput();
            assertTrue(Math.abs(xError) < 0.10, () -> p.name() + " X(N) error " + xError);
            assertTrue(Math.abs(p.meanError()) < 0.10, () -> p.name() + " R(N) error " + p.meanError());
        }
        // N = 16 jobs on 2 cores: the throughput is the capacity, the response N / X
        RunPrediction sixteen = clientPs.predictions().get(2);
        assertEquals(CAPACITY, sixteen.measuredThroughput(), 0.05 * CAPACITY);
    }

    /**
     * Every closed prediction of every candidate obeys Little's law: with no think time X(N) R(N) = N
     * within 2 %. A model whose latency was added after simulating its queue alone broke it (X R / N
     * from 1.1 to 8.1 on the demo's UPDATE sweep): this fails when the latency is put back outside
     * the cycle (tried: mm1-paper at N = 1 gave 2.00).
     */
    @Test
    void everyClosedPredictionOfEveryCandidateObeysLittlesLaw() {
        int checked = 0;
        for (HeldOutValidation.ModelOutcome o : result.models()) {
            for (RunPrediction p : o.predictions()) {
                if (!p.closed() || p.saturated()) {
                    continue;
                }
                double little = p.predictedThroughput() * p.predictedMean() / p.level();
                assertEquals(1, little, 0.02, () -> o.fit().name() + " " + p.name() + ": X " + p.predictedThroughput() + "/s, R "
                        + p.predictedMean() + " s");
                checked++;
            }
        }
        // mm1-paper, mm1, mm1-ld, mg1, mgc, client-ps, client-slice, client-ps-cpu where identified: at least the four that need no
        // telemetry, each at N = 1, 4, 16
        assertTrue(checked >= 12, "closed predictions checked: " + checked);
    }
}
