package io.queuelab.jdbc;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.run.LoadRun;
import io.queuelab.core.run.RunResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JDBC backend under generator-core's open-loop pipeline while the embedded MariaDB restarts:
 * apart from JdbcPipelineTest, because its bounds are seconds wide and it need not have the machine
 * to itself (it is not {@code @TimingSensitive}), and it is the suite's longest JDBC test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JdbcServerRestartTest {
    static final String TABLE = "wisc_restart";
    static final int TUPLES = 2_000;

    @TempDir
    Path dir;

    @BeforeAll
    void load() throws SQLException {
        new WisconsinLoader(TestDatabases.embedded()).load(new WisconsinRelation(TABLE, TUPLES, 11), WisconsinRelation.Engine.INNODB);
    }

    @Test
    void aServerRestartMidRunIsAWindowOfClassifiedFailuresAndEveryRequestIsLoggedOnce() throws Exception {
        double rate = 100;
        // long enough for a restart that takes 20-35 s on a loaded machine (19 s once in CI, 35.5 s beside
        // cli's tests and ITs) to leave 6 s of recovery before the end
        Duration duration = Duration.ofSeconds(60);
        EmbeddedMariaDb server = TestDatabases.embeddedServer();
        long[] outage = new long[2]; // epoch-free: System.nanoTime at stop and when the restart returned
        RunResult result;
        try (JdbcBackend backend = JdbcBackend.open(TestDatabases.embedded(), Workload.wisconsinMix(TABLE, TUPLES, 0.8), Duration.ofSeconds(10))) {
            CompletableFuture<Void> restart = CompletableFuture.runAsync(() -> {
                try {
                    Thread.sleep(4_000);
                    outage[0] = System.nanoTime();
                    server.stop();
                    Thread.sleep(1_000);
                    server.restart();
                    outage[1] = System.nanoTime();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            result = LoadRun.execute(JdbcPipelineTest.config(rate, duration, 4, dir.resolve("restart")), backend, Map.of("backend", "jdbc"), null);
            restart.get();
        }
        assertTrue(server.isRunning());
        assertTrue(outage[1] - outage[0] < duration.toNanos() - 6_000_000_000L,
                "the server came back in time to test recovery: " + (outage[1] - outage[0]) / 1e9 + " s");
        var totals = result.totals();
        assertTrue(totals.balanced(), totals.toString());
        assertEquals(rate * duration.toSeconds(), totals.scheduled(), 5 * Math.sqrt(rate * duration.toSeconds()));
        assertEquals(0, totals.dropped() + totals.unfinished(), totals.toString());
        assertTrue(totals.errors() > 0, "the outage shows: " + totals);
        assertEquals(Map.of(JdbcErrors.CONNECTION_LOST, totals.errors()), totals.errorsByClass(), "failures are classified");

        List<long[]> failures = new ArrayList<>();
        long records = 0;
        long okAfterOutage = 0;
        try (RequestLogReader r = result.directory().openLog()) {
            while (r.next()) {
                records++;
                if (r.outcome() >= LogFormat.FIRST_ERROR) {
                    assertEquals(JdbcErrors.CONNECTION_LOST, r.outcomeName(r.outcome()));
                    failures.add(new long[] {r.intended(), r.completed()});
                } else if (r.outcome() == LogFormat.OK && failures.size() > 0) {
                    okAfterOutage++;
                }
            }
        }
        assertEquals(totals.scheduled(), records, "one record per scheduled request");
        // at least a second's worth of requests succeeds after the failures (how much more depends on
        // how long the restart took on the machine)
        assertTrue(okAfterOutage > rate, "requests complete again after the restart: " + okAfterOutage);
        // the failures form one window no longer than the outage plus the longest reconnect backoff
        long first = failures.stream().mapToLong(f -> f[0]).min().orElseThrow();
        long last = failures.stream().mapToLong(f -> f[1]).max().orElseThrow();
        long window = last - first;
        long outageNanos = outage[1] - outage[0];
        assertTrue(window <= outageNanos + 2 * JdbcSession.MAX_BACKOFF_MILLIS * 1_000_000 + 2_000_000_000L,
                "failure window " + window / 1e9 + " s vs outage " + outageNanos / 1e9 + " s");
    }
}
