package io.queuelab.cli;

import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.summary.RunSummary;
import io.queuelab.core.summary.SummaryText;
import io.queuelab.fit.runs.RunArguments;
import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.runs.SteadyState;
import io.queuelab.fit.CandidateModels;
import io.queuelab.fit.FitData;
import io.queuelab.fit.ModelFit;
import io.queuelab.fit.SystemLimits;
import io.queuelab.fit.TestedFit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code queuelab summary}: counts, rate, latency percentiles and the self-check of a run directory,
 * or of every run of a sweep directory. An incomplete run or sweep, or a damaged log, is said first.
 */
@Command(name = "summary", mixinStandardHelpOptions = true,
        description = "Summarise a run directory: counts, rate, mean and p50/p90/p99/p99.9/max of response, service and queue time, the self-check, "
                + "and per phase whether it reached steady state (MSER) with 95 %% intervals on the mean, p50 and p99 response time; "
                + "of a rate sweep, whether the modified M/M/1 and the client-limited model are identified and whether they fit.")
public final class SummaryCommand implements Callable<Integer> {
    @Parameters(paramLabel = "RUN_DIR", description = "A run directory, or a sweep directory (every run in it).")
    Path dir;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if (Completeness.isSweep(dir)) {
            return sweep();
        }
        RunDirectory run = RunDirectory.open(dir);
        Manifest manifest = Files.exists(run.manifestFile()) ? run.manifest() : null;
        spec.commandLine().getOut().print(SummaryText.render(RunSummary.of(run), manifest));
        List<String> phaseNames = new ArrayList<>();
        if (manifest != null) {
            manifest.config().ifPresent(c -> c.phases().forEach(p -> phaseNames.add(p.name())));
        }
        spec.commandLine().getOut().print(SteadyState.of(run.path()).text(phaseNames));
        ResourceLines.print(spec.commandLine().getOut(), run.path());
        spec.commandLine().getOut().flush();
        return 0;
    }

    /** A sweep directory: whether it is complete, then the summary of every run on disk. */
    private int sweep() throws IOException {
        java.io.PrintWriter out = spec.commandLine().getOut();
        Completeness.ofSweep(dir).forEach(out::println);
        List<Path> runs = Completeness.runsOf(dir);
        out.println("sweep " + dir + ": " + runs.size() + " run" + (runs.size() == 1 ? "" : "s") + " on disk");
        for (Path path : runs) {
            RunDirectory run = RunDirectory.open(path);
            out.println();
            out.println("== " + path.getFileName() + " ==");
            out.print(SummaryText.render(RunSummary.of(run), Files.exists(run.manifestFile()) ? run.manifest() : null));
            ResourceLines.print(out, path);
        }
        try {
            out.print(modelVerdicts(runs));
        } catch (IOException | RuntimeException e) {
            out.println("\nmodels of the open runs: not judged (" + Cli.oneLine(e) + ")");
        }
        out.flush();
        return 0;
    }

    /** The models the summary judges a rate sweep by: seed 001's curve and the system as it is. */
    static final String SUMMARY_MODELS = "mm1,client-ps";

    /**
     * Of a sweep with open runs at two or more rates: each model's two verdicts, identified and
     * fits, in one line each (the parameters and the held-out predictions are fit's and validate's).
     */
    static String modelVerdicts(List<Path> runs) throws IOException {
        List<RunData> data = RunArguments.read(runs);
        FitData fitData = FitData.of(data, SystemLimits.of(data, null, null), 1);
        if (fitData.points().size() < 2) {
            return "";
        }
        StringBuilder s = new StringBuilder("\nmodels of the open runs (queuelab fit for the parameters, queuelab validate for held-out predictions):\n");
        for (TestedFit t : TestedFit.all(CandidateModels.STANDARD.named(SUMMARY_MODELS), fitData)) {
            ModelFit fit = t.fit().fit();
            s.append("  ").append(t.fit().name()).append(": ")
                    .append(fit.identified() ? "identified; " + fit.fitVerdict() : fit.identification().summary()).append('\n');
        }
        return s.toString();
    }
}
