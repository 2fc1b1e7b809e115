package io.queuelab.jdbc;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Real outages of the embedded server, an unreachable port, and server telemetry. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OutageAndTelemetryTest {
    static final String TABLE = "wisc_outage";
    static final int TUPLES = 1_000;

    @BeforeAll
    void load() throws SQLException {
        new WisconsinLoader(TestDatabases.embedded()).load(new WisconsinRelation(TABLE, TUPLES, 3), WisconsinRelation.Engine.INNODB);
    }

    @Test
    void sessionsFailAsConnectionLostWhileTheServerIsDownAndRecoverAfterItsRestart() throws Exception {
        EmbeddedMariaDb server = TestDatabases.embeddedServer();
        try (JdbcBackend backend = JdbcBackend.open(TestDatabases.embedded(), Workload.wisconsinMix(TABLE, TUPLES, 0.5), Duration.ofSeconds(10))) {
            JdbcSession a = backend.openSession(0, 1);
            JdbcSession b = backend.openSession(1, 2);
            for (int i = 0; i < 20; i++) {
                a.execute(i % 2);
                b.execute(i % 2);
            }
            server.stop();
            try {
                for (int i = 0; i < 10; i++) {
                    final int op = i % 2;
                    Exception e = assertThrows(Exception.class, () -> a.execute(op));
                    assertEquals(JdbcErrors.CONNECTION_LOST, backend.classify(e), e.toString());
                    assertTrue(e.getMessage() != null && !e.getMessage().isBlank());
                }
            } finally {
                server.restart();
            }
            // b never sent during the outage, but a lost its connection: b checks its own before its next
            // request, finds it dead and reconnects, so none of b's requests fails once the server is back
            for (int i = 0; i < 10; i++) {
                b.execute(0);
                assertEquals(1, b.lastRowCount());
            }
            assertEquals(1, b.reconnects(), "b reconnected once, before its first request after the restart");
            long deadlineA = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            boolean aRecovered = false;
            while (!aRecovered && System.nanoTime() < deadlineA) {
                try {
                    a.execute(1);
                    aRecovered = a.lastRowCount() == 1;
                } catch (SQLException e) {
                    assertEquals(JdbcErrors.CONNECTION_LOST, backend.classify(e), e.toString());
                    Thread.sleep(50); // a is in backoff from the outage
                }
            }
            assertTrue(aRecovered, "a reconnects once its backoff has passed");
            assertTrue(a.reconnects() >= 1 && b.reconnects() >= 1);
        }
    }

    @Test
    void anUnreachablePortIsAOneLineError() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        JdbcTarget nowhere = new JdbcTarget("jdbc:mysql://127.0.0.1:" + closedPort + "/queuelab?password=secret", "root", "");
        SQLException e = assertThrows(SQLException.class,
                () -> JdbcBackend.open(nowhere, Workload.wisconsinSelect(TABLE, TUPLES), Duration.ofSeconds(5)));
        assertTrue(e.getMessage().startsWith("cannot reach the database at jdbc:mysql://127.0.0.1:" + closedPort), e.getMessage());
        assertTrue(!e.getMessage().contains("\n") && !e.getMessage().contains("secret"), e.getMessage());
        assertEquals(JdbcErrors.CONNECTION_LOST, JdbcErrors.classify(e));
    }

    @Test
    void telemetrySamplesCountersOnTheWallClock(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(ServerStatusSampler.FILE_NAME);
        Instant before = Instant.now();
        try (ServerStatusSampler sampler = new ServerStatusSampler(TestDatabases.embedded());
             JdbcBackend backend = JdbcBackend.open(TestDatabases.embedded(), Workload.wisconsinUpdate(TABLE, TUPLES), Duration.ofSeconds(10));
             JdbcSession session = backend.openSession(0, 5)) {
            sampler.start(file, Duration.ofMillis(100));
            long end = System.nanoTime() + Duration.ofMillis(800).toNanos();
            while (System.nanoTime() < end) {
                session.execute(0);
            }
        }
        Instant after = Instant.now();
        List<String> lines = Files.readAllLines(file);
        assertEquals("epoch_ns," + String.join(",", ServerStatusSampler.DEFAULT_COUNTERS) + ",sampler_bytes_received,sampler_bytes_sent",
                lines.get(0));
        assertTrue(lines.size() >= 4, "samples: " + (lines.size() - 1));
        int comUpdate = ServerStatusSampler.DEFAULT_COUNTERS.indexOf("Com_update") + 1;
        int dirty = ServerStatusSampler.DEFAULT_COUNTERS.indexOf("Innodb_buffer_pool_pages_dirty") + 1;
        long previousTime = 0;
        long firstUpdates = -1;
        long lastUpdates = -1;
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            assertEquals(ServerStatusSampler.DEFAULT_COUNTERS.size() + 3, cells.length, line); // epoch_ns, counters, the sampler's own 2
            long t = Long.parseLong(cells[0]);
            assertTrue(t > previousTime, "time increases");
            assertTrue(t >= before.getEpochSecond() * 1_000_000_000L && t <= after.getEpochSecond() * 1_000_000_000L + 1_000_000_000L);
            previousTime = t;
            Long.parseLong(cells[dirty]);
            lastUpdates = Long.parseLong(cells[comUpdate]);
            firstUpdates = firstUpdates < 0 ? lastUpdates : firstUpdates;
        }
        assertTrue(lastUpdates > firstUpdates, "the UPDATEs show in Com_update: " + firstUpdates + " -> " + lastUpdates);
    }
}
