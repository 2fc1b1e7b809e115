package io.queuelab.reports.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queuelab.fit.CandidateModels;
import io.queuelab.fit.ClientServerGroundTruth;
import io.queuelab.fit.HeldOutValidation;
import io.queuelab.fit.RunPrediction;
import io.queuelab.fit.SimRuns;
import io.queuelab.fit.runs.RunData;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.Distribution;
import io.queuelab.sim.FittedModel;
import io.queuelab.sim.LoadDependentModel;
import io.queuelab.sim.MM1Model;
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
        Path run = dir.resolve("run");
        SimRuns.write(run, new MM1Model(Distribution.exponential(0.002)), ArrivalProcess.open(400), 5_000, 5);
        RunData measured = RunData.read(run);
        RunPrediction beyond = RunPrediction.open("run", measured, new FittedModel("mm1", MM1Model.exponential(1 / 387.0), 0.001), 1);
        RunPrediction refused = RunPrediction.open("run", measured,
                new FittedModel("mm1-ld", LoadDependentModel.exponential(0.002, 0.3, 20), 0.001), 1);
        StringBuilder table = new StringBuilder();
        ValidationText.appendPredictions(table, List.of(beyond, refused));
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
}
