package io.queuelab.cli;

import io.queuelab.reports.report.ResourceFigures;
import io.queuelab.fit.runs.ResourceTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code queuelab resources RUNS...}: seed 002's resource table and weighted score of runs with host telemetry. */
@Command(name = "resources", mixinStandardHelpOptions = true,
        description = "Seed 002's resource table of runs made with --telemetry-interval: server and client CPU and memory, disk "
                + "I/O, data-directory growth per hour and per datapoint, and network per run (the telemetry's own traffic taken out),"
                + " the paper's weighted score on its scale, and the first run's ratios to the others; runs of different lengths are flagged.")
public final class ResourcesCommand implements Callable<Integer> {
    @Parameters(paramLabel = "RUN", arity = "1..*", description = "Run directories, e.g. runs/experiment-iot/individual runs/experiment-iot/bulk.")
    List<Path> runs;

    @Option(names = "--difficulty", split = ",", paramLabel = "RUN=GRADE",
            description = "The paper's subjective difficulty grade of each run's client, 1 (easy) to 5 (most difficult), by run directory"
                    + " name, e.g. individual=5,bulk=5,influx=1 (the paper's grades); given for every run, it enters the score with weight 0.2.")
    Map<String, Integer> difficulty = Map.of();

    @Option(names = "--figures", paramLabel = "DIR",
            description = "Also write seed 002's Figures 3 and 4 (resources-figure3.png, resources-figure4.png) into DIR, which must exist.")
    Path figures;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (figures != null && !java.nio.file.Files.isDirectory(figures)) {
            throw new IllegalArgumentException("--figures " + figures + " is not a directory");
        }
        ResourceTable table = ResourceTable.of(runs, difficulty);
        spec.commandLine().getOut().print(table.render());
        if (figures != null) {
            ResourceFigures.write(table, figures);
            spec.commandLine().getOut().println("wrote " + figures.resolve(ResourceFigures.FIGURE_3) + " and " + ResourceFigures.FIGURE_4);
        }
        spec.commandLine().getOut().flush();
        return 0;
    }
}
