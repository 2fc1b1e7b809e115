package io.queuelab.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The {@code queuelab-node} command, the entry point of {@code queuelab-node.jar}: the jar that
 * {@code scripts/distributed-run} copies to every generator host and that the container image of
 * {@code deploy/kubernetes} holds. It runs what a node of a distributed run runs, as the full jar
 * does (the same command classes): {@code run} and {@code sweep} against a server given by URL or
 * an in-process backend, {@code clock-server} (the reference, and {@code --check}), {@code merge}
 * and {@code summary} (the Kubernetes merge pod).
 *
 * <p>Guarantees: every other command of {@link Main} is refused with one line on stderr that names
 * the commands this jar runs, and exit code {@value Cli#EXIT_BAD_INPUT}, before any of that
 * command's classes is initialized: they need libraries this jar leaves out (the embedded MariaDB,
 * the Kubernetes client, the reports' chart libraries), whose absence would otherwise surface as a
 * {@code NoClassDefFoundError} halfway through.
 */
@Command(name = "queuelab-node", mixinStandardHelpOptions = true, version = "queuelab-node " + Main.VERSION,
        description = "A generator node's part of queuelab (queuelab-node.jar); every other command is in the full queuelab.jar.",
        subcommands = {
                ClockServerCommand.class,
                CommandLine.HelpCommand.class,
                MergeCommand.class,
                RunCommand.class,
                SummaryCommand.class,
                SweepCommand.class,
        })
public final class NodeMain {

    @CommandLine.Mixin
    Cli.VerboseOption verbose;

    public static void main(String[] args) {
        System.exit(run(System.err, args));
    }

    /** Runs the command line and returns the exit code; a command of the full jar only is refused on {@code err}. */
    static int run(PrintStream err, String... args) {
        Optional<String> fullOnly = fullJarCommand(args);
        if (fullOnly.isPresent()) {
            err.println("queuelab-node runs " + String.join(", ", names(NodeMain.class)) + "; " + fullOnly.get()
                    + " needs the full queuelab.jar");
            err.flush();
            return Cli.EXIT_BAD_INPUT;
        }
        return Cli.execute(new NodeMain(), args);
    }

    /**
     * The command the line asks for when it is one of the full jar's only: the first word that is not
     * an option (the entry points' own options take no value), or the one after {@code help}.
     */
    static Optional<String> fullJarCommand(String... args) {
        List<String> words = Arrays.stream(args).filter(a -> !a.startsWith("-")).limit(2).toList();
        if (words.isEmpty()) {
            return Optional.empty();
        }
        String command = words.get(0).equals("help") && words.size() > 1 ? words.get(1) : words.get(0);
        List<String> fullOnly = new ArrayList<>(names(Main.class));
        fullOnly.removeAll(names(NodeMain.class));
        return fullOnly.contains(command) ? Optional.of(command) : Optional.empty();
    }

    /**
     * The names of an entry point's subcommands, read from the annotations alone: building the full
     * command line would initialize every command and load the libraries their options name.
     */
    static List<String> names(Class<?> entryPoint) {
        List<String> names = new ArrayList<>();
        for (Class<?> sub : entryPoint.getAnnotation(Command.class).subcommands()) {
            if (sub != CommandLine.HelpCommand.class) {
                names.add(sub.getAnnotation(Command.class).name());
            }
        }
        return names;
    }
}
