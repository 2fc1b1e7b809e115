package io.queuelab.fit.compare;

import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.ModelInfo;
import io.queuelab.core.manifest.ModelParameters;
import io.queuelab.core.manifest.ArrivalProcessSpec;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.Distribution;
import io.queuelab.sim.FittedModel;
import io.queuelab.sim.Model;
import io.queuelab.sim.ModelInputs;
import io.queuelab.sim.ModelKinds;

import java.util.Optional;

/**
 * The model (its latency outside the server included) and workload of a simulated run, rebuilt from its manifest's {@link ModelInfo}, so
 * that independent replications of it can be simulated. Empty for a measured run, a trace-driven
 * run without a rate, or a model with a distribution that cannot be rebuilt (empirical service
 * times).
 */
public record SimulatedRunModel(FittedModel model, ArrivalProcess workload) {

    public static Optional<SimulatedRunModel> of(Optional<Manifest> manifest) {
        ModelInfo section = manifest.flatMap(Manifest::model).orElse(null);
        if (section == null || section.parameters() == null || section.workload() == null || section.name() == null) {
            return Optional.empty();
        }
        ModelParameters p = section.parameters();
        try {
            Model model = ModelKinds.named(section.name()).of(ModelInputs.of(p));
            ArrivalProcessSpec w = section.workload();
            ArrivalProcess workload = switch (w.mode() == null ? "" : w.mode()) {
                case "open" -> ArrivalProcess.open(number(w.lambda()));
                // a trace-driven run is replicated as Poisson arrivals at the trace's rate
                case "trace" -> w.rate() != null ? ArrivalProcess.open(w.rate()) : null;
                case "closed" -> w.thinkTime() != null
                        ? ArrivalProcess.closed(w.jobs() == null ? 0 : w.jobs(), Distribution.of(w.thinkTime()))
                        : ArrivalProcess.closed(w.jobs() == null ? 0 : w.jobs());
                default -> null;
            };
            return workload == null ? Optional.empty()
                    : Optional.of(new SimulatedRunModel(new FittedModel(model.name(), model, number(p.latencySeconds())), workload));
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // e.g. an empirical distribution, whose values the manifest does not hold
        }
    }

    private static double number(Double x) {
        return x == null ? 0 : x;
    }
}
