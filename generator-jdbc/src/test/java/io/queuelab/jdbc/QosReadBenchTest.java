package io.queuelab.jdbc;

import io.queuelab.jdbc.qos.QosLoader;
import io.queuelab.jdbc.qos.QosReadBench;
import io.queuelab.jdbc.qos.QosReadCase;
import io.queuelab.jdbc.qos.QosReadDataSet;
import io.queuelab.jdbc.qos.QosSchema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Seed 000's reads Q1-Q5 on the three schemas of a small read data set, on the embedded MariaDB. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QosReadBenchTest {
    static final QosReadDataSet DATA = new QosReadDataSet(0.002, 5);

    @TempDir
    Path dir;

    @BeforeAll
    void load() throws SQLException {
        for (QosSchema s : QosSchema.values()) {
            new QosLoader(TestDatabases.embedded()).load(s, DATA);
        }
    }

    private static QosReadCase seedCase(String name, boolean cache, boolean all) {
        return QosReadCase.seedCases(DATA).stream().filter(c -> c.name().equals(name) && c.queryCache() == cache && c.allTables() == all)
                .findFirst().orElseThrow();
    }

    private static long status(String variable) throws SQLException {
        try (Connection c = TestDatabases.embedded().connect(0); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SHOW GLOBAL STATUS LIKE '" + variable + "'")) {
            r.next();
            return r.getLong(2);
        }
    }

    @Test
    void theLoadLeavesStatisticsOfTheFullTablesSoSchema2JoinsByItsForeignKey() throws SQLException {
        try (Connection c = TestDatabases.embedded().connect(0); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("EXPLAIN " + seedCase("Q2.2", false, true).sql(QosSchema.TWO))) {
            StringBuilder plan = new StringBuilder();
            while (r.next()) {
                plan.append(r.getString("table")).append(':').append(r.getString("type")).append(':').append(r.getString("Extra")).append(' ');
            }
            assertTrue(!plan.toString().contains("join buffer"), "a block-nested-loop scan of averageStats: " + plan);
        }
    }

    private static String plan(String sql) throws SQLException {
        try (Connection c = TestDatabases.embedded().connect(0); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("EXPLAIN " + sql)) {
            StringBuilder plan = new StringBuilder();
            while (r.next()) {
                plan.append(r.getString("table")).append(':').append(r.getString("type")).append(' ');
            }
            return plan.toString().trim();
        }
    }

    @Test
    void schema1HasOnlyItsPrimaryKeySoQ1ScansItAsInTheSeed() throws SQLException {
        // issue 27: a key on (customer_id, start_time) made Q1 an index lookup on schema 1
        assertEquals("qos1_results:ALL", plan(seedCase("Q1.1", false, true).sql(QosSchema.ONE)));
        assertTrue(plan(seedCase("Q1.1", false, true).sql(QosSchema.TWO)).startsWith("m:ref"),
                "schema 2 finds the customer by its key: " + plan(seedCase("Q1.1", false, true).sql(QosSchema.TWO)));
    }

    @Test
    void everyCaseSelectsTheRowsItWasMadeForOnEverySchema() throws SQLException {
        // issue 27: below scale 1 the seed's thresholds exceeded the short runs, and the cases meant to be equal were not
        for (QosReadCase rc : QosReadCase.seedCases(DATA)) {
            for (QosSchema s : QosSchema.values()) {
                if (rc.appliesTo(s)) {
                    assertEquals(rc.rows(), QosTestSql.scalar(rc.countSql(s)), rc.name() + " " + rc.condition() + " on schema " + s.number());
                }
            }
        }
    }

    @Test
    void everySeedCasePreparesOnEverySchemaItAppliesTo() throws SQLException {
        List<QosReadCase> cases = QosReadCase.seedCases(DATA);
        assertEquals(4 + 4 + 4 + 16 + 5 + 7, cases.size());
        try (Connection c = TestDatabases.embedded().connect(0)) {
            for (QosReadCase rc : cases) {
                for (QosSchema s : QosSchema.values()) {
                    if (rc.appliesTo(s)) {
                        try (PreparedStatement ignored = c.prepareStatement(rc.sql(s))) {
                            // the server parses and resolves every table and column
                        }
                    }
                }
            }
        }
    }

    @Test
    void eachClientFetchesTheWholeResultAndTheSchemasAgreeOnItsSize() throws Exception {
        try (QosReadBench bench = new QosReadBench(TestDatabases.embedded(), dir, 2, Duration.ofSeconds(60), 16 << 20, 1)) {
            for (QosSchema s : QosSchema.values()) {
                // Q2.1: ul_delay < 1, one row per run
                QosReadBench.CellResult q2 = bench.run(new QosReadBench.Cell(seedCase("Q2.1", false, true), s, 3));
                assertEquals(556, q2.rows());
                assertTrue(q2.secondsPerClient() > 0);
                // Q4.4: customer_id > 456 AND ul_delay < 1 at this scale: 100 short runs, 1 row each, as Q4.3 (scale 1: 50,000)
                assertEquals(100, bench.run(new QosReadBench.Cell(seedCase("Q4.4", false, true), s, 2)).rows());
            }
            QosReadBench.CellResult sj = bench.run(new QosReadBench.Cell(seedCase("Q1.4-sj", false, true), QosSchema.TWO, 2));
            assertEquals(1200, sj.rows());
            Path log = dir.resolve("Q1.4-sj-schema2-c2").resolve("round-02");
            assertTrue(Files.exists(log.resolve("manifest.json")));
            String sql = io.queuelab.core.log.RunDirectory.open(log).manifest().settings().get("sql").toString();
            assertTrue(sql.startsWith("SELECT STRAIGHT_JOIN SQL_NO_CACHE m.*, a.* FROM qos2_measurementsId m JOIN"), sql);
        }
    }

    @Test
    void aCellIsRepeatedAndWithTheCacheOnTheLaterRoundsAreServedFromIt() throws Exception {
        // issue 27: one round per cell, the cache emptied before it, so the seed's cache-on effect never showed
        try (QosReadBench bench = new QosReadBench(TestDatabases.embedded(), dir, 5, Duration.ofSeconds(60), 16 << 20, 1)) {
            QosReadBench.CellResult on = bench.run(new QosReadBench.Cell(seedCase("Q3.1", true, false), QosSchema.THREE, 2));
            assertEquals(5, on.roundSeconds().size());
            for (int round = 1; round <= 5; round++) {
                assertTrue(Files.isDirectory(dir.resolve("Q3.1-schema3-c2").resolve(String.format("round-%02d", round))));
            }
            assertTrue(on.queryCacheHits() >= 4 * 2, "rounds 2-5 of 2 clients hit the cache: " + on.queryCacheHits() + " hits");
            assertTrue(on.ci95Seconds() > 0 && Double.isFinite(on.ci95Seconds()), on.toString());
            QosReadBench.CellResult off = bench.run(new QosReadBench.Cell(seedCase("Q3.9", false, false), QosSchema.THREE, 2));
            assertEquals(0, off.queryCacheHits(), "cache off");
            assertEquals(on.rows(), off.rows());
        }
    }

    @Test
    void theIntervalIsStudentsTOverTheRounds() {
        // mean 2, s = 1 over 3 rounds: t(0.975, 2) = 4.3027 x 1 / sqrt(3)
        QosReadBench.CellResult r = new QosReadBench.CellResult(null, 0, List.of(1.0, 2.0, 3.0), 0);
        assertEquals(2.0, r.secondsPerClient(), 1e-12);
        assertEquals(4.302652729911275 / Math.sqrt(3), r.ci95Seconds(), 1e-9);
    }

    @Test
    void theQueryCacheCasesStoreTheResultAndTheOthersDoNot() throws Exception {
        try (QosReadBench bench = new QosReadBench(TestDatabases.embedded(), dir, 2, Duration.ofSeconds(60), 16 << 20, 1)) {
            long inserts = status("Qcache_inserts");
            bench.run(new QosReadBench.Cell(seedCase("Q3.9", false, false), QosSchema.THREE, 2));
            assertEquals(inserts, status("Qcache_inserts"), "query cache off");
            bench.run(new QosReadBench.Cell(seedCase("Q3.1", true, false), QosSchema.THREE, 1));
            bench.run(new QosReadBench.Cell(seedCase("Q3.5", true, true), QosSchema.THREE, 1));
            assertTrue(status("Qcache_inserts") >= inserts + 2, "the query cache stored the results of Q3.1 and Q3.5");
        }
        try (Connection c = TestDatabases.embedded().connect(0); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT @@GLOBAL.query_cache_type")) {
            r.next();
            assertEquals("OFF", r.getString(1), "the server's setting is restored");
        }
    }
}
