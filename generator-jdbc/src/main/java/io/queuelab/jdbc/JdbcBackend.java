package io.queuelab.jdbc;

import io.queuelab.core.backend.OperationMix;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The synchronous JDBC backend (MariaDB or MySQL Connector/J, by the URL's scheme): one connection per worker, opened in
 * {@link #openSession} (the pipeline opens all sessions before the first arrival), one server-side
 * prepared statement per workload statement, parameters drawn by per-session seeded generators.
 *
 * <p>Guarantees: {@link #open} fails with a one-line message when the server cannot be reached,
 * refuses the credentials, or a workload statement does not prepare (e.g. an unknown table), so a
 * bad target never starts a run. A failed request is reported by its exception and classified by
 * {@link #classify} ({@link JdbcErrors}, through {@link JdbcFamilyBackend}); a session whose connection was lost reconnects with
 * backoff on later requests. {@link #describe()} never contains credentials.
 */
public final class JdbcBackend extends JdbcFamilyBackend {
    private final JdbcTarget target;
    private final Workload workload;
    private final OperationMix mix;
    private final int socketTimeoutMillis;
    /** Connections its sessions have lost: a loss tells the others to check theirs (see {@link JdbcSession}). */
    private final AtomicLong lostConnections = new AtomicLong();

    private JdbcBackend(JdbcTarget target, Workload workload, int socketTimeoutMillis, Map<String, Object> description) {
        super(description);
        this.target = target;
        this.workload = workload;
        this.mix = workload.operationMix();
        this.socketTimeoutMillis = socketTimeoutMillis;
    }

    /**
     * Checks the target and the workload on a probe connection and reads what the manifest records.
     *
     * @param requestTimeout how long one request may wait for the server before it fails as a
     *                       {@code timeout} (the connection is then reopened); zero = no limit
     */
    public static JdbcBackend open(JdbcTarget target, Workload workload, Duration requestTimeout) throws SQLException {
        if (requestTimeout.isNegative()) {
            throw new IllegalArgumentException("request timeout must not be negative: " + requestTimeout);
        }
        int socketTimeoutMillis = Math.toIntExact(requestTimeout.toMillis());
        try (Connection c = target.connect(socketTimeoutMillis)) {
            for (WorkloadStatement s : workload.statements()) {
                try (PreparedStatement ignored = JdbcTarget.prepareNow(c, s.sql())) {
                    // preparing on the server checks syntax, tables and columns before the run
                } catch (SQLException e) {
                    throw new SQLException("statement '" + s.name() + "' does not prepare on " + target.redactedUrl()
                            + ": " + JdbcTarget.firstLine(e.getMessage()), e.getSQLState(), e.getErrorCode(), e);
                }
            }
            return new JdbcBackend(target, workload, socketTimeoutMillis, describe(c, target, workload, requestTimeout));
        }
    }

    @Override
    public OperationMix operations() {
        return mix;
    }

    public Workload workload() {
        return workload;
    }

    @Override
    public JdbcSession openSession(int worker, long seed) throws SQLException {
        return track(new JdbcSession(target, workload, socketTimeoutMillis, seed, lostConnections));
    }

    private static Map<String, Object> describe(Connection c, JdbcTarget target, Workload workload, Duration requestTimeout) throws SQLException {
        Map<String, Object> d = description("jdbc", target);
        d.put("user", target.user());
        DatabaseMetaData meta = c.getMetaData();
        d.put("driver", meta.getDriverName() + " " + meta.getDriverVersion());
        try (Statement s = c.createStatement()) {
            try (ResultSet r = s.executeQuery("SELECT VERSION(), @@version_comment")) {
                r.next();
                d.put("serverVersion", r.getString(1));
                d.put("serverVersionComment", r.getString(2));
            }
            Map<String, Object> settings = new LinkedHashMap<>();
            try (ResultSet r = s.executeQuery("SHOW GLOBAL VARIABLES WHERE Variable_name IN ('innodb_buffer_pool_size',"
                    + " 'innodb_flush_log_at_trx_commit', 'innodb_io_capacity', 'innodb_max_dirty_pages_pct', 'max_connections',"
                    + " 'innodb_log_file_size', 'innodb_flush_method', 'default_storage_engine')")) {
                while (r.next()) {
                    settings.put(r.getString(1), r.getString(2));
                }
            }
            d.put("serverSettings", settings);
            Map<String, Object> tables = new LinkedHashMap<>();
            for (String table : workload.tables()) {
                tables.put(table, describeTable(c, table));
            }
            d.put("tables", tables);
        }
        d.put("requestTimeoutMillis", requestTimeout.toMillis());
        d.put("workload", workload.describe());
        return d;
    }

    private static Map<String, Object> describeTable(Connection c, String table) throws SQLException {
        Map<String, Object> t = new LinkedHashMap<>();
        try (PreparedStatement p = c.prepareStatement("SELECT engine, table_rows, table_comment FROM information_schema.tables"
                + " WHERE table_schema = DATABASE() AND table_name = ?")) {
            p.setString(1, table);
            try (ResultSet r = p.executeQuery()) {
                if (!r.next()) {
                    throw new SQLException("table '" + table + "' does not exist in the database of this URL");
                }
                t.put("engine", r.getString(1));
                t.put("approximateRows", r.getLong(2));
                t.put("comment", r.getString(3));
            }
        }
        return t;
    }
}
