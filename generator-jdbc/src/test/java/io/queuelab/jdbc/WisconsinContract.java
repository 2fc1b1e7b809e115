package io.queuelab.jdbc;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every server must show: a loaded Wisconsin relation is right, SELECT and UPDATE sessions
 * do what they claim, and real failures are classified. Subclasses name the server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class WisconsinContract {
    static final int TUPLES = 10_000;
    static final long SEED = 42;
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private boolean loaded;

    abstract JdbcTarget target();

    /** A table name of this test class's own (tests against one server must not collide). */
    abstract String table();

    /** Skips the class (with its reason) when the server is not there; the embedded one always is. */
    void assumeServerAvailable() {
    }

    @BeforeAll
    void loadRelation() throws SQLException {
        assumeServerAvailable();
        WisconsinLoader.Result result = new WisconsinLoader(target()).load(
                new WisconsinRelation(table(), TUPLES, SEED), WisconsinRelation.Engine.INNODB);
        assertEquals(TUPLES, result.relation().tuples());
        loaded = true;
    }

    /** Drops the relation and the copies the tests make, also when a test failed before dropping its own. */
    @AfterAll
    void dropRelation() throws SQLException {
        if (!loaded) {
            return;
        }
        try (Connection c = target().connect(0); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + table() + ", " + table() + "_ins, " + table() + "_upd");
        }
    }

    @Test
    void loadedRelationHasEveryAttributeAsDefined() throws SQLException {
        try (Connection c = target().connect(0); Statement s = c.createStatement()) {
            assertEquals(TUPLES, single(s, "SELECT COUNT(*) FROM " + table()));
            assertEquals(TUPLES, single(s, "SELECT COUNT(DISTINCT unique1) FROM " + table()));
            assertEquals(TUPLES, single(s, "SELECT COUNT(DISTINCT unique2) FROM " + table()));
            assertEquals(0, single(s, "SELECT MIN(unique1) + MIN(unique2) FROM " + table()));
            assertEquals(2L * (TUPLES - 1), single(s, "SELECT MAX(unique1) + MAX(unique2) FROM " + table()));
            // a random permutation has about one fixed point; the identity would have n
            assertTrue(single(s, "SELECT COUNT(*) FROM " + table() + " WHERE unique1 = unique2") < 10);
            assertEquals(0, single(s, "SELECT COUNT(*) FROM " + table() + " WHERE two <> unique1 % 2 OR four <> unique1 % 4"
                    + " OR ten <> unique1 % 10 OR twenty <> unique1 % 20 OR onePercent <> unique1 % 100"
                    + " OR tenPercent <> unique1 % 10 OR twentyPercent <> unique1 % 5 OR fiftyPercent <> unique1 % 2"
                    + " OR unique3 <> unique1 OR evenOnePercent <> 2 * (unique1 % 100) OR oddOnePercent <> 2 * (unique1 % 100) + 1"));
            assertEquals(TUPLES, single(s, "SELECT COUNT(DISTINCT stringu1) FROM " + table()));
            assertEquals(TUPLES, single(s, "SELECT COUNT(DISTINCT stringu2) FROM " + table()));
            assertEquals(0, single(s, "SELECT COUNT(*) FROM " + table() + " WHERE LENGTH(stringu1) <> 52 OR LENGTH(stringu2) <> 52"
                    + " OR LENGTH(string4) <> 52 OR SUBSTRING(stringu1, 8) <> REPEAT('x', 45) OR stringu1 NOT REGEXP '^[A-Z]{7}x'"));
            // the strings sort as their numbers: no neighbour pair out of order
            assertEquals(0, single(s, "SELECT COUNT(*) FROM " + table() + " a JOIN " + table()
                    + " b ON b.unique1 = a.unique1 + 1 WHERE a.stringu1 >= b.stringu1"));
            // 27 = 1 * 26 + 1: base-26 letters ...BB
            assertEquals("AAAAABB" + "x".repeat(45), text(s, "SELECT stringu2 FROM " + table() + " WHERE unique2 = 27"));
            assertEquals("AAAAAAA" + "x".repeat(45), text(s, "SELECT stringu1 FROM " + table() + " WHERE unique1 = 0"));
            assertEquals(4, single(s, "SELECT COUNT(DISTINCT string4) FROM " + table()));
            assertEquals(0, single(s, "SELECT COUNT(*) FROM " + table() + " WHERE string4 <> CONCAT(REPEAT(ELT(unique2 % 4 + 1,"
                    + " 'A', 'H', 'O', 'V'), 4), REPEAT('x', 48))"));
            assertEquals("InnoDB", text(s, "SELECT engine FROM information_schema.tables WHERE table_schema = DATABASE()"
                    + " AND table_name = '" + table() + "'"));
        }
    }

    @Test
    void bothLoadMethodsGiveTheSameRelationAndMyIsamWorks() throws SQLException {
        String other = table() + "_ins";
        WisconsinLoader loader = new WisconsinLoader(target());
        loader.load(new WisconsinRelation(other, TUPLES, SEED), WisconsinRelation.Engine.MYISAM, WisconsinLoader.Method.MULTI_ROW_INSERT);
        try (Connection c = target().connect(0); Statement s = c.createStatement()) {
            assertEquals(checksum(s, table()), checksum(s, other));
            assertEquals("MyISAM", text(s, "SELECT engine FROM information_schema.tables WHERE table_schema = DATABASE()"
                    + " AND table_name = '" + other + "'"));
            loader.load(new WisconsinRelation(other, TUPLES, SEED + 1), WisconsinRelation.Engine.INNODB);
            assertNotEquals(checksum(s, table()), checksum(s, other), "another seed, another permutation");
            s.execute("DROP TABLE " + other);
        }
    }

    @Test
    void selectSessionsReadExactlyTheRowOfTheirKey() throws Exception {
        Workload workload;
        try (Connection c = target().connect(0)) {
            workload = Workload.wisconsinSelect(table(), WisconsinRelation.tuplesOf(c, table()));
        }
        try (JdbcBackend backend = JdbcBackend.open(target(), workload, REQUEST_TIMEOUT)) {
            assertEquals(new ParameterSpec.Uniform(0, TUPLES - 1), workload.statements().get(0).parameters().get(0));
            JdbcSession a = backend.openSession(0, 1);
            JdbcSession b = backend.openSession(1, 1);
            long distinct = 0;
            for (int i = 0; i < 500; i++) {
                a.execute(0);
                b.execute(0);
                assertEquals(1, a.lastRowCount());
                long key = a.lastParameters()[0];
                assertTrue(key >= 0 && key < TUPLES);
                assertEquals(key, b.lastParameters()[0], "same seed, same keys");
                distinct += key == i ? 0 : 1;
            }
            assertTrue(distinct > 400);
            Map<String, Object> d = backend.describe();
            assertTrue(String.valueOf(d.get("serverVersion")).contains("MariaDB") || String.valueOf(d.get("serverVersion")).matches("\\d.*"));
            @SuppressWarnings("unchecked") Map<String, Object> settings = (Map<String, Object>) d.get("serverSettings");
            for (String v : List.of("innodb_buffer_pool_size", "innodb_flush_log_at_trx_commit", "innodb_io_capacity",
                    "innodb_max_dirty_pages_pct", "max_connections")) {
                assertTrue(settings.containsKey(v), v);
            }
            assertTrue(d.toString().contains("engine=InnoDB"), d.toString());
        }
    }

    @Test
    void updateSessionsChangeTheRowsTheyClaim() throws Exception {
        String updated = table() + "_upd";
        new WisconsinLoader(target()).load(new WisconsinRelation(updated, 2_000, SEED), WisconsinRelation.Engine.INNODB);
        Map<Long, Long> lastValue = new HashMap<>();
        try (JdbcBackend backend = JdbcBackend.open(target(), Workload.wisconsinUpdate(updated, 2_000), REQUEST_TIMEOUT)) {
            JdbcSession session = backend.openSession(0, 7);
            for (int i = 0; i < 300; i++) {
                session.execute(0);
                long[] p = session.lastParameters();
                assertEquals(1, session.lastRowCount(), "an UPDATE by unique1 matches exactly one row");
                lastValue.put(p[1], p[0]);
            }
        }
        try (Connection c = target().connect(0); Statement s = c.createStatement()) {
            int changedAsClaimed = 0;
            try (ResultSet r = s.executeQuery("SELECT unique1, unique3 FROM " + updated)) {
                while (r.next()) {
                    long unique1 = r.getLong(1);
                    long expected = lastValue.getOrDefault(unique1, unique1);
                    assertEquals(expected, r.getLong(2), "unique3 of unique1=" + unique1);
                    changedAsClaimed += lastValue.containsKey(unique1) && expected != unique1 ? 1 : 0;
                }
            }
            assertTrue(changedAsClaimed > 200, "most updates change the value: " + changedAsClaimed);
            s.execute("DROP TABLE " + updated);
        }
    }

    @Test
    void anUnknownTableIsAClearErrorBeforeTheRun() {
        Workload workload = Workload.wisconsinSelect("no_such_table", 10);
        SQLException e = assertThrows(SQLException.class, () -> JdbcBackend.open(target(), workload, REQUEST_TIMEOUT));
        assertTrue(e.getMessage().contains("does not prepare") && e.getMessage().contains("no_such_table"), e.getMessage());
        assertEquals(JdbcErrors.OTHER, JdbcErrors.classify(e));
        SQLException missing = assertThrows(SQLException.class, () -> {
            try (Connection c = target().connect(0)) {
                WisconsinRelation.tuplesOf(c, "no_such_table");
            }
        });
        assertTrue(missing.getMessage().contains("queuelab load"), missing.getMessage());
    }

    @Test
    void aWrongPasswordIsRefusedWithAOneLineMessage() {
        JdbcTarget wrong = new JdbcTarget(target().url(), target().user(), "certainly-wrong");
        SQLException e = assertThrows(SQLException.class, () -> wrong.connect(0).close());
        assertTrue(e.getMessage().contains("wrong user or password"), e.getMessage());
        assertTrue(!e.getMessage().contains("certainly-wrong") && !e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void duplicateKeysAndLockWaitsAreClassified() throws Exception {
        Workload duplicate = new Workload("dup", List.of(new WorkloadStatement("insert-existing",
                "INSERT INTO " + table() + " (unique1, unique2, two, four, ten, twenty, onePercent, tenPercent, twentyPercent,"
                        + " fiftyPercent, unique3, evenOnePercent, oddOnePercent, stringu1, stringu2, string4)"
                        + " VALUES (?, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 'a', 'b', 'c')",
                1, List.of(new ParameterSpec.Uniform(TUPLES + 10, TUPLES + 20)))), List.of(table()));
        try (JdbcBackend backend = JdbcBackend.open(target(), duplicate, REQUEST_TIMEOUT);
             JdbcSession session = backend.openSession(0, 1)) {
            SQLException e = assertThrows(SQLException.class, () -> session.execute(0));
            assertEquals(JdbcErrors.CONSTRAINT, backend.classify(e), e.getMessage());
        }
        try (Connection holder = target().connect(0); Connection waiter = target().connect(0);
             Statement h = holder.createStatement(); Statement w = waiter.createStatement()) {
            holder.setAutoCommit(false);
            h.executeUpdate("UPDATE " + table() + " SET unique3 = unique3 WHERE unique2 = 5");
            w.execute("SET SESSION innodb_lock_wait_timeout = 1");
            SQLException e = assertThrows(SQLException.class, () -> w.executeUpdate("UPDATE " + table() + " SET unique3 = unique3 WHERE unique2 = 5"));
            assertEquals(JdbcErrors.DEADLOCK, JdbcErrors.classify(e), e.getMessage());
            holder.rollback();
        }
    }

    static long single(Statement s, String sql) throws SQLException {
        try (ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    static String text(Statement s, String sql) throws SQLException {
        try (ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getString(1);
        }
    }

    private static String checksum(Statement s, String table) throws SQLException {
        return text(s, "SELECT CONCAT(COUNT(*), ':', SUM(CRC32(CONCAT_WS(',', " + String.join(", ", WisconsinRelation.COLUMNS)
                + ")))) FROM " + table);
    }
}
