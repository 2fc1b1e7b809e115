package io.queuelab.jdbc;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.run.LoadRun;
import io.queuelab.core.run.RunResult;
import io.queuelab.core.run.RunCompanion;
import io.queuelab.core.run.RunStop;
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
        // the run ends RECOVERY after the server is back: a restart takes 5-35 s, and once 62 s in a CI
        // run beside the suite's other streams, so no fixed duration both tests recovery and stays short
        Duration cap = Duration.ofSeconds(240);
        long recoveryNanos = 8_000_000_000L;
        EmbeddedMariaDb server = TestDatabases.embeddedServer();
        long[] outage = new long[2]; // epoch-free: System.nanoTime at stop and when the restart returned
        RunStop stop = new RunStop();
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
                    Thread.sleep(recoveryNanos / 1_000_000);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                } finally {
                    stop.request("the test saw the server recover");
                }
            });
            result = LoadRun.execute(JdbcPipelineTest.config(rate, cap, 4, dir.resolve("restart")), backend,
                    Map.of("backend", "jdbc"), null, RunCompanion.NONE, stop);
            restart.get();
        }
        assertTrue(server.isRunning());
        assertTrue(outage[1] > outage[0], "the server came back");
        var totals = result.totals();
        assertTrue(totals.balanced(), totals.toString());
        assertEquals(0, totals.dropped() + totals.unfinished(), totals.toString());
        assertTrue(totals.errors() > 0, "the outage shows: " + totals);
        assertEquals(Map.of(JdbcErrors.CONNECTION_LOST, totals.errors()), totals.errorsByClass(), "failures are classified");

        List<long[]> failures = new ArrayList<>();
        long records = 0;
        long okAfterOutage = 0;
        long firstIntended = Long.MAX_VALUE;
        long lastIntended = Long.MIN_VALUE;
        try (RequestLogReader r = result.directory().openLog()) {
            while (r.next()) {
                records++;
                firstIntended = Math.min(firstIntended, r.intended());
                lastIntended = Math.max(lastIntended, r.intended());
                if (r.outcome() >= LogFormat.FIRST_ERROR) {
                    assertEquals(JdbcErrors.CONNECTION_LOST, r.outcomeName(r.outcome()));
                    failures.add(new long[] {r.intended(), r.completed()});
                } else if (r.outcome() == LogFormat.OK && failures.size() > 0) {
                    okAfterOutage++;
                }
            }
        }
        assertEquals(totals.scheduled(), records, "one record per scheduled request");
        // the schedule kept its rate through the outage: Poisson count over the span it covered, 5 sd
        double expected = rate * (lastIntended - firstIntended) / 1e9;
        assertEquals(expected, records, 5 * Math.sqrt(expected) + 1);
        assertTrue(expected > rate * (4 + 1 + recoveryNanos / 1e9 - 1), "the run lasted until the recovery was seen: " + expected);
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
