package io.queuelab.cli;

import io.queuelab.reports.data.ResourceTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code queuelab resources RUNS...}: seed 002's resource table and weighted score of runs with host telemetry. */
@Command(name = "resources", mixinStandardHelpOptions = true,
        description = "Seed 002's resource table of runs made with --telemetry-interval: server and client CPU and memory, disk "
                + "I/O, data-directory growth and network per run, the paper's weighted score, and the first run's ratios to the others.")
public final class ResourcesCommand implements Callable<Integer> {
    @Parameters(paramLabel = "RUN", arity = "1..*", description = "Run directories, e.g. runs/experiment-iot/individual runs/experiment-iot/bulk.")
    List<Path> runs;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        spec.commandLine().getOut().print(ResourceTable.of(runs).render());
        spec.commandLine().getOut().flush();
        return 0;
    }
}
