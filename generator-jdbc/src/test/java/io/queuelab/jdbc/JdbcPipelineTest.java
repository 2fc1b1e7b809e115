package io.queuelab.jdbc;

import io.queuelab.core.testing.TimingSensitive;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.run.LoadRun;
import io.queuelab.core.run.RunConfig;
import io.queuelab.core.run.RunResult;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The JDBC backend under generator-core's open-loop pipeline, on the embedded MariaDB. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TimingSensitive
class JdbcPipelineTest {
    static final String TABLE = "wisc_pipeline";
    static final int TUPLES = 20_000;

    @TempDir
    Path dir;

    @BeforeAll
    void load() throws SQLException {
        new WisconsinLoader(TestDatabases.embedded()).load(new WisconsinRelation(TABLE, TUPLES, 11), WisconsinRelation.Engine.INNODB);
    }

    static RunConfig config(double rate, Duration duration, int workers, Path out) {
        LoadPlan plan = new LoadPlan(List.of(Phase.open("main", duration, rate, false)), LoadPlan.Arrivals.POISSON, Duration.ZERO);
        return new RunConfig(plan, workers, 100_000, 1000, 2024, 0, 1, null, Duration.ZERO, Duration.ofSeconds(15), out);
    }

    @Test
    void aPoissonSelectRunLogsLambdaTimesTRequestsWithoutErrors() throws Exception {
        double rate = 200;
        Duration duration = Duration.ofSeconds(10);
        RunResult result;
        try (JdbcBackend backend = JdbcBackend.open(TestDatabases.embedded(), Workload.wisconsinSelect(TABLE, TUPLES), Duration.ofSeconds(30))) {
            result = LoadRun.execute(config(rate, duration, 8, dir.resolve("select")), backend, Map.of("backend", "jdbc"), null);
        }
        double expected = rate * duration.toSeconds();
        long scheduled = result.totals().scheduled();
        // Poisson count: sd = sqrt(2000) = 45; 5 sd
        assertEquals(expected, scheduled, 5 * Math.sqrt(expected), "scheduled requests");
        assertEquals(scheduled, result.totals().ok(), "every request ok: " + result.totals());
        assertEquals(0, result.totals().errors());

        long[] service = new long[(int) scheduled];
        int n = 0;
        try (RequestLogReader r = result.directory().openLog()) {
            while (r.next()) {
                assertEquals(LogFormat.OK, r.outcome());
                assertTrue(r.intended() <= r.sent() && r.sent() < r.completed(), "instants in order");
                service[n++] = r.completed() - r.sent();
            }
        }
        assertEquals(scheduled, n, "the log holds every scheduled request");
        Arrays.sort(service);
        long median = service[n / 2];
        // The instrument's service time (completed - sent) against a stopwatch around the same statement
        // on a plain JDBC connection, paced as the run's requests are (one every few ms, so neither
        // finds the server's thread or the caches hotter): the two measure the same thing seconds
        // apart, so they agree within a factor of 3 either way. The machine's own variation over
        // seconds allows no less: a lightly loaded server here runs at two speeds 1.9x apart in
        // periods of seconds (docs/experiments.md), and a clean-clone CI once measured 206 us against
        // 92 us. A service time scaled wrongly (a unit off), or one that took in a wait of the client
        // of many demands, falls outside.
        long direct = directMedianNanos(400);
        System.out.println("JdbcPipelineTest: median service " + median + " ns, the same SELECT timed directly " + direct + " ns");
        assertTrue(median > direct / 3 && median < 3 * direct,
                "median service time " + median + " ns, the same SELECT timed directly " + direct + " ns");
        String server = String.valueOf(result.directory().manifest().backend().orElseThrow().server());
        assertTrue(server.contains("11.4.5-MariaDB") && server.contains("innodb_buffer_pool_size"), server);
    }

    /**
     * An INSERT workload through the same pipeline: the rows the real table holds afterwards are the
     * ok requests the log holds, one each. The service-time window above cannot see a request the
     * backend executes twice (that doubles a sub-millisecond time, inside its factor of 3, and
     * the log still holds one record); a second INSERT leaves a second row, and a request logged ok
     * that never reached the server leaves none.
     */
    @Test
    void anInsertRunLeavesExactlyOneRowPerOkRequestInTheTable() throws Exception {
        String table = "pipeline_inserts";
        try (java.sql.Connection c = TestDatabases.embedded().connect(0); java.sql.Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + table);
            s.execute("CREATE TABLE " + table + " (id BIGINT AUTO_INCREMENT PRIMARY KEY, k BIGINT NOT NULL) ENGINE=InnoDB");
        }
        Path file = dir.resolve("insert.json");
        java.nio.file.Files.writeString(file, "{\"tables\": [\"" + table + "\"], \"statements\": [{\"name\": \"insert\", "
                + "\"sql\": \"INSERT INTO " + table + " (k) VALUES (?)\", \"parameters\": [\"uniform(0, 999999)\"]}]}");
        RunResult result;
        try (JdbcBackend backend = JdbcBackend.open(TestDatabases.embedded(), Workload.read(file), Duration.ofSeconds(30))) {
            result = LoadRun.execute(config(100, Duration.ofSeconds(5), 4, dir.resolve("insert")), backend, Map.of("backend", "jdbc"), null);
        }
        assertEquals(0, result.totals().errors() + result.totals().dropped() + result.totals().unfinished(), result.totals().toString());
        long ok = 0;
        try (RequestLogReader r = result.directory().openLog()) {
            while (r.next()) {
                ok += r.outcome() == LogFormat.OK ? 1 : 0;
            }
        }
        assertEquals(result.totals().scheduled(), ok, "every scheduled request logged ok");
        assertTrue(ok > 300, "100/s for 5 s: " + ok);
        long rows;
        try (java.sql.Connection c = TestDatabases.embedded().connect(0); java.sql.Statement s = c.createStatement();
             java.sql.ResultSet count = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            assertTrue(count.next());
            rows = count.getLong(1);
        }
        assertEquals(ok, rows, "one row per ok request in the log (two for a request executed twice)");
    }

    /** The median time of {@code n} executions of the run's SELECT (random keys, 5 ms apart) on a plain connection. */
    private static long directMedianNanos(int n) throws Exception {
        long[] took = new long[n];
        java.util.SplittableRandom random = new java.util.SplittableRandom(3);
        try (java.sql.Connection c = TestDatabases.embedded().connect(0);
             java.sql.PreparedStatement select = c.prepareStatement("SELECT unique3 FROM " + TABLE + " WHERE unique2 = ?")) {
            for (int i = 0; i < n; i++) {
                Thread.sleep(5);
                select.setInt(1, random.nextInt(TUPLES));
                long start = System.nanoTime();
                try (java.sql.ResultSet rows = select.executeQuery()) {
                    assertTrue(rows.next());
                }
                took[i] = System.nanoTime() - start;
            }
        }
        Arrays.sort(took);
        return took[n / 2];
    }
}
