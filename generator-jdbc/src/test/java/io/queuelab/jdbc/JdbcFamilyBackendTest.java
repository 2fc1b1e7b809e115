package io.queuelab.jdbc;

import io.queuelab.core.backend.SyncSession;
import io.queuelab.jdbc.IotIngestBackend.Mode;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What the JDBC backends share through {@link JdbcFamilyBackend}, on the embedded server. */
class JdbcFamilyBackendTest {

    /** Connections to the server other than this one. */
    private static long otherConnections(Statement s) throws SQLException {
        try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM information_schema.processlist"
                + " WHERE id <> CONNECTION_ID() AND command <> 'Daemon'")) {
            r.next();
            return r.getLong(1);
        }
    }

    private static long settledConnections(Statement s, long expected) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L; // the server drops a closed connection's thread shortly after
        long n = otherConnections(s);
        while (n != expected && System.nanoTime() < deadline) {
            Thread.sleep(50);
            n = otherConnections(s);
        }
        return n;
    }

    /** Before: IotIngestBackend's close() did nothing, leaving open the sessions the pipeline had not closed. */
    @Test
    void closingTheBackendClosesTheSessionsStillOpen() throws Exception {
        try (Connection c = TestDatabases.embedded().connect(0); Statement s = c.createStatement()) {
            long before = settledConnections(s, otherConnections(s));
            IotIngestBackend backend = IotIngestBackend.open(TestDatabases.embedded(), Mode.BULK, 10, 1, Duration.ofSeconds(30));
            SyncSession a = backend.openSession(0, 1);
            SyncSession b = backend.openSession(1, 2);
            a.execute(0);
            assertEquals(before + 2, settledConnections(s, before + 2), "each session holds a connection");
            backend.close();
            assertEquals(before, settledConnections(s, before), "the backend closed both sessions");
            b.close(); // closing again is harmless
        }
    }

    /** Error classes are decided in one place: every backend of the family classifies as JdbcErrors does. */
    @Test
    void everyJdbcBackendClassifiesAFailureAsJdbcErrorsDoes() throws Exception {
        Throwable[] failures = {new SQLNonTransientConnectionException("gone", "08S01"), new SQLTimeoutException("slow"),
                new SQLException("Duplicate entry", "23000", 1062)};
        try (IotIngestBackend iot = IotIngestBackend.open(TestDatabases.embedded(), Mode.BULK, 10, 1, Duration.ofSeconds(30))) {
            for (Throwable f : failures) {
                assertEquals(JdbcErrors.classify(f), iot.classify(f));
            }
            assertEquals(JdbcErrors.CONNECTION_LOST, iot.classify(failures[0]));
        }
    }
}
