package io.queuelab.jdbc;

import io.queuelab.core.backend.OperationMix;
import io.queuelab.core.backend.SyncSession;
import io.queuelab.core.iot.SensorStream;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Seed 002's IoT ingest on MariaDB/MySQL: one request writes one second's batch of sensor
 * datapoints ({@link SensorStream}), committed as one explicit transaction, in one of the paper's
 * two layouts:
 * <ul>
 *   <li>{@link Mode#INDIVIDUAL}: one row per sensor value (table {@value #INDIVIDUAL_TABLE}: second
 *   bigint, nanosecond int, number and measurement smallint unsigned, a compound index on (second,
 *   nanosecond)), inserted one by one with a server-side prepared statement: 5,000 INSERTs per
 *   request at the paper's 1,000 points of 5 values;</li>
 *   <li>{@link Mode#BULK}: one row per second (table {@value #BULK_TABLE}: second bigint indexed,
 *   size int unsigned, measurements JSON) holding the batch as the paper's JSON document.</li>
 * </ul>
 * A constant arrival rate of 1/s is the paper's stream; the response time of a request is then
 * the time from the end of the second the batch covers (its scheduled instant) to its commit.
 *
 * <p>Guarantees: the table is created if missing ({@link #open}), never dropped; a request is all
 * or nothing (a failure rolls back, and the batch's rows are not written); a connection lost in a
 * request is reopened by the session's next request. Seconds are distinct across workers.
 */
public final class IotIngestBackend extends JdbcFamilyBackend {
    public static final String INDIVIDUAL_TABLE = "iot_individual";
    public static final String BULK_TABLE = "iot_bulk";

    /** The paper's two MariaDB writers. */
    public enum Mode {
        INDIVIDUAL, BULK;

        /** {@code individual} or {@code bulk}. */
        public static Mode parse(String name) {
            return switch (name.toLowerCase(Locale.ROOT)) {
                case "individual" -> INDIVIDUAL;
                case "bulk" -> BULK;
                default -> throw new IllegalArgumentException("IoT layout must be individual or bulk, not '" + name + "'");
            };
        }

        String table() {
            return this == INDIVIDUAL ? INDIVIDUAL_TABLE : BULK_TABLE;
        }

        String operation() {
            return "iot-" + name().toLowerCase(Locale.ROOT);
        }
    }

    private final JdbcTarget target;
    private final Mode mode;
    private final SensorStream stream;
    private final int socketTimeoutMillis;

    private IotIngestBackend(JdbcTarget target, Mode mode, SensorStream stream, int socketTimeoutMillis, Map<String, Object> description) {
        super(description);
        this.target = target;
        this.mode = mode;
        this.stream = stream;
        this.socketTimeoutMillis = socketTimeoutMillis;
    }

    /**
     * Creates the mode's table if it does not exist and checks the target.
     *
     * @param pointsPerSecond datapoints per request (the paper: 1,000)
     * @param requestTimeout  how long one request may wait for the server; zero = no limit
     */
    public static IotIngestBackend open(JdbcTarget target, Mode mode, int pointsPerSecond, long seed, Duration requestTimeout)
            throws SQLException {
        int socketTimeoutMillis = Math.toIntExact(requestTimeout.toMillis());
        // seconds from now on: rows of an earlier run keep their own seconds, the index grows at its right end as in the paper
        SensorStream stream = new SensorStream(Instant.now().getEpochSecond(), pointsPerSecond, seed);
        Map<String, Object> d = description("jdbc", target);
        try (Connection c = target.connect(socketTimeoutMillis); Statement s = c.createStatement()) {
            s.execute(createTable(mode));
            try (ResultSet r = s.executeQuery("SELECT VERSION(), @@innodb_flush_log_at_trx_commit, @@innodb_buffer_pool_size")) {
                r.next();
                d.put("serverVersion", r.getString(1));
                d.put("serverSettings", Map.of("innodb_flush_log_at_trx_commit", r.getString(2), "innodb_buffer_pool_size", r.getString(3)));
            }
            try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM " + mode.table())) {
                r.next();
                d.put("rowsBefore", r.getLong(1));
            }
        }
        Map<String, Object> workload = new LinkedHashMap<>();
        workload.put("name", mode.operation());
        workload.put("table", mode.table());
        workload.put("pointsPerRequest", pointsPerSecond);
        workload.put("valuesPerPoint", SensorStream.CHANNELS);
        workload.put("rowsPerRequest", mode == Mode.INDIVIDUAL ? pointsPerSecond * SensorStream.CHANNELS : 1);
        d.put("workload", workload);
        d.put("requestTimeoutMillis", requestTimeout.toMillis());
        return new IotIngestBackend(target, mode, stream, socketTimeoutMillis, d);
    }

    /** The paper's Table I or II, with the compound or single index. */
    static String createTable(Mode mode) {
        return mode == Mode.INDIVIDUAL
                ? "CREATE TABLE IF NOT EXISTS " + INDIVIDUAL_TABLE + " (second BIGINT NOT NULL, nanosecond INT NOT NULL,"
                        + " number SMALLINT UNSIGNED NOT NULL, measurement SMALLINT UNSIGNED NOT NULL,"
                        + " INDEX time_idx (second, nanosecond)) ENGINE=InnoDB"
                : "CREATE TABLE IF NOT EXISTS " + BULK_TABLE + " (second BIGINT NOT NULL, size INT UNSIGNED NOT NULL,"
                        + " measurements JSON NOT NULL, INDEX second_idx (second)) ENGINE=InnoDB";
    }

    @Override
    public OperationMix operations() {
        return OperationMix.single(mode.operation());
    }

    @Override
    public SyncSession openSession(int worker, long seed) throws SQLException {
        return track(new Session());
    }

    /** One worker's connection; prepared once, reopened after a loss. */
    private final class Session implements SyncSession {
        private Connection connection;
        private PreparedStatement insert;

        Session() throws SQLException {
            connect(); // the first connection fails loudly: a run must not start without it
        }

        @Override
        public void execute(int operation) throws SQLException {
            if (connection == null) {
                connect();
            }
            SensorStream.Batch batch = stream.nextBatch();
            try {
                if (mode == Mode.INDIVIDUAL) {
                    insert.setLong(1, batch.second());
                    for (int p = 0; p < batch.points(); p++) {
                        insert.setInt(2, batch.nanos()[p]);
                        for (int c = 0; c < SensorStream.CHANNELS; c++) {
                            insert.setInt(3, c);
                            insert.setInt(4, batch.value(p, c));
                            insert.executeUpdate();
                        }
                    }
                } else {
                    insert.setLong(1, batch.second());
                    insert.setInt(2, batch.points());
                    insert.setString(3, batch.json());
                    insert.executeUpdate();
                }
                connection.commit();
            } catch (SQLException e) {
                if (JdbcErrors.breaksConnection(e)) {
                    close();
                } else {
                    try {
                        connection.rollback();
                    } catch (SQLException rollbackFailed) {
                        close();
                    }
                }
                throw e;
            }
        }

        private void connect() throws SQLException {
            Connection c = target.connect(socketTimeoutMillis);
            try {
                c.setAutoCommit(false);
                insert = c.prepareStatement(mode == Mode.INDIVIDUAL
                        ? "INSERT INTO " + INDIVIDUAL_TABLE + " (second, nanosecond, number, measurement) VALUES (?, ?, ?, ?)"
                        : "INSERT INTO " + BULK_TABLE + " (second, size, measurements) VALUES (?, ?, ?)");
            } catch (SQLException e) {
                c.close();
                throw e;
            }
            connection = c;
        }

        @Override
        public void close() {
            Connection c = connection;
            connection = null;
            insert = null;
            if (c != null) {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // a broken connection has nothing left to release
                }
            }
        }
    }
}
