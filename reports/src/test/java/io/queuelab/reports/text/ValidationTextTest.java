package io.queuelab.reports.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queuelab.fit.CandidateModels;
import io.queuelab.fit.ClientServerGroundTruth;
import io.queuelab.fit.HeldOutValidation;
import io.queuelab.fit.RunPredictionTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** validate's text and JSON: a saturated prediction is words, not a number; a closed run carries X(N) beside R(N). */
class ValidationTextTest {

    @Test
    void aLoadTheModelCannotCarryIsPrintedAsItsSaturation(@TempDir Path dir) throws Exception {
        StringBuilder table = new StringBuilder();
        ValidationText.appendPredictions(table, RunPredictionTest.beyondCapacity(dir));
        assertTrue(table.toString().contains("the model is saturated at ") && table.toString().contains(": capacity 387.0/s"),
                table::toString);
        assertTrue(table.toString().contains("refuses"), table::toString);
        assertFalse(table.toString().contains("NaN"), table::toString);
    }

    /** validate's JSON carries a closed run's measured and predicted X(N) beside its R(N), so a reader can check Little's law. */
    @Test
    void theJsonCarriesEachClosedRunsThroughput(@TempDir Path dir) throws Exception {
        List<Path> fit = new ArrayList<>();
        double[] loads = {0.1, 0.3, 0.7, 0.9};
        for (int i = 0; i < loads.length; i++) {
            fit.add(ClientServerGroundTruth.writeRun(dir.resolve("open-" + i), loads[i] * 1000, 0, 8, 2, 6_000, 300, 700 + i));
        }
        List<Path> closed = List.of(ClientServerGroundTruth.writeRun(dir.resolve("closed-1"), 0, 1, 8, 2, 6_000, 300, 801),
                ClientServerGroundTruth.writeRun(dir.resolve("closed-4"), 0, 4, 8, 2, 6_000, 300, 804));
        HeldOutValidation.Result result = HeldOutValidation.run(fit, closed, CandidateModels.STANDARD.named("client-ps"), null, 2, 1);
        Path json = dir.resolve("validate.json");
        ValidationJson.write(result, json);
        JsonNode clientPs = new ObjectMapper().readTree(json.toFile()).get("models").get(0);
        assertEquals(2, clientPs.get("predictions").size(), clientPs::toString);
        for (JsonNode p : clientPs.get("predictions")) {
            assertTrue(p.get("throughput").get("measured_per_s").asDouble() > 0, p::toString);
            double x = p.get("throughput").get("predicted_per_s").asDouble();
            int jobs = p.get("jobs").asInt();
            assertEquals(jobs, x * p.get("predicted").get("mean_s").asDouble(), 0.02 * jobs, p::toString);
            assertTrue(p.get("saturation").isNull(), p::toString);
        }
    }

    /** A group commit's size is printed beside the prediction, with the server's own count, or that the run has none. */
    @Test
    void commitsPerFlushArePrintedBesideTheServersCount() {
        assertEquals("commits per flush 2.96 predicted, 3.01 counted by the server (commits / Innodb_data_fsyncs, -1.7 %)",
                ValidationText.commitsPerFlush(new io.queuelab.fit.RunPrediction.CommitsPerFlush(2.96, 3.01)));
        assertEquals("commits per flush 2.96 predicted (the run has no commit and fsync counters)",
                ValidationText.commitsPerFlush(new io.queuelab.fit.RunPrediction.CommitsPerFlush(2.96, Double.NaN)));
    }
}
