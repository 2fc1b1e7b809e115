package io.queuelab.jdbc.qos;

import io.queuelab.jdbc.JdbcTarget;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;

/**
 * One connection's prepared statements for writing measurements into a {@link QosSchema}, in
 * autocommit: start a measurement (its measurementsId row), write a result line (schema 1: a
 * wide row; 2: an averageStats row; 3: a mainStats and a secondaryStats row), end a measurement
 * (set its end_time, which moves edited_time). Used by one thread.
 */
final class QosLineWriter implements AutoCloseable {
    private final QosSchema schema;
    private final Connection connection;
    private final PreparedStatement insertMeasurement;
    private final PreparedStatement insertResult;
    private final PreparedStatement insertSecondary;
    private final PreparedStatement endMeasurement;

    QosLineWriter(JdbcTarget target, QosSchema schema, String prefix) throws SQLException {
        this.schema = schema;
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

    /** Inserts the measurementsId row and returns its measurement_id; schema 1 has none (-1). */
    long startMeasurement(long[] id) throws SQLException {
        if (schema == QosSchema.ONE) {
            return -1;
        }
        for (int i = 0; i < id.length; i++) {
            insertMeasurement.setLong(i + 1, id[i]);
        }
        insertMeasurement.executeUpdate();
        try (ResultSet keys = insertMeasurement.getGeneratedKeys()) {
            keys.next();
            return keys.getLong(1);
        }
    }

    /** Writes one result line (48 results in {@link QosColumns#RESULTS} order) of a measurement. */
    void writeLine(long measurementId, long[] id, int[] results) throws SQLException {
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
    }

    /** Sets a measurement's end_time (schemas 2 and 3; nothing in schema 1). */
    void endMeasurement(long measurementId, long endTime) throws SQLException {
        if (endMeasurement != null) {
            endMeasurement.setLong(1, endTime);
            endMeasurement.setLong(2, measurementId);
            endMeasurement.executeUpdate();
        }
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
