package io.queuelab.reports;

import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.Model;
import io.queuelab.sim.Simulation;
import io.queuelab.sim.SimulationResult;

import java.io.IOException;
import java.nio.file.Path;

/** Run directories written by model-sim from known parameters, for fitting them back. */
public final class SimRuns {
    private SimRuns() {
    }

    /** The modified M/M/1 model of seed 001 (a constant latency l outside an M/M/1 queue). */
    public static Model modifiedMm1(double x, double l) {
        return io.queuelab.reports.fit.Mm1Fits.simulationModel(x, l);
    }

    public static SimulationResult write(Path dir, Model model, ArrivalProcess arrivalProcess, long customers, long seed) throws IOException {
        return Simulation.of(model, arrivalProcess).customers(customers).seed(seed).removeWarmup(false)
                .writeRun(dir).run();
    }

    public static SimulationResult writeFor(Path dir, Model model, ArrivalProcess arrivalProcess, double seconds, long seed) throws IOException {
        return Simulation.of(model, arrivalProcess).duration(seconds).seed(seed).removeWarmup(false)
                .writeRun(dir).run();
    }
}
