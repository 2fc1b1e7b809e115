package io.queuelab.fit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.sim.FittedModel;
import io.queuelab.sim.MM1Model;
import io.queuelab.sim.Model;
import io.queuelab.sim.SimulationResult;
import io.queuelab.sim.ArrivalProcess;

import java.io.IOException;
import java.nio.file.Path;

/** Run directories written by model-sim from known parameters, for fitting them back. */
public final class SimRuns {
    private SimRuns() {
    }

    /** The modified M/M/1 model of seed 001 (a constant latency l on the way to an M/M/1 queue). */
    public static FittedModel modifiedMm1(double x, double l) {
        return new FittedModel("mm1", MM1Model.exponential(x), l);
    }

    public static SimulationResult write(Path dir, Model model, ArrivalProcess workload, long customers, long seed) throws IOException {
        return write(dir, new FittedModel(model.name(), model, 0), workload, customers, seed);
    }

    public static SimulationResult write(Path dir, FittedModel model, ArrivalProcess workload, long customers, long seed) throws IOException {
        return model.simulation(workload).customers(customers).seed(seed).removeWarmup(false).writeRun(dir).run();
    }

    public static SimulationResult writeFor(Path dir, Model model, ArrivalProcess workload, double seconds, long seed) throws IOException {
        return writeFor(dir, new FittedModel(model.name(), model, 0), workload, seconds, seed);
    }

    public static SimulationResult writeFor(Path dir, FittedModel model, ArrivalProcess workload, double seconds, long seed) throws IOException {
        return model.simulation(workload).duration(seconds).seed(seed).removeWarmup(false).writeRun(dir).run();
    }

    /**
     * Relabels a simulated run directory as a measured one (its manifest's {@code kind}), as a
     * generator would have written it; with a {@code start} section when an anchor is given.
     */
    public static void relabelAsMeasured(Path dir, Long anchorEpochNanos) throws IOException {
        Path file = dir.resolve(Manifest.FILE_NAME);
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = (ObjectNode) json.readTree(file.toFile());
        root.put("kind", "measured");
        if (anchorEpochNanos != null) {
            root.putObject("start").put("anchorEpochNanos", anchorEpochNanos);
        }
        json.writeValue(file.toFile(), root);
    }
}
