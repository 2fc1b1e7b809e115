package io.queuelab.fit.compare;

import io.queuelab.core.manifest.DistributionSpec;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.ModelInfo;
import io.queuelab.core.manifest.ModelParameters;
import io.queuelab.core.manifest.ArrivalProcessSpec;
import io.queuelab.sim.ClientLimitedModel;
import io.queuelab.sim.DirtyPageBufferModel;
import io.queuelab.sim.FittedModel;
import io.queuelab.sim.Distribution;
import io.queuelab.sim.LoadDependentModel;
import io.queuelab.sim.MM1Model;
import io.queuelab.sim.Model;
import io.queuelab.sim.ProcessorSharingModel;
import io.queuelab.sim.ArrivalProcess;

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
        if (section == null || section.parameters() == null || section.workload() == null) {
            return Optional.empty();
        }
        ModelParameters p = section.parameters();
        try {
            Model model = switch (section.name() == null ? "" : section.name()) {
                case "mm1" -> new MM1Model(distribution(p.service()));
                case "mm1-ps" -> new ProcessorSharingModel(distribution(p.service()));
                case "mm1-ld" -> new LoadDependentModel(distribution(p.service()), number(p.p()),
                        p.capacity() == null ? LoadDependentModel.DEFAULT_CAPACITY : p.capacity());
                case "client-ps" -> new ClientLimitedModel(distribution(p.service()), p.connections() == null ? 0 : p.connections(),
                        p.cores() == null ? 0 : p.cores());
                case "client-slice" -> new ClientLimitedModel(distribution(p.service()), p.connections() == null ? 0 : p.connections(),
                        p.cores() == null ? 0 : p.cores(), number(p.sliceSeconds()));
                case "dpb" -> new DirtyPageBufferModel(distribution(p.networkDelay()), distribution(p.processing()),
                        p.bufferPages() == null ? 0 : p.bufferPages(), distribution(p.dirtyPage()));
                default -> null;
            };
            ArrivalProcessSpec w = section.workload();
            ArrivalProcess workload = switch (w.mode() == null ? "" : w.mode()) {
                case "open" -> ArrivalProcess.open(number(w.lambda()));
                // a trace-driven run is replicated as Poisson arrivals at the trace's rate
                case "trace" -> w.rate() != null ? ArrivalProcess.open(w.rate()) : null;
                case "closed" -> w.thinkTime() != null
                        ? ArrivalProcess.closed(w.jobs() == null ? 0 : w.jobs(), distribution(w.thinkTime()))
                        : ArrivalProcess.closed(w.jobs() == null ? 0 : w.jobs());
                default -> null;
            };
            return model == null || workload == null ? Optional.empty()
                    : Optional.of(new SimulatedRunModel(new FittedModel(model.name(), model, number(p.latencySeconds())), workload));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static double number(Double x) {
        return x == null ? 0 : x;
    }

    private static Distribution distribution(DistributionSpec d) {
        String type = d == null || d.type() == null ? "" : d.type();
        return switch (type) {
            case "exponential" -> Distribution.exponential(number(d.mean()));
            case "deterministic" -> Distribution.deterministic(number(d.value()));
            case "shifted-exponential" -> Distribution.shiftedExponential(number(d.shift()), number(d.exponentialMean()));
            default -> throw new IllegalArgumentException("cannot rebuild distribution " + d);
        };
    }
}
