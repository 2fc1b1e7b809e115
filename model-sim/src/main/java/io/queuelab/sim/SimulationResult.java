package io.queuelab.sim;

import org.HdrHistogram.Histogram;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The outcome of a {@link Simulation}: every replication after warm-up removal, and estimates over
 * them. Intervals come from independent replications (Student t over the replication means) when
 * there are at least two, otherwise from batch means of the single replication. Times are seconds
 * except in the histogram, which holds nanoseconds like the histograms of measured runs.
 */
public final class SimulationResult {
    private final Model model;
    private final ArrivalProcess arrivalProcess;
    private final long seed;
    private final double confidence;
    private final List<ReplicationResult> replications;
    private final Histogram responseTimes;
    private final Path runDirectory;

    SimulationResult(Model model, ArrivalProcess arrivalProcess, long seed, double confidence,
                     List<ReplicationResult> replications, Path runDirectory) {
        this.model = model;
        this.arrivalProcess = arrivalProcess;
        this.seed = seed;
        this.confidence = confidence;
        this.replications = List.copyOf(replications);
        this.responseTimes = new Histogram(3);
        for (ReplicationResult r : replications) {
            responseTimes.add(r.responseTimes());
        }
        this.runDirectory = runDirectory;
    }

    public Model model() {
        return model;
    }

    public ArrivalProcess arrivalProcess() {
        return arrivalProcess;
    }

    public long seed() {
        return seed;
    }

    public double confidence() {
        return confidence;
    }

    /** The replications in index order. */
    public List<ReplicationResult> replications() {
        return replications;
    }

    /** Response times of all replications after warm-up, in nanoseconds. */
    public Histogram responseTimes() {
        return responseTimes;
    }

    /** Answered requests counted over all replications (after warm-up). */
    public long customers() {
        return replications.stream().mapToLong(ReplicationResult::customers).sum();
    }

    /** Requests refused over all replications (load-dependent model only). */
    public long dropped() {
        return replications.stream().mapToLong(ReplicationResult::dropped).sum();
    }

    /** The mean response time of each replication, seconds. */
    public double[] replicationMeans() {
        return replications.stream().mapToDouble(ReplicationResult::meanResponse).toArray();
    }

    /** Mean response time, seconds. */
    public Estimate meanResponse() {
        if (replications.size() == 1) {
            ReplicationResult only = replications.get(0);
            return new Estimate(only.meanResponse(), only.batchMeans().halfWidth(), confidence, only.batchMeans().samples());
        }
        return Estimate.ofSamples(replicationMeans(), confidence);
    }

    /**
     * The q-quantile (0..1) of the response time, seconds: the value of the pooled histogram, with
     * the half-width of the replications' own q-quantiles (NaN with a single replication).
     */
    public Estimate quantile(double q) {
        double pooled = responseTimes.getValueAtPercentile(q * 100) / 1e9;
        Estimate spread = over(r -> r.quantile(q));
        return new Estimate(pooled, spread.halfWidth(), confidence, spread.samples());
    }

    /** Answered requests per second. */
    public Estimate throughput() {
        return over(ReplicationResult::throughput);
    }

    /** Time-average number of requests in the system. */
    public Estimate meanPopulation() {
        return over(ReplicationResult::meanPopulation);
    }

    /** Mean time between flush starts (dirty-page-buffer model), seconds. */
    public Optional<Estimate> flushPeriod() {
        return flushes(FlushSummary::meanPeriod);
    }

    /** Mean flush duration (dirty-page-buffer model), seconds. */
    public Optional<Estimate> flushDuration() {
        return flushes(FlushSummary::meanDuration);
    }

    /** Mean pages per dirty-page flush, or commits per log flush (group commit). */
    public Optional<Estimate> flushSize() {
        return flushes(FlushSummary::meanPages);
    }

    /** Flushes started over all replications (0 for models without a buffer). */
    public long flushCount() {
        return replications.stream().mapToLong(r -> r.flushes() == null ? 0 : r.flushes().flushes()).sum();
    }

    /** The run directory written, if one was asked for. */
    public Optional<Path> runDirectory() {
        return Optional.ofNullable(runDirectory);
    }

    private Optional<Estimate> flushes(java.util.function.ToDoubleFunction<FlushSummary> statistic) {
        if (replications.get(0).flushes() == null) {
            return Optional.empty();
        }
        return Optional.of(over(r -> statistic.applyAsDouble(r.flushes())));
    }

    private Estimate over(java.util.function.ToDoubleFunction<ReplicationResult> statistic) {
        return Estimate.ofSamples(replications.stream().mapToDouble(statistic).toArray(), confidence);
    }
}
