package io.queuelab.jdbc.qos;

import io.queuelab.core.backend.SyncSession;
import io.queuelab.jdbc.JdbcTarget;

import java.sql.SQLException;
import java.util.SplittableRandom;

/**
 * One measurement client of {@link QosWriteBackend}: its connection and its lines. Line k
 * (0-based) has the counting columns = k and random other results; the first line also starts
 * the measurement, the last also ends it.
 */
public final class QosWriteSession implements SyncSession {
    private final int rowsPerClient;
    private final SplittableRandom random;
    private final long[] id;
    private final int[] results = new int[QosColumns.RESULTS.size()];
    private final QosLineWriter writer;
    private long measurementId = -1;
    private boolean started;
    private int line;

    QosWriteSession(JdbcTarget target, QosSchema schema, String prefix, int rowsPerClient, int customerId, long seed)
            throws SQLException {
        this.rowsPerClient = rowsPerClient;
        this.random = new SplittableRandom(seed);
        this.id = QosReadDataSet.identification(customerId, rowsPerClient, random);
        id[12] = 0; // end_time: unknown until the measurement ends
        this.writer = new QosLineWriter(target, schema, prefix);
    }

    /** Writes the next line; the first also starts the measurement, the last also ends it. */
    @Override
    public void execute(int operation) throws SQLException {
        if (line >= rowsPerClient) {
            throw new IllegalStateException("client has written its " + rowsPerClient + " rows");
        }
        if (!started) {
            measurementId = writer.startMeasurement(id);
            started = true;
        }
        QosColumns.line(results, line, random);
        writer.writeLine(measurementId, id, results);
        line++;
        if (line == rowsPerClient) {
            writer.endMeasurement(measurementId, id[11] + rowsPerClient * 1000L);
        }
    }

    /** Lines written so far. */
    public int lines() {
        return line;
    }

    @Override
    public void close() {
        writer.close();
    }
}
