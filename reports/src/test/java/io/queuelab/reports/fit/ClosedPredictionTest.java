package io.queuelab.reports.fit;

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
        result = HeldOutValidation.run(fit, closed, CandidateModels.named("mm1,client-ps"), null, CORES, 1);
        System.out.print(HeldOutValidation.toTable(result));
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
}
