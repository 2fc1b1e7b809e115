package io.queuelab.cli;

import io.queuelab.reports.text.FitTables;
import io.queuelab.reports.text.ValidationText;
import io.queuelab.fit.RunNotes;
import io.queuelab.fit.runs.RunArguments;
import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.runs.ServerTelemetry;
import io.queuelab.fit.CandidateModel;
import io.queuelab.fit.CandidateModels;
import io.queuelab.fit.DpbFit;
import io.queuelab.fit.FitData;
import io.queuelab.fit.HeldOutValidation;
import io.queuelab.fit.LoadDependentFit;
import io.queuelab.fit.SystemLimits;
import io.queuelab.fit.TestedFit;
import io.queuelab.fit.PauseCauses;
import io.queuelab.fit.SimulationRefinement;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code queuelab fit}: fits queueing models to runs (run directories, sweep directories, CSV
 * request logs): {@code fit mm1} (seed 001) and {@code fit dpb} (seed 004).
 */
@Command(name = "fit", mixinStandardHelpOptions = true,
        description = "Fit a queueing model to runs (run or sweep directories, or CSV request logs; see docs/csv-logs.md).",
        subcommands = {FitCommand.Mm1.class, FitCommand.Dpb.class})
public final class FitCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        throw new IllegalArgumentException("name a model: queuelab fit mm1 ... or queuelab fit dpb ...");
    }

    @Command(name = "mm1", mixinStandardHelpOptions = true,
            description = {"Modified M/M/1, E[R] = x/(1 - lambda x) + l, from open runs at several rates:",
                    "the paper's method (R0 from the lowest rate, mu = 1/(R0 - l), l by least squares) and the joint",
                    "Levenberg-Marquardt fit of x and l weighted by 1/R^2; with --load-dependent also p of x_n = x (1+p)^(n-1).",
                    "Each fit says whether it is identified and whether it fits (residuals against their errors; each run's",
                    "response-time CDF against the model's, within simulation noise or not). Models of the system as it is:",
                    "queuelab validate."})
    static final class Mm1 implements Callable<Integer> {
        @Parameters(arity = "1..*", paramLabel = "RUN", description = "Open runs, sweep directories or CSV logs.")
        List<Path> runs;

        @Option(names = "--load-dependent", description = "Also fit the load-dependent model (3 or more rates).")
        boolean loadDependent;

        @Option(names = "--latency", description = "Hold l at this value (s) in the load-dependent fit.")
        Double latency;

        @Option(names = "--seed", defaultValue = "1", description = "Seed of the simulations that test the fits (default ${DEFAULT-VALUE}).")
        long seed;

        @Option(names = "--capacity", defaultValue = "" + LoadDependentFit.DEFAULT_CAPACITY,
                description = "Capacity K of the load-dependent model (default ${DEFAULT-VALUE}).")
        int capacity;

        @Override
        public Integer call() throws IOException {
            if (capacity < 1) {
                throw new IllegalArgumentException("--capacity must be at least 1, got " + capacity);
            }
            if (latency != null && !loadDependent) {
                throw new IllegalArgumentException("--latency applies to --load-dependent only");
            }
            List<Path> expanded = RunArguments.expand(runs);
            RunArguments.refuseTwice(expanded, "each run is one point of the fit");
            List<RunData> measured = RunArguments.read(expanded);
            HeldOutValidation.refuseMixedRuns(measured); // one model, one workload on one server: validate's rule, and the report's
            FitData.leftOut(measured).forEach(System.out::println); // first: runs that are no point of the fit
            RunNotes.of(measured, expanded.stream().map(Path::toString).toList()).forEach(System.out::println); // and runs not vouched for
            FitData data = FitData.of(measured, SystemLimits.of(measured, null, null), seed).requireRates(2, "an M/M/1 fit");
            List<CandidateModel> models = new java.util.ArrayList<>(CandidateModels.STANDARD.named("mm1-paper,mm1"));
            if (loadDependent) {
                models.add(CandidateModels.loadDependent(capacity, latency));
            }
            String separator = "";
            for (TestedFit tested : TestedFit.all(models, data)) {
                StringBuilder s = new StringBuilder(separator).append(FitTables.of(tested.fit().fit()));
                if (!tested.fitRuns().isEmpty()) {
                    s.append("  each run against the fitted model's prediction at its rate:\n");
                    ValidationText.appendPredictions(s, tested.fitRuns());
                }
                System.out.print(s);
                separator = "\n";
            }
            return 0;
        }
    }

    @Command(name = "dpb", mixinStandardHelpOptions = true,
            description = {"The dirty-page-buffer model of seed 004 the paper's way (section 4.2), printed as its Table 1."})
    static final class Dpb implements Callable<Integer> {
        @Option(names = "--open", required = true, description = "An open run at a high arrival rate (flush period, P).")
        Path open;

        @Option(names = "--closed", required = true, description = "A closed run with many concurrent requests (pauses, P).")
        Path closed;

        @Option(names = "--single", required = true, description = "A closed run with one request at a time (E[T_nd]).")
        Path single;

        @Option(names = "--min-pause", paramLabel = "SECONDS",
                description = "min(T_pause), the shortest departure gap taken for a flush, in both runs (the paper sets it by"
                        + " examining the runs); default: each run's own threshold from its busy gaps.")
        Double minPause;

        @Option(names = "--refine", paramLabel = "EVALUATIONS",
                description = "Then refine T_proc, T_dp and DPB_max by simulation on the open run (minimum Wasserstein-1,"
                        + " Nelder-Mead, common random numbers) with this many simulations (e.g. 80).")
        Integer refine;

        @Option(names = "--seed", defaultValue = "1", description = "Seed of the simulations that test and refine the fit (default ${DEFAULT-VALUE}).")
        long seed;

        @Option(names = "--held-out", paramLabel = "RUN", arity = "1..*",
                description = "Runs the fit does not take (other rates, other N) to predict from their rate or N alone, each"
                        + " judged against the simulation-noise yardstick.")
        List<Path> heldOut = List.of();

        @Override
        public Integer call() throws IOException {
            java.util.Set<Path> taken = new java.util.HashSet<>(List.of(open.toAbsolutePath().normalize(),
                    closed.toAbsolutePath().normalize(), single.toAbsolutePath().normalize()));
            if (heldOut.stream().anyMatch(run -> taken.contains(run.toAbsolutePath().normalize()))) {
                throw new IllegalArgumentException("a --held-out run is one the fit takes (--open, --closed or --single): it would not be held out");
            }
            if (refine != null && refine < 2) {
                throw new IllegalArgumentException("--refine needs at least 2 evaluations, got " + refine);
            }
            RunData openRun = RunData.read(open);
            RunData closedRun = RunData.read(closed);
            // every run is read before anything is printed: a bad one is one line, not the end of a half-printed fit
            List<RunData> heldOutRuns = new java.util.ArrayList<>();
            for (Path run : heldOut) {
                heldOutRuns.add(RunData.read(run));
            }
            RunData singleRun = RunData.read(single);
            List<RunData> all = new java.util.ArrayList<>(List.of(openRun, closedRun, singleRun));
            all.addAll(heldOutRuns);
            List<String> names = new java.util.ArrayList<>(List.of(open.toString(), closed.toString(), single.toString()));
            heldOut.forEach(run -> names.add(run.toString()));
            RunNotes.of(all, names).forEach(System.out::println); // first: a damaged log, servers or hosts that differ
            DpbFit fit = DpbFit.fit(openRun, closedRun, singleRun, minPause == null ? Double.NaN : minPause);
            System.out.print(FitTables.of(fit));
            if (fit.identification().identified()) {
                DpbFit.TestedDpb tested = fit.tested(openRun, heldOutRuns, seed);
                StringBuilder s = new StringBuilder("  ").append(tested.lackOfFit().summary()).append('\n');
                ValidationText.appendPredictions(s, List.of(tested.open()));
                if (!tested.heldOut().isEmpty()) {
                    s.append("  ").append(tested.predictionSummary()).append('\n');
                    ValidationText.appendPredictions(s, tested.heldOut());
                }
                System.out.print(s);
            }
            // pauses of CPU scheduling pass the same statistical checks: the server's page writes tell them apart
            for (var run : List.of(java.util.Map.entry(closedRun, fit.closedFlushes()), java.util.Map.entry(openRun, fit.openFlushes()))) {
                System.out.println("  pauses of " + run.getKey().name() + ": " + PauseCauses.of(run.getKey(), run.getValue(),
                        ServerTelemetry.of(run.getKey())).map(PauseCauses::summary).orElse("no server telemetry (run with --telemetry-interval)"));
            }
            if (refine != null) {
                System.out.print(FitTables.of(SimulationRefinement.refineDpb(openRun, fit, refine, seed)));
            }
            return 0;
        }
    }
}
