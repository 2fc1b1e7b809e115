package io.queuelab.cli;

import picocli.CommandLine;

/**
 * Shared command-line behaviour: every failure is one line on stderr and exit code 2; with
 * {@code --verbose} anywhere on the line the stack trace follows.
 */
public final class Cli {
    public static final int EXIT_BAD_INPUT = 2;

    private Cli() {
    }

    /** {@code --verbose}, accepted anywhere on the line of every command of an entry point ({@link #execute} reads it). */
    static final class VerboseOption {
        @CommandLine.Option(names = "--verbose", scope = CommandLine.ScopeType.INHERIT,
                description = "On failure, print the stack trace after the one-line error.")
        boolean verbose;
    }

    /** Runs an entry point's command line and returns the exit code (0 ok, 2 bad input or failure). */
    static int execute(Object command, String... args) {
        return commandLine(command, java.util.Arrays.asList(args).contains("--verbose")).execute(args);
    }

    static CommandLine commandLine(Object command, boolean verbose) {
        CommandLine cl = new CommandLine(command);
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            commandLine.getErr().println("queuelab: " + oneLine(ex));
            if (ex instanceof RunCommand.Interrupted interrupted) {
                commandLine.getErr().flush();
                return interrupted.exitCode;
            }
            if (verbose) {
                ex.printStackTrace(commandLine.getErr());
            }
            commandLine.getErr().flush();
            return ex instanceof Failure failure ? failure.exitCode : EXIT_BAD_INPUT;
        });
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println("queuelab: " + ex.getMessage() + " (see '" + c.getCommandSpec().qualifiedName() + " --help')");
            c.getErr().flush();
            return EXIT_BAD_INPUT;
        });
        return cl;
    }

    /** A failure that is not bad input: one line, and an exit code of its own (k8s submit's 1, say). */
    static final class Failure extends RuntimeException {
        final int exitCode;

        Failure(int exitCode, String message) {
            super(message);
            this.exitCode = exitCode;
        }
    }

    /** The one-line message of a failure: its own message, or its type when it has none. */
    public static String oneLine(Throwable t) {
        Throwable cause = t;
        while ((cause.getMessage() == null || cause.getMessage().isBlank()) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        String message = cause instanceof java.nio.file.FileSystemException fs ? OutputPath.describe(fs) : cause.getMessage();
        if (message == null || message.isBlank()) {
            message = cause.getClass().getSimpleName();
        }
        return message.replaceAll("\\s*[\\r\\n]+\\s*", " ").trim();
    }
}
