package io.queuelab.jdbc.qos;

import io.queuelab.core.backend.SyncSession;
import io.queuelab.jdbc.JdbcTarget;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.SplittableRandom;

/**
 * One measurement client of {@link QosWriteBackend}: its connection, prepared statements and
 * lines. Line k (0-based) has the counting columns = k and random other results.
 */
public final class QosWriteSession implements SyncSession {
    private final QosSchema schema;
    private final int rowsPerClient;
    private final SplittableRandom random;
    private final long[] id;
    private final int[] results = new int[QosColumns.RESULTS.size()];
    private final Connection connection;
    private final PreparedStatement insertMeasurement;
    private final PreparedStatement insertResult;
    private final PreparedStatement insertSecondary;
    private final PreparedStatement endMeasurement;
    private long measurementId = -1;
    private int line;

    QosWriteSession(JdbcTarget target, QosSchema schema, String prefix, int rowsPerClient, int customerId, long seed)
            throws SQLException {
        this.schema = schema;
        this.rowsPerClient = rowsPerClient;
        this.random = new SplittableRandom(seed);
        this.id = QosReadDataSet.identification(customerId, rowsPerClient, random);
        id[12] = 0; // end_time: unknown until the measurement ends
        this.connection = target.connect(0);
        try {
            if (schema == QosSchema.ONE) {
                insertMeasurement = null;
                endMeasurement = null;
                insertResult = connection.prepareStatement(insert(schema.results(prefix), String.join(", ", QosColumns.ID)
                        + ", " + String.join(", ", QosColumns.RESULTS)));
                insertSecondary = null;
            } else {
                insertMeasurement = connection.prepareStatement(insert(schema.measurements(prefix), String.join(", ", QosColumns.ID)),
                        Statement.RETURN_GENERATED_KEYS);
                endMeasurement = connection.prepareStatement("UPDATE " + schema.measurements(prefix)
                        + " SET end_time = ? WHERE measurement_id = ?");
                insertResult = connection.prepareStatement(insert(schema.results(prefix),
                        "measurement_id, " + String.join(", ", schema.resultColumns())));
                insertSecondary = schema == QosSchema.THREE ? connection.prepareStatement("INSERT INTO " + schema.secondary(prefix)
                        + " (result_id, measurement_id, " + String.join(", ", QosColumns.SECONDARY) + ") VALUES (LAST_INSERT_ID(), "
                        + String.join(", ", Collections.nCopies(QosColumns.SECONDARY.size() + 1, "?")) + ")") : null;
            }
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
    }

    private static String insert(String table, String columns) {
        int n = columns.split(",").length;
        return "INSERT INTO " + table + " (" + columns + ") VALUES (" + String.join(", ", Collections.nCopies(n, "?")) + ")";
    }

    /** Writes the next line; the first also starts the measurement, the last also ends it. */
    @Override
    public void execute(int operation) throws SQLException {
        if (line >= rowsPerClient) {
            throw new IllegalStateException("client has written its " + rowsPerClient + " rows");
        }
        if (schema != QosSchema.ONE && measurementId < 0) {
            for (int i = 0; i < id.length; i++) {
                insertMeasurement.setLong(i + 1, id[i]);
            }
            insertMeasurement.executeUpdate();
            try (ResultSet keys = insertMeasurement.getGeneratedKeys()) {
                keys.next();
                measurementId = keys.getLong(1);
            }
        }
        QosColumns.line(results, line, random);
        int p = 1;
        if (schema == QosSchema.ONE) {
            for (long v : id) {
                insertResult.setLong(p++, v);
            }
        } else {
            insertResult.setLong(p++, measurementId);
        }
        int main = schema.resultColumns().size();
        for (int i = 0; i < main; i++) {
            insertResult.setInt(p++, results[i]);
        }
        insertResult.executeUpdate();
        if (insertSecondary != null) {
            insertSecondary.setLong(1, measurementId);
            for (int i = main; i < results.length; i++) {
                insertSecondary.setInt(i - main + 2, results[i]);
            }
            insertSecondary.executeUpdate();
        }
        line++;
        if (line == rowsPerClient && endMeasurement != null) {
            endMeasurement.setLong(1, id[11] + rowsPerClient * 1000L);
            endMeasurement.setLong(2, measurementId);
            endMeasurement.executeUpdate();
        }
    }

    /** Lines written so far. */
    public int lines() {
        return line;
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // a broken connection has nothing left to release
        }
    }
}
