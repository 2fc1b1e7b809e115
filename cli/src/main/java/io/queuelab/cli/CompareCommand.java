package io.queuelab.cli;

import io.queuelab.fit.compare.Comparison;
import io.queuelab.fit.compare.LittlesLawCheck;
import io.queuelab.fit.compare.Replications;
import io.queuelab.fit.runs.RunData;
import io.queuelab.reports.text.FitTables;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code queuelab compare MEASURED SIMULATED}: quantiles side by side, KS D and Wasserstein-1,
 * each judged against the yardstick (pairs of disjoint segments of the simulated run with the
 * measured sample size, by model-sim from the simulated run's manifest, or disjoint segments of the
 * simulated run when the model cannot be rebuilt), and Little's law per window of the measured run.
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Compare a measured run with a simulated one: p50..p99.9, KS D, Wasserstein-1, each 'within simulation",
                "noise' or 'beyond it' against independent simulated samples of the measured size; Little's law per window."})
public final class CompareCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "MEASURED", description = "Measured run directory (or request log / CSV log).")
    Path measured;

    @Parameters(index = "1", paramLabel = "SIMULATED", description = "Simulated run directory, long enough for the yardstick.")
    Path simulated;

    @Option(names = "--replications", defaultValue = "20",
            description = "Simulated samples of the measured size for the yardstick (default ${DEFAULT-VALUE}; pairs are compared).")
    int replications;

    @Option(names = "--seed", defaultValue = "1000003",
            description = "Seed of the yardstick's replications (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--window", description = "Little's-law window, seconds (default: max(10, 100 mean response times)).")
    Double window;

    @Option(names = "--tolerance", defaultValue = "0.1",
            description = "Little's-law relative difference flagged (default ${DEFAULT-VALUE}).")
    double tolerance;

    @Override
    public Integer call() throws IOException {
        if (replications < 2) {
            throw new IllegalArgumentException("--replications must be at least 2, got " + replications);
        }
        if ((window != null && !(window > 0)) || !(tolerance > 0)) {
            throw new IllegalArgumentException("--window and --tolerance must be positive");
        }
        RunData m = RunData.read(measured);
        RunData s = RunData.read(simulated);
        if (m.okCount() == 0 || s.okCount() == 0) {
            throw new IllegalArgumentException("no successful requests in " + (m.okCount() == 0 ? measured : simulated));
        }
        Replications.Yardstick yardstick = Replications.forSimulatedRun(s, m.okCount(), replications, seed);
        List<Histogram> segments = yardstick.replications();
        if (segments.size() < 2) {
            long size = Replications.replicationSize(m.okCount());
            throw new IllegalArgumentException("the simulated run holds " + s.okCount() + " requests: the yardstick needs at least "
                    + 2 * size + " (2 x " + Replications.describe(size, m.okCount()) + "), better " + (long) replications * size
                    + "; simulate longer");
        }
        Comparison c = Comparison.of(m.name(), m.responseNanos(), s.name(), s.responseNanos(), segments);
        System.out.print(FitTables.of(c));
        System.out.println("yardstick: " + yardstick.description());
        double seconds = window != null ? window : LittlesLawCheck.defaultWindowSeconds(m);
        List<LittlesLawCheck.Window> windows = LittlesLawCheck.check(m, seconds, tolerance, 50);
        List<LittlesLawCheck.Window> flagged = windows.stream().filter(LittlesLawCheck.Window::flagged).toList();
        System.out.printf(Locale.ROOT, "Little's law on %s: %d windows of %.4g s, %d inconsistent (|L - XR| > %.0f%%)%n",
                m.name(), windows.size(), seconds, flagged.size(), 100 * tolerance);
        for (LittlesLawCheck.Window w : flagged.subList(0, Math.min(10, flagged.size()))) {
            System.out.printf(Locale.ROOT, "  at %.4g s: L %.4g, X %.4g/s, R %.4g s, XR %.4g%n",
                    w.startSeconds(), w.meanInFlight(), w.throughput(), w.meanResponse(), w.littleProduct());
        }
        return 0;
    }
}
