package io.queuelab.sim;

import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.log.RequestLogWriter;
import io.queuelab.core.log.RunDirectory;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A simulation to run: a {@link Model}, a {@link Workload}, a stop rule, replications and a seed.
 *
 * <pre>
 * SimulationResult r = Simulation.of(MM1Model.exponential(0.01), Workload.open(80))
 *         .duration(10_000).replications(4).seed(1).run();
 * </pre>
 *
 * Guarantees: the result depends only on the configuration, never on the number of threads or on
 * timing (replication i draws from {@code new SplittableRandom(s_i)}, s_i the i-th {@code nextLong()}
 * of {@code new SplittableRandom(seed)}); memory does not grow with the number of simulated
 * requests (the per-request log of replication 0, written only with a run directory, streams to
 * disk); an open model whose utilization is 1 or more is
 * refused by {@link #validate()} with a message that names it unstable.
 */
public final class Simulation {
    private final Model model;
    private final Workload workload;
    private double duration = Double.POSITIVE_INFINITY;
    private long customers = Long.MAX_VALUE;
    private int replications = 1;
    private long seed = 1;
    private boolean removeWarmup = true;
    private double confidence = 0.95;
    private double precision = Double.NaN;
    private int maxReplications = 100;
    private int threads = Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors()));
    private Path runDirectory;

    private Simulation(Model model, Workload workload) {
        this.model = java.util.Objects.requireNonNull(model, "model");
        this.workload = java.util.Objects.requireNonNull(workload, "workload");
    }

    public static Simulation of(Model model, Workload workload) {
        return new Simulation(model, workload);
    }

    /** Admit arrivals until this simulated instant (seconds). */
    public Simulation duration(double seconds) {
        if (!(seconds > 0)) {
            throw new IllegalArgumentException("duration must be a positive number of seconds, got " + seconds);
        }
        this.duration = seconds;
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

    /** Arrivals a duration admits: lambda x duration (open), or one per mean server time (closed: one server). */
    private double expectedArrivals() {
        if (workload instanceof Workload.Trace trace) {
            return trace.arrivalNanos().length; // a trace ends with its last arrival
        }
        if (duration == Double.POSITIVE_INFINITY) {
            return Double.POSITIVE_INFINITY;
        }
        if (workload instanceof Workload.Open open) {
            return open.lambda() * duration;
        }
        if (workload instanceof Workload.Closed) {
            return duration / model.serverDemand();
        }
        return Double.POSITIVE_INFINITY;
    }

    /** Checks the configuration; throws IllegalArgumentException with a one-line message. */
    public Simulation validate() {
        if (workload instanceof Workload.Open open && !model.stableAt(open.lambda())) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
                    "unstable: model %s at lambda %s has utilization %.4f >= 1 (lambda x mean server time %s s); an open model has no steady state there",
                    model.name(), open.lambda(), model.utilization(open.lambda()), model.serverDemand()));
        }
        if (!(workload instanceof Workload.Trace) && duration == Double.POSITIVE_INFINITY && customers == Long.MAX_VALUE) {
            throw new IllegalArgumentException("give a duration or a number of customers for an " + workload.mode() + " workload");
        }
        double expected = customers == Long.MAX_VALUE ? expectedArrivals() : Math.min(customers, expectedArrivals());
        if (expected > MAX_CUSTOMERS) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
                    "a replication of about %.3g customers is beyond the bound of %,d customers per replication "
                            + "(about 3 minutes at the simulator's 5-7 million customers/s, docs/benchmarks.md): "
                            + "shorten --duration or give --customers",
                    expected, MAX_CUSTOMERS));
        }
        return this;
    }

    /** Runs every replication and, if asked, writes the run directory. */
    public SimulationResult run() throws IOException {
        validate();
        RunDirectory run = runDirectory == null ? null : RunDirectory.create(runDirectory);
        Manifest manifest = Manifest.create("simulated");
        if (run != null) {
            describe(manifest);
            manifest.write(run.path());
        }
        SplittableRandom root = new SplittableRandom(seed);
        List<Long> seeds = new ArrayList<>();
        List<ReplicationResult> results = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "simulation");
            t.setDaemon(true);
            return t;
        });
        try {
            int target = Double.isNaN(precision) ? replications : Math.max(2, replications);
            int checked = Math.max(2, replications) - 1;
            while (true) {
                List<Future<ReplicationResult>> round = new ArrayList<>();
                for (int i = results.size(); i < target; i++) {
                    seeds.add(root.nextLong()); // in index order, so seed i never depends on threads
                    long replicationSeed = seeds.get(i);
                    int index = i;
                    round.add(pool.submit(() -> replicate(index, replicationSeed, index == 0 ? run : null)));
                }
                for (Future<ReplicationResult> f : round) {
                    results.add(await(f));
                }
                if (Double.isNaN(precision)) {
                    break;
                }
                // the stop is the first count, in index order, whose interval is narrow enough, so it
                // does not depend on how many replications a round ran in parallel
                int enough = firstPreciseCount(results, checked);
                if (enough > 0) {
                    results.subList(enough, results.size()).clear();
                    break;
                }
                checked = results.size();
                if (target >= maxReplications) {
                    break;
                }
                target = Math.min(maxReplications, target + threads);
            }
        } finally {
            pool.shutdownNow();
        }
        SimulationResult result = new SimulationResult(model, workload, seed, confidence, results, runDirectory);
        if (result.customers() == 0) {
            // the manifest stays incomplete: nothing was measured
            throw new IllegalStateException("no request was answered in " + results.size()
                    + " replication(s): lengthen the run (duration or customers) or raise the arrival rate");
        }
        if (run != null) {
            SimulatedManifest.summarize(manifest, result);
            manifest.markComplete();
            manifest.write(run.path());
        }
        return result;
    }

    /** The smallest count above {@code checked} whose mean interval meets the precision, or 0. */
    private int firstPreciseCount(List<ReplicationResult> results, int checked) {
        for (int k = Math.max(2, checked + 1); k <= results.size(); k++) {
            double[] means = results.subList(0, k).stream().mapToDouble(ReplicationResult::meanResponse).toArray();
            if (Estimate.ofSamples(means, confidence).relativeHalfWidth() <= precision) {
                return k;
            }
        }
        return 0;
    }

    private static ReplicationResult await(Future<ReplicationResult> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("simulation interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException(cause);
        }
    }

    private ReplicationResult replicate(int index, long replicationSeed, RunDirectory run) throws IOException {
        ReplicationResult result = simulate(index, replicationSeed, new Recorder());
        if (run == null) {
            return result;
        }
        // replay the same sample path, now that the warm-up cut is known, to flag it in the log
        try (RequestLogWriter log = RequestLogWriter.create(run.log(), 0);
             Writer flushLog = model instanceof DirtyPageBufferModel
                     ? Files.newBufferedWriter(run.path().resolve(SimulatedManifest.FLUSH_FILE)) : Writer.nullWriter()) {
            log.defineOperation(0, "request");
            if (model instanceof DirtyPageBufferModel) {
                flushLog.write("startNanos\tendNanos\tpages\n");
            }
            return simulate(index, replicationSeed, new Recorder(log, flushLog, result.warmupCustomers()));
        }
    }

    private ReplicationResult simulate(int index, long replicationSeed, Recorder recorder) {
        Streams streams = Streams.of(new SplittableRandom(replicationSeed));
        if (model instanceof DirtyPageBufferModel) {
            recorder.expectFlushes();
        }
        ArrivalSource arrivals = ArrivalSource.of(workload, new Stop(duration, customers), streams);
        if (model instanceof ServiceTimeModel shared && !(model instanceof MM1Model)) {
            new SharedServer(shared, streams, recorder).run(arrivals);
        } else {
            new FcfsServer(model, streams, recorder).run(arrivals);
        }
        // an open or closed run observes until its duration; a trace until its last departure
        double windowEnd = workload instanceof Workload.Trace || duration == Double.POSITIVE_INFINITY ? 0 : duration;
        return recorder.finish(index, removeWarmup, confidence, windowEnd);
    }

    private void describe(Manifest manifest) {
        boolean fixedCount = Double.isNaN(precision);
        SimulatedManifest.describe(manifest, model, new SimulatedManifest.Config(seed, replications,
                fixedCount ? null : precision, fixedCount ? null : maxReplications, workload.describe(), workload.mode(),
                duration == Double.POSITIVE_INFINITY ? null : duration, customers == Long.MAX_VALUE ? null : customers,
                removeWarmup ? "MSER-5" : "none", confidence));
    }
}
