package io.queuelab.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code queuelab} command, the entry point of the full {@code queuelab.jar}. Each subcommand
 * lives in its own class; register it in the {@code subcommands} list below (one line each, kept in
 * alphabetical order), and in {@link NodeMain}'s as well when a generator node runs it.
 */
@Command(name = "queuelab", mixinStandardHelpOptions = true, version = "queuelab " + Main.VERSION,
        description = "Open-loop load for database servers, checked against queueing models.",
        subcommands = {
                CassandraCommand.class,
                ClockServerCommand.class,
                CommandLine.HelpCommand.class,
                CompareCommand.class,
                DemoCommand.class,
                ExportCommand.class,
                FitCommand.class,
                K8sCommand.class,
                LoadCommand.class,
                MergeCommand.class,
                QosIngestCommand.class,
                QosReadCommand.class,
                QosScoreCommand.class,
                QosWriteCommand.class,
                ReadSpeedCommand.class,
                ReportCommand.class,
                ResourcesCommand.class,
                RunCommand.class,
                SimulateCommand.class,
                SummaryCommand.class,
                SweepCommand.class,
                ValidateCommand.class,
        })
public final class Main {
    static final String VERSION = "0.1.0";

    @CommandLine.Mixin
    Cli.VerboseOption verbose;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code (0 ok, 2 bad input or failure). */
    public static int run(String... args) {
        return Cli.execute(new Main(), args);
    }
}
