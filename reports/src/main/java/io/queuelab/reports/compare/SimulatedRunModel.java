package io.queuelab.reports.compare;

import com.fasterxml.jackson.databind.JsonNode;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.DirtyPageBufferModel;
import io.queuelab.sim.Distribution;
import io.queuelab.sim.LoadDependentModel;
import io.queuelab.sim.MM1Model;
import io.queuelab.sim.Model;
import io.queuelab.sim.ProcessorSharingModel;

import java.util.Optional;

/**
 * The model and workload of a simulated run, read back from the {@code model} section model-sim
 * writes into its manifest, so that independent replications of it can be simulated. Empty for a
 * measured run, a trace-driven run, or a model with a distribution that cannot be rebuilt
 * (empirical service times).
 */
public record SimulatedRunModel(Model model, ArrivalProcess workload) {

    public static Optional<SimulatedRunModel> of(JsonNode manifest) {
        JsonNode section = manifest.path("model");
        JsonNode p = section.path("parameters");
        try {
            Model model = switch (section.path("name").asText("")) {
                case "mm1" -> new MM1Model(distribution(p.path("service")));
                case "mm1-ps" -> new ProcessorSharingModel(distribution(p.path("service")));
                case "mm1-ld" -> new LoadDependentModel(distribution(p.path("service")), p.path("p").asDouble(),
                        p.path("capacity").asInt(LoadDependentModel.DEFAULT_CAPACITY));
                case "dpb" -> new DirtyPageBufferModel(distribution(p.path("networkDelay")), distribution(p.path("processing")),
                        p.path("bufferPages").asInt(), distribution(p.path("dirtyPage")));
                default -> null;
            };
            JsonNode w = section.path("workload");
            ArrivalProcess workload = switch (w.path("mode").asText("")) {
                case "open" -> ArrivalProcess.open(w.path("lambda").asDouble());
                // a trace-driven run is replicated as Poisson arrivals at the trace's rate
                case "trace" -> w.path("rate").isNumber() ? ArrivalProcess.open(w.path("rate").asDouble()) : null;
                case "closed" -> w.path("thinkTime").isObject()
                        ? ArrivalProcess.closed(w.path("jobs").asInt(), distribution(w.path("thinkTime")))
                        : ArrivalProcess.closed(w.path("jobs").asInt());
                default -> null;
            };
            return model == null || workload == null ? Optional.empty() : Optional.of(new SimulatedRunModel(model, workload));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static Distribution distribution(JsonNode d) {
        return switch (d.path("type").asText("")) {
            case "exponential" -> Distribution.exponential(d.path("mean").asDouble());
            case "deterministic" -> Distribution.deterministic(d.path("value").asDouble());
            case "shifted-exponential" -> Distribution.shiftedExponential(d.path("shift").asDouble(), d.path("exponentialMean").asDouble());
            default -> throw new IllegalArgumentException("cannot rebuild distribution " + d);
        };
    }
}
