package io.queuelab.fit.compare;

import io.queuelab.core.log.LogFormat;
import io.queuelab.fit.runs.RequestSource;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Sources of independent simulated replications of a given sample size, for the yardstick. */
public final class Replications {
    private Replications() {
    }

    /** Replications for a yardstick, and how they were obtained (for the report). */
    public record Yardstick(List<Histogram> replications, String description) {
    }

    /**
     * The yardstick of a simulated run: independent replications by model-sim of the model and
     * workload its manifest names, each of {@code sampleSize} customers; when the manifest does
     * not allow that (a trace-driven run, empirical distributions), disjoint segments of the run.
     */
    public static Yardstick forSimulatedRun(io.queuelab.fit.runs.RunData simulated, long sampleSize, int count, long seed)
            throws IOException {
        var model = SimulatedRunModel.of(simulated.manifest());
        if (model.isPresent()) {
            return new Yardstick(model.get().model().replications(model.get().workload(), sampleSize, count, seed),
                    count + " independent replications of " + sampleSize + " requests by model-sim of the simulated run's model ("
                            + model.get().model().name() + ", " + model.get().workload().mode() + ")");
        }
        List<Histogram> segments = segments(simulated.source(), sampleSize, count);
        return new Yardstick(segments, segments.size() + " disjoint segments of " + sampleSize + " requests of the simulated run");
    }

    /**
     * Consecutive disjoint segments of {@code sampleSize} successful requests of a simulated run
     * (warm-up records skipped), at most {@code max}; a stand-in for independent replications
     * when the run is long compared with the model's correlation time.
     */
    public static List<Histogram> segments(Path simulatedRun, long sampleSize, int max) throws IOException {
        if (sampleSize < 1) {
            throw new IllegalArgumentException("sample size must be positive");
        }
        List<Histogram> out = new ArrayList<>();
        Histogram current = new Histogram(3);
        try (RequestSource in = RequestSource.open(simulatedRun)) {
            while (out.size() < max && in.next()) {
                if (in.warmup() || in.outcome() != LogFormat.OK || in.completed() == LogFormat.NONE) {
                    continue;
                }
                current.recordValue(Math.max(0, in.completed() - in.intended()));
                if (current.getTotalCount() == sampleSize) {
                    out.add(current);
                    current = new Histogram(3);
                }
            }
        }
        return out;
    }
}
