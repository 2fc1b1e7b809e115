package io.queuelab.jdbc;

import io.queuelab.core.testing.TimingSensitive;

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
@TimingSensitive
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

    private static void signal(String name, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0);
    }

    /**
     * A frozen server (SIGSTOP of the real mariadbd): the request sent to it times out; the session's
     * reconnect attempt fails; the requests after it fail at once while the session waits out its
     * backoff, and are classified by what happened to them, connection_lost (docs/jdbc.md), not by
     * the cause they carry, the attempt's timeout (before: every one of them was 'timeout').
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void requestsFailingAtOnceInReconnectBackoffAreConnectionLost() throws Exception {
        long pid = TestDatabases.embeddedServer().serverPid();
        try (JdbcBackend backend = JdbcBackend.open(TestDatabases.embedded(), Workload.read(Files.writeString(dir.resolve("w.json"), """
                {"tables": [], "statements": [{"name": "one", "sql": "SELECT ?", "parameters": ["uniform(1, 1)"]}]}
                """)), Duration.ofMillis(400));
             JdbcSession session = backend.openSession(0, 1)) {
            session.execute(0);
            signal("STOP", pid);
            try {
                SQLException sent = assertThrows(SQLException.class, () -> session.execute(0));
                assertEquals(JdbcErrors.TIMEOUT, JdbcErrors.classify(sent), sent.toString());
                assertThrows(SQLException.class, () -> session.execute(0)); // the reconnect attempt
                long begin = System.nanoTime();
                SQLException inBackoff = assertThrows(SQLException.class, () -> session.execute(0));
                assertTrue(System.nanoTime() - begin < 40_000_000L, "failed at once, in backoff: " + inBackoff);
                assertTrue(inBackoff.getMessage().contains("in backoff"), inBackoff.toString());
                assertEquals(JdbcErrors.CONNECTION_LOST, JdbcErrors.classify(inBackoff), inBackoff.toString());
            } finally {
                signal("CONT", pid);
            }
        }
    }
}
