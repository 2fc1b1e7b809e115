package io.queuelab.jdbc.qos;

import io.queuelab.core.backend.OperationMix;
import io.queuelab.jdbc.JdbcErrors;
import io.queuelab.jdbc.JdbcFamilyBackend;
import io.queuelab.jdbc.JdbcTarget;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * Seed 000's write test as a backend: worker w is measurement client w, one request writes one
 * result line of its measurement into a {@link QosSchema} (schema 1: one row of the wide table;
 * 2: one averageStats row; 3: a mainStats and a secondaryStats row), in autocommit, as the
 * seed's writer did. A client's first line also inserts its measurementsId row (schemas 2 and 3),
 * its last line ({@code rowsPerClient}) also updates it with the measurement's end, so the
 * edited_time moves once per measurement. Run it as a closed plan with finite work
 * ({@code requestsPerJob = rowsPerClient}): each client writes its rows and leaves.
 *
 * <p>Guarantees: {@link #createTables} gives the schema's tables, empty, under {@code <base><n>_};
 * every line a session reports as done is committed; a failed line is reported by its exception
 * (classified by {@link JdbcErrors}); a session whose connection broke fails its later lines.
 */
public final class QosWriteBackend extends JdbcFamilyBackend {
    /** The one operation: a result line. */
    public static final String OPERATION = "write-line";
    /** Table name base of the write test's tables ({@code qosw1_results}, ...). */
    public static final String WRITE_BASE = "qosw";

    private final JdbcTarget target;
    private final QosSchema schema;
    private final String prefix;
    private final int rowsPerClient;
    private final int firstCustomer;

    private QosWriteBackend(JdbcTarget target, QosSchema schema, String prefix, int rowsPerClient, int firstCustomer,
                            Map<String, Object> description) {
        super(description);
        this.target = target;
        this.schema = schema;
        this.prefix = prefix;
        this.rowsPerClient = rowsPerClient;
        this.firstCustomer = firstCustomer;
    }

    /** Drops and creates the schema's tables under {@code <base><n>_}, empty. */
    public static void createTables(JdbcTarget target, QosSchema schema, String base) throws SQLException {
        try (Connection c = target.connect(0); Statement s = c.createStatement()) {
            QosLoader.dropAll(s, schema, schema.prefix(base));
            for (String create : schema.createSql(schema.prefix(base))) {
                s.execute(create);
            }
        }
    }

    /**
     * A backend writing into the schema's tables under {@code <base><n>_} (they must exist);
     * client w is customer {@code firstCustomer + w}.
     */
    public static QosWriteBackend open(JdbcTarget target, QosSchema schema, String base, int rowsPerClient, int firstCustomer)
            throws SQLException {
        if (rowsPerClient < 1) {
            throw new IllegalArgumentException("rows per client must be at least 1, got " + rowsPerClient);
        }
        Map<String, Object> d = description("jdbc-qos-write", target);
        d.put("schema", schema.number());
        d.put("tables", schema.tables(schema.prefix(base)));
        d.put("rowsPerClient", rowsPerClient);
        try (Connection c = target.connect(0); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT VERSION(), @@innodb_flush_log_at_trx_commit, @@innodb_buffer_pool_size")) {
            r.next();
            d.put("serverVersion", r.getString(1));
            d.put("innodb_flush_log_at_trx_commit", r.getString(2));
            d.put("innodb_buffer_pool_size", r.getString(3));
            for (String table : schema.tables(schema.prefix(base))) {
                try (ResultSet ignored = s.executeQuery("SELECT 1 FROM " + table + " LIMIT 0")) {
                    // the tables must exist before a run starts
                } catch (SQLException e) {
                    throw new SQLException("table " + table + " does not exist: " + JdbcTarget.firstLine(e.getMessage()),
                            e.getSQLState(), e.getErrorCode(), e);
                }
            }
        }
        return new QosWriteBackend(target, schema, schema.prefix(base), rowsPerClient, firstCustomer, d);
    }

    @Override
    public OperationMix operations() {
        return OperationMix.single(OPERATION);
    }

    @Override
    public QosWriteSession openSession(int worker, long seed) throws SQLException {
        return track(new QosWriteSession(target, schema, prefix, rowsPerClient, firstCustomer + worker, seed));
    }
}
