package io.queuelab.cli;

import io.queuelab.reports.text.ValidationJson;
import io.queuelab.reports.text.ValidationText;
import io.queuelab.fit.CandidateModels;
import io.queuelab.fit.HeldOutValidation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code queuelab validate RUN... --holdout RUN[,RUN...]}: fits every candidate model on the runs
 * given, predicts each held-out run from its workload alone, and selects the model with the
 * smallest held-out error ({@link HeldOutValidation}).
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = {"Fit candidate models on runs and judge them on held-out runs they were not fitted to: per model whether",
                "it is identified and whether it fits (residuals, and each fit run's CDF against the simulation-noise yardstick),",
                "then measured vs predicted mean, p50, p99 and CDF distance of every held-out run; selects the model with the",
                "smallest held-out error (ties to the simpler). Closed held-out runs are predicted from the open fit (X(N), R(N))."})
public final class ValidateCommand implements Callable<Integer> {
    @Parameters(arity = "0..*", paramLabel = "RUN", description = "Fit runs: open run directories, sweep directories or CSV logs.")
    List<Path> runs;

    @Option(names = "--list-models", description = "Print every candidate model (the system it describes, what it is fitted from,"
            + " what it assumes, when it is the right choice: docs/models.md) and exit.")
    boolean listModels;

    // required unless --list-models, which picocli cannot say: checked in call()
    @Option(names = "--holdout", split = ",", paramLabel = "RUN",
            description = "Held-out runs (open or closed), comma-separated or repeated.")
    List<Path> holdout;

    @Option(names = "--models", paramLabel = "NAME,...",
            description = "The candidate models (default: all of ${COMPLETION-CANDIDATES}).", completionCandidates = ModelNames.class)
    String models;

    @picocli.CommandLine.Mixin
    ServerCoresOption serverCores;

    @Option(names = "--connections", paramLabel = "K",
            description = "The client's connections K (default: the manifest's workers or in-flight bound, else the log's sent column).")
    Integer connections;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the outcome as JSON (docs/experiments.md).")
    Path json;

    @Option(names = "--seed", defaultValue = "" + HeldOutValidation.DEFAULT_SEED,
            description = "Seed of every simulation (default ${DEFAULT-VALUE}, the report's: the same runs give the report's numbers).")
    long seed;

    @Override
    public Integer call() throws IOException {
        if (listModels) {
            System.out.print(CandidateModels.STANDARD.cardTable());
            return 0;
        }
        if (runs == null || runs.isEmpty()) {
            throw new IllegalArgumentException("give the fit runs: queuelab validate RUN... --holdout RUN[,RUN...]");
        }
        if (holdout == null || holdout.isEmpty()) {
            throw new IllegalArgumentException("give the held-out runs with --holdout RUN[,RUN...]");
        }
        requireNamed(runs, "a fit run");
        requireNamed(holdout, "--holdout");
        if (json != null) {
            OutputPath.requireWritable(json, "--json");
        }
        var result = HeldOutValidation.run(runs, holdout, models == null ? CandidateModels.STANDARD.all() : CandidateModels.STANDARD.named(models),
                connections, serverCores.value(), seed);
        System.out.print(ValidationText.toTable(result));
        if (json != null) {
            ValidationJson.write(result, json);
            System.out.println("wrote " + json);
        }
        return 0;
    }

    /**
     * Refuses an empty run name ({@code --holdout ''}, a stray comma in a list): Path.of("") is the
     * working directory, which would otherwise be read as a run or a sweep.
     */
    private static void requireNamed(List<Path> paths, String what) {
        if (paths.stream().anyMatch(p -> p.toString().isEmpty())) {
            throw new IllegalArgumentException(what + " has an empty run name ('' or a stray comma): give run directories, e.g. "
                    + "--holdout r500,r800");
        }
    }

    /** The registry's names, for the help text. */
    static final class ModelNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return CandidateModels.STANDARD.names().iterator();
        }
    }
}
