package io.queuelab.sim;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A simulation to run, configured step by step: a {@link Model}, an {@link ArrivalProcess}, a stop
 * rule, replications and a seed. {@link #run()} hands the configuration to the parts that do the
 * work: the model's {@link Engine} serves each {@link Replication},
 * {@link IndependentReplications} runs them in parallel from independent seeds, and
 * {@link SimulatedRunWriter} writes the run directory if one is asked for.
 *
 * <pre>
 * SimulationResult r = Simulation.of(MM1Model.exponential(0.01), ArrivalProcess.open(80))
 *         .duration(10_000).replications(4).seed(1).run();
 * </pre>
 *
 * Guarantees: every setter refuses a value out of range at once (IllegalArgumentException, one
 * line); the result depends only on the configuration, never on the number of threads or on
 * timing (replication i draws from {@code new SplittableRandom(s_i)}, s_i the i-th {@code nextLong()}
 * of {@code new SplittableRandom(seed)}); memory does not grow with the number of simulated
 * requests (the per-request log of replication 0, written only with a run directory, streams to
 * disk); an open model whose utilization is 1 or more, and a replication beyond
 * {@link #MAX_CUSTOMERS}, are refused by {@link #validate()} with a one-line message, and so are more
 * than {@link #MAX_REPLICATIONS} replications or more than {@link #MAX_TOTAL_CUSTOMERS} customers in all.
 */
public final class Simulation {
    private final Model model;
    private final ArrivalProcess arrivalProcess;
    private double duration = Double.POSITIVE_INFINITY;
    private long customers = Long.MAX_VALUE;
    private int replications = 1;
    private long seed = 1;
    private boolean removeWarmup = true;
    private double measureFrom = Double.NEGATIVE_INFINITY;
    private double latency;
    private double confidence = 0.95;
    private double precision = Double.NaN;
    private int maxReplications = 100;
    private int threads = Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors()));
    private Path runDirectory;

    private Simulation(Model model, ArrivalProcess arrivalProcess) {
        this.model = java.util.Objects.requireNonNull(model, "model");
        this.arrivalProcess = java.util.Objects.requireNonNull(arrivalProcess, "arrivalProcess");
    }

    public static Simulation of(Model model, ArrivalProcess arrivalProcess) {
        return new Simulation(model, arrivalProcess);
    }

    /** Admit arrivals until this simulated instant (seconds). */
    public Simulation duration(double seconds) {
        if (!(seconds > 0)) {
            throw new IllegalArgumentException("duration must be a positive number of seconds, got " + seconds);
        }
        this.duration = seconds;
        return this;
    }

    /**
     * Count only the requests that arrive at this simulated instant (seconds) or later; those before
     * are served (they load the server) but not measured: a measured run's warm-up replayed. Default:
     * every request counts.
     */
    public Simulation measureFrom(double seconds) {
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("the measured part must begin at a finite instant, 0 or later, got " + seconds);
        }
        this.measureFrom = seconds;
        return this;
    }

    /**
     * A constant time every request spends outside the server before it reaches it (seconds; the
     * client's and the network's, the modified M/M/1's l), counted in its response time. It is a
     * stage of the request's path, not a shift of the results: a closed job's cycle is think time,
     * latency, server, so X(N) x (R(N) + Z) = N holds with R(N) the whole response. Default 0.
     */
    public Simulation latency(double seconds) {
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("the latency must be a finite number of seconds, 0 or more, got " + seconds);
        }
        this.latency = seconds;
        return this;
    }

    /** Admit this many arrivals per replication (with a duration too, whichever ends first). */
    public Simulation customers(long count) {
        if (count < 1) {
            throw new IllegalArgumentException("customers must be at least 1, got " + count);
        }
        this.customers = count;
        return this;
    }

    /** Independent replications (run on up to {@link #threads(int)} cores). */
    public Simulation replications(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("replications must be at least 1, got " + count);
        }
        this.replications = count;
        return this;
    }

    public Simulation seed(long seed) {
        this.seed = seed;
        return this;
    }

    /** Delete each replication's warm-up by MSER-5 (on by default). */
    public Simulation removeWarmup(boolean remove) {
        this.removeWarmup = remove;
        return this;
    }

    /** Confidence level of every interval (default 0.95). */
    public Simulation confidence(double level) {
        if (!(level > 0 && level < 1)) {
            throw new IllegalArgumentException("confidence must be in (0, 1), got " + level);
        }
        this.confidence = level;
        return this;
    }

    /**
     * Keep adding replications (at least 2) until the mean response time's interval is within
     * {@code relativeHalfWidth} of the mean (e.g. 0.02), or until {@code max} replications.
     */
    public Simulation precision(double relativeHalfWidth, int max) {
        if (!(relativeHalfWidth > 0 && relativeHalfWidth < 1)) {
            throw new IllegalArgumentException("precision must be a fraction in (0, 1), got " + relativeHalfWidth);
        }
        if (max < 2) {
            throw new IllegalArgumentException("a precision stop needs at least 2 replications, got " + max);
        }
        this.precision = relativeHalfWidth;
        this.maxReplications = max;
        return this;
    }

    /** Threads running replications in parallel (default: up to 2). Does not change any result. */
    public Simulation threads(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + count);
        }
        this.threads = count;
        return this;
    }

    /**
     * Also write a run directory (refused if the path exists): manifest.json with kind
     * "simulated", the request log of replication 0 and, for the DPB model, flushes.tsv.
     */
    public Simulation writeRun(Path directory) {
        this.runDirectory = directory;
        return this;
    }

    /**
     * The most customers one replication may simulate, so that a typo such as a duration of 1e300
     * is refused rather than running for ever.
     */
    public static final long MAX_CUSTOMERS = 1_000_000_000L;
    /**
     * The most customers all replications together may simulate: about 15-30 minutes on two
     * threads at the simulator's 5-7 million customers/s per thread (docs/benchmarks.md).
     */
    public static final long MAX_TOTAL_CUSTOMERS = 10_000_000_000L;
    /**
     * The most replications one simulation may run: each keeps its response-time histogram (up to
     * ~170 KB) until the end, so 2^31 of them ended in OutOfMemoryError after 27 s at 4.4 GB.
     */
    public static final int MAX_REPLICATIONS = 1_000;

    /** Arrivals a duration admits: lambda x duration (open), or one per mean server time (closed: one server). */
    private double expectedArrivals() {
        if (arrivalProcess instanceof ArrivalProcess.Trace trace) {
            return trace.arrivalNanos().length; // a trace ends with its last arrival
        }
        if (duration == Double.POSITIVE_INFINITY) {
            return Double.POSITIVE_INFINITY;
        }
        if (arrivalProcess instanceof ArrivalProcess.Open open) {
            return open.lambda() * duration;
        }
        if (arrivalProcess instanceof ArrivalProcess.Closed) {
            return duration / model.serverDemand();
        }
        return Double.POSITIVE_INFINITY;
    }

    /** Checks the configuration; throws IllegalArgumentException with a one-line message. */
    public Simulation validate() {
        boolean replay = measureFrom > Double.NEGATIVE_INFINITY;
        if (replay && duration == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("a replay measured from an instant needs a duration: its timeline is fixed");
        }
        if (replay && runDirectory != null) {
            throw new IllegalArgumentException("a simulated run's log holds every request: measureFrom is for a replay's statistics, not for writeRun");
        }
        // a replay (measureFrom) is a fixed timeline, finite whatever the load: only a steady-state run needs a stable model
        if (arrivalProcess instanceof ArrivalProcess.Open open && !model.stableAt(open.lambda()) && !replay) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
                    "unstable: model %s at lambda %s has utilization %.4f >= 1 (lambda x mean server time %s s); an open model has no steady state there",
                    model.name(), open.lambda(), model.utilization(open.lambda()), model.serverDemand()));
        }
        if (!(arrivalProcess instanceof ArrivalProcess.Trace) && duration == Double.POSITIVE_INFINITY && customers == Long.MAX_VALUE) {
            throw new IllegalArgumentException("give a duration or a number of customers for an " + arrivalProcess.mode() + " workload");
        }
        double expected = customers == Long.MAX_VALUE ? expectedArrivals() : Math.min(customers, expectedArrivals());
        if (expected > MAX_CUSTOMERS) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
                    "a replication of about %.3g customers is beyond the bound of %,d customers per replication "
                            + "(about 3 minutes at the simulator's 5-7 million customers/s, docs/benchmarks.md): "
                            + "shorten --duration or give --customers",
                    expected, MAX_CUSTOMERS));
        }
        int most = Double.isNaN(precision) ? replications : Math.max(replications, maxReplications);
        String which = Double.isNaN(precision) ? "--replications" : "--max-replications";
        if (most > MAX_REPLICATIONS) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
                    "%s %,d is beyond the bound of %,d replications (each keeps its response-time histogram, up to "
                            + "~170 KB, in memory until the end)", which, most, MAX_REPLICATIONS));
        }
        if (expected * most > MAX_TOTAL_CUSTOMERS) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
                    "%,d replications of about %.3g customers each (%.3g in all) are beyond the bound of %,d customers "
                            + "in all (15-30 minutes on two threads, docs/benchmarks.md): fewer %s or shorter replications",
                    most, expected, expected * most, MAX_TOTAL_CUSTOMERS, which));
        }
        return this;
    }

    /** Runs every replication and, if asked, writes the run directory. */
    public SimulationResult run() throws IOException {
        validate();
        SimulatedRunWriter writer = runDirectory == null ? null : SimulatedRunWriter.create(runDirectory, model, describe());
        Replication replication = new Replication(model.engine(), arrivalProcess, new Stop(duration, customers),
                removeWarmup, confidence, measureFrom, latency);
        List<ReplicationResult> results = new IndependentReplications(seed, replications, precision, maxReplications,
                confidence, threads).run((index, replicationSeed) -> index == 0 && writer != null
                        ? writer.logged(replication, index, replicationSeed) : replication.run(index, replicationSeed));
        SimulationResult result = new SimulationResult(model, arrivalProcess, seed, confidence, results, runDirectory);
        if (result.customers() == 0) {
            // the manifest stays incomplete: nothing was measured
            throw new IllegalStateException("no request was answered in " + results.size()
                    + " replication(s): lengthen the run (duration or customers) or raise the arrival rate");
        }
        if (writer != null) {
            writer.complete(result);
        }
        return result;
    }

    /** The configuration, for the manifest's "model" section. */
    private SimulatedManifest.Config describe() {
        boolean fixedCount = Double.isNaN(precision);
        return new SimulatedManifest.Config(seed, replications, fixedCount ? null : precision,
                fixedCount ? null : maxReplications, arrivalProcess.describe(), arrivalProcess.mode(),
                duration == Double.POSITIVE_INFINITY ? null : duration, customers == Long.MAX_VALUE ? null : customers,
                removeWarmup ? "MSER-5" : "none", confidence, latency);
    }
}
