package io.queuelab.cli;

import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.Estimate;
import io.queuelab.sim.Model;
import io.queuelab.sim.Simulation;
import io.queuelab.sim.SimulationResult;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code queuelab simulate}: runs one of the models (M/M/1 FCFS, processor sharing, load-dependent,
 * dirty-page buffer) under open, trace-driven or closed load and prints the mean and percentiles of
 * the response time with confidence intervals; optionally writes a simulated run directory.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
        description = {"Simulate a queueing model and print response-time statistics with confidence intervals.",
                "Distributions (seconds): exp:MEAN (or a bare number), det:VALUE, shexp:SHIFT,MEAN, empirical:RUN_DIR"
                        + " (the service times measured in a run directory)."})
public final class SimulateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    ModelOptions model;

    @Mixin
    ServerCoresOption serverCores;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Load load;

    static final class Load {
        @Option(names = "--lambda", required = true, description = "Open Poisson arrivals per second.")
        Double lambda;

        @Option(names = "--closed", required = true, description = "Closed: this many requests circulate.")
        Integer jobs;

        @Option(names = "--trace", required = true, description = "Replay the arrival instants of this run directory.")
        Path trace;
    }

    @Option(names = "--think", description = "Closed: think time between answer and next request (default det:0).")
    String think;

    @Option(names = "--duration", description = "Simulated seconds of arrivals per replication.")
    Double duration;

    @Option(names = "--customers", description = "Arrivals per replication (with --duration: whichever ends first).")
    Long customers;

    @Option(names = "--replications", defaultValue = "5", description = "Independent replications (default ${DEFAULT-VALUE}).")
    int replications;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the random streams (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--precision", description = "Add replications until the mean's CI is within this fraction (e.g. 0.02).")
    Double precision;

    @Option(names = "--max-replications", defaultValue = "100", description = "Limit for --precision (default ${DEFAULT-VALUE}).")
    int maxReplications;

    @Option(names = "--confidence", defaultValue = "0.95", description = "Confidence level (default ${DEFAULT-VALUE}).")
    double confidence;

    @Option(names = "--keep-warmup", description = "Do not delete the warm-up (MSER-5).")
    boolean keepWarmup;

    @Option(names = "--threads", description = "Threads for replications (default: up to 2; results do not depend on it).")
    Integer threads;

    @Option(names = "--out", description = "Write a simulated run directory here (must not exist).")
    Path out;

    @Override
    public Integer call() throws IOException {
        Model m = model.model(serverCores.value());
        ArrivalProcess arrivalProcess = arrivalProcess();
        Simulation simulation = Simulation.of(m, arrivalProcess).replications(replications).seed(seed)
                .confidence(confidence).removeWarmup(!keepWarmup);
        if (duration != null) {
            simulation.duration(duration);
        }
        if (customers != null) {
            simulation.customers(customers);
        }
        if (precision != null) {
            simulation.precision(precision, maxReplications);
        }
        if (threads != null) {
            simulation.threads(threads);
        }
        if (out != null) {
            OutputPath.requireCreatable(out, "run directory");
            simulation.writeRun(out);
        }
        simulation.validate();
        if (arrivalProcess instanceof ArrivalProcess.Trace trace && !m.stableAt(trace.rate())) {
            // a finite trace always ends, but what it measures is a transient, not a steady state
            spec.commandLine().getErr().printf(Locale.ROOT,
                    "queuelab: warning: the trace's mean rate %.4g/s gives utilization %.3f >= 1 (mean server time %.4g s);"
                            + " the result describes this overloaded trace only%n",
                    trace.rate(), m.utilization(trace.rate()), m.serverDemand());
            spec.commandLine().getErr().flush();
        }
        print(simulation.run(), spec.commandLine().getOut());
        return 0;
    }

    private ArrivalProcess arrivalProcess() throws IOException {
        ModelOptions.refuse(think != null && load.jobs == null, "--think applies to --closed only");
        if (load.lambda != null) {
            return ArrivalProcess.open(load.lambda);
        }
        if (load.jobs != null) {
            return think == null ? ArrivalProcess.closed(load.jobs) : ArrivalProcess.closed(load.jobs, ModelOptions.distribution("--think", think));
        }
        return ArrivalProcess.traceOf(load.trace);
    }

    private void print(SimulationResult r, PrintWriter w) {
        int percent = (int) Math.round(r.confidence() * 100);
        w.printf(Locale.ROOT, "model %s, %s workload, %d replications, seed %d%n", r.model().name(), r.arrivalProcess().mode(),
                r.replications().size(), r.seed());
        w.printf(Locale.ROOT, "requests counted %d (after warm-up)%s%n", r.customers(),
                r.dropped() > 0 ? ", refused " + r.dropped() : "");
        w.printf(Locale.ROOT, "response time (ms, %d%% CI):%n", percent);
        w.printf(Locale.ROOT, "  mean    %s%n", ms(r.meanResponse()));
        for (double q : new double[] {0.5, 0.9, 0.99, 0.999}) {
            w.printf(Locale.ROOT, "  %-7s %s%n", "p" + new java.math.BigDecimal(Double.toString(q * 100)).stripTrailingZeros().toPlainString(),
                    ms(r.quantile(q)));
        }
        w.printf(Locale.ROOT, "throughput       %s /s%n", plain(r.throughput()));
        w.printf(Locale.ROOT, "mean population  %s%n", plain(r.meanPopulation()));
        r.flushPeriod().ifPresent(e -> w.printf(Locale.ROOT, "flush period     %s s (%d flushes)%n", plain(e), r.flushCount()));
        r.flushDuration().ifPresent(e -> w.printf(Locale.ROOT, "flush duration   %s s%n", plain(e)));
        r.flushSize().ifPresent(e -> w.printf(Locale.ROOT, "flush size       %s (pages of a dirty-page flush, commits of a log flush)%n",
                plain(e)));
        r.runDirectory().ifPresent(p -> w.printf(Locale.ROOT, "run directory    %s%n", p));
        w.flush();
    }

    private static String ms(Estimate e) {
        return plain(e.scaled(1e3));
    }

    private static String plain(Estimate e) {
        String value = String.format(Locale.ROOT, "%.4g", e.value());
        return Double.isNaN(e.halfWidth()) ? value + " (no interval: needs 2 replications)"
                : value + " ± " + String.format(Locale.ROOT, "%.2g", e.halfWidth());
    }
}
