package io.queuelab.jdbc;

import io.queuelab.core.backend.SyncSession;
import io.queuelab.jdbc.IotIngestBackend.Mode;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Seed 002's two MariaDB writers against the embedded server: what one request leaves in the table. */
class IotIngestTest {

    @Test
    void individualWritesFiveRowsPerDatapointInOneTransactionUnderTheCompoundIndex() throws Exception {
        long before = count(IotIngestBackend.INDIVIDUAL_TABLE);
        try (IotIngestBackend backend = IotIngestBackend.open(TestDatabases.embedded(), Mode.INDIVIDUAL, 1000, 1, Duration.ofSeconds(30));
             SyncSession a = backend.openSession(0, 1); SyncSession b = backend.openSession(1, 2)) {
            assertEquals("iot-individual", backend.operations().names().get(0));
            a.execute(0);
            b.execute(0);
        }
        try (Connection c = TestDatabases.embedded().connect(0); Statement s = c.createStatement()) {
            assertEquals(before + 10_000, count(IotIngestBackend.INDIVIDUAL_TABLE));
            try (ResultSet r = s.executeQuery("SELECT second, COUNT(*), COUNT(DISTINCT nanosecond), MIN(number), MAX(number),"
                    + " MAX(measurement) FROM iot_individual GROUP BY second ORDER BY second DESC LIMIT 2")) {
                List<Long> seconds = new ArrayList<>();
                while (r.next()) {
                    seconds.add(r.getLong(1));
                    assertEquals(5000, r.getLong(2), "1,000 points x 5 values");
                    assertEquals(1000, r.getLong(3));
                    assertEquals(0, r.getInt(4));
                    assertEquals(4, r.getInt(5));
                    assertTrue(r.getInt(6) <= 4095);
                }
                assertEquals(1, Math.abs(seconds.get(0) - seconds.get(1)), "two sessions, two consecutive seconds " + seconds);
            }
            List<String> indexed = new ArrayList<>();
            try (ResultSet r = s.executeQuery("SHOW INDEX FROM iot_individual WHERE Key_name = 'time_idx'")) {
                while (r.next()) {
                    indexed.add(r.getString("Column_name"));
                }
            }
            assertEquals(List.of("second", "nanosecond"), indexed);
        }
    }

    @Test
    void bulkWritesOneRowPerSecondHoldingTheBatchAsJson() throws Exception {
        long before = count(IotIngestBackend.BULK_TABLE);
        try (IotIngestBackend backend = IotIngestBackend.open(TestDatabases.embedded(), Mode.BULK, 1000, 1, Duration.ofSeconds(30));
             SyncSession a = backend.openSession(0, 1)) {
            a.execute(0);
            a.execute(0);
        }
        assertEquals(before + 2, count(IotIngestBackend.BULK_TABLE));
        try (Connection c = TestDatabases.embedded().connect(0); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT size, JSON_VALID(measurements), JSON_LENGTH(measurements, '$.measurements'),"
                     + " JSON_LENGTH(measurements, '$.measurements[999].m') FROM iot_bulk ORDER BY second DESC LIMIT 1")) {
            assertTrue(r.next());
            assertEquals(1000, r.getInt(1));
            assertEquals(1, r.getInt(2));
            assertEquals(1000, r.getInt(3));
            assertEquals(5, r.getInt(4));
        }
    }

    @Test
    void aBatchCutShortByAnOutageLeavesNoRowsAndTheSessionReconnects() throws Exception {
        EmbeddedMariaDb server = TestDatabases.embeddedServer();
        try (IotIngestBackend backend = IotIngestBackend.open(TestDatabases.embedded(), Mode.INDIVIDUAL, 1000, 1, Duration.ofSeconds(30));
             SyncSession session = backend.openSession(0, 1)) {
            long before = count(IotIngestBackend.INDIVIDUAL_TABLE);
            // the server goes away while a batch of 5,000 INSERTs is under way
            Thread stopper = new Thread(() -> {
                try {
                    Thread.sleep(30);
                    server.stop();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            stopper.start();
            Exception failure = assertThrows(Exception.class, () -> {
                for (int i = 0; i < 100; i++) {
                    session.execute(0);
                }
            });
            stopper.join();
            assertEquals(JdbcErrors.CONNECTION_LOST, backend.classify(failure), failure.toString());
            server.restart();
            long afterOutage = count(IotIngestBackend.INDIVIDUAL_TABLE);
            assertEquals(0, (afterOutage - before) % 5000, "only whole batches: " + (afterOutage - before) + " rows");
            session.execute(0); // the session reconnects by itself
            assertEquals(afterOutage + 5000, count(IotIngestBackend.INDIVIDUAL_TABLE));
        } finally {
            server.restart();
        }
    }

    @Test
    void aBadLayoutIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Mode.parse("columnar"));
    }

    private static long count(String table) throws SQLException {
        try (Connection c = TestDatabases.embedded().connect(0); Statement s = c.createStatement()) {
            s.execute(IotIngestBackend.createTable(table.equals(IotIngestBackend.BULK_TABLE) ? Mode.BULK : Mode.INDIVIDUAL));
            try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
                r.next();
                return r.getLong(1);
            }
        }
    }
}
