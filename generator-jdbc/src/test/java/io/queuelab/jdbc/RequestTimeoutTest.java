package io.queuelab.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The request timeout against a real slow query on the embedded MariaDB: the request fails as a
 * timeout soon after the limit, and the session reconnects for the next request.
 */
class RequestTimeoutTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aSlowQueryFailsAsATimeoutAndTheSessionGoesOn() throws Exception {
        Path file = Files.writeString(dir.resolve("w.json"), """
                {"tables": [], "statements": [
                  {"name": "slow", "sql": "SELECT SLEEP(?)", "parameters": ["uniform(3, 3)"]},
                  {"name": "fast", "sql": "SELECT ?", "parameters": ["uniform(1, 1)"]}]}
                """);
        try (JdbcBackend backend = JdbcBackend.open(TestDatabases.embedded(), Workload.read(file), Duration.ofMillis(400));
             JdbcSession session = backend.openSession(0, 1)) {
            session.execute(1);
            long begin = System.nanoTime();
            SQLException e = assertThrows(SQLException.class, () -> session.execute(0));
            double seconds = (System.nanoTime() - begin) / 1e9;
            assertTrue(seconds >= 0.4 && seconds < 2.0, "failed after " + seconds + " s, the limit is 0.4 s (the query sleeps 3 s)");
            assertEquals(JdbcErrors.TIMEOUT, JdbcErrors.classify(e), e.toString());
            session.execute(1);
            assertEquals(1, session.lastRowCount());
            assertEquals(1, session.reconnects(), "the aborted connection was reopened");
            // a request within the limit is never aborted
            for (int i = 0; i < 20; i++) {
                session.execute(1);
            }
            assertEquals(1, session.reconnects());
        }
    }
}
