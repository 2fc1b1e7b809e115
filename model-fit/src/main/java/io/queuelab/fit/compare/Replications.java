package io.queuelab.fit.compare;

import io.queuelab.core.log.LogFormat;
import io.queuelab.fit.runs.RequestSource;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Sources of independent simulated replications for the yardstick of a measured sample: each of
 * the sample's size, or of {@link #MAX_REPLICATION_SIZE} requests where the sample is larger
 * ({@link Comparison} scales their distances to the sample's size), so that a yardstick's cost is
 * bounded whatever the run's length.
 */
public final class Replications {
    private Replications() {
    }

    /**
     * The longest replication a yardstick simulates, in requests. Beyond it the noise of the
     * distances is scaled, not simulated: at 50,000 requests the models' responses are long
     * against their correlation times (docs/models.md, "The yardstick": the scaled yardstick of
     * 50,000-request replications against the one of 200,000). A demo's UPDATE run holds 26,000-300,000
     * requests; the yardstick of the longest took 16 x 300,000 simulated requests.
     */
    public static final long MAX_REPLICATION_SIZE = 50_000;

    /** The requests of each yardstick replication for a measured sample of {@code sampleSize}. */
    public static long replicationSize(long sampleSize) {
        return Math.max(1, Math.min(sampleSize, MAX_REPLICATION_SIZE));
    }

    /** Replications for a yardstick, and how they were obtained (for the report). */
    public record Yardstick(List<Histogram> replications, String description) {
    }

    /**
     * The yardstick of a measured sample of {@code sampleSize} requests against a simulated run:
     * independent replications by model-sim of the model and workload its manifest names, each of
     * {@link #replicationSize} customers; when the manifest does not allow that (a trace-driven
     * run, empirical distributions), disjoint segments of the run of that size.
     */
    public static Yardstick forSimulatedRun(io.queuelab.fit.runs.RunData simulated, long sampleSize, int count, long seed)
            throws IOException {
        long size = replicationSize(sampleSize);
        var model = SimulatedRunModel.of(simulated.manifest());
        if (model.isPresent()) {
            return new Yardstick(model.get().model().replications(model.get().workload(), size, count, seed),
                    count + " independent replications of " + describe(size, sampleSize) + " by model-sim of the simulated run's model ("
                            + model.get().model().name() + ", " + model.get().workload().mode() + ")");
        }
        List<Histogram> segments = segments(simulated.source(), size, count);
        return new Yardstick(segments, segments.size() + " disjoint segments of " + describe(size, sampleSize) + " of the simulated run");
    }

    /** "5000 requests", or "50000 requests (scaled to the sample's 300000)" where the replications are shorter than the sample. */
    public static String describe(long replicationSize, long sampleSize) {
        return replicationSize + " requests" + (replicationSize < sampleSize ? " (scaled to the sample's " + sampleSize + ")" : "");
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
