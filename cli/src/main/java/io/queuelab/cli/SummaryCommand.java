package io.queuelab.cli;

import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.summary.RunSummary;
import io.queuelab.core.summary.SummaryText;
import io.queuelab.reports.data.SteadyState;
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
                + "and per phase whether it reached steady state (MSER) with 95 %% intervals on the mean, p50 and p99 response time.")
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
        out.flush();
        return 0;
    }
}
