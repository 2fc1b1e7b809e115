package io.queuelab.jdbc;

import io.queuelab.jdbc.qos.QosColumns;
import io.queuelab.jdbc.qos.QosLoader;
import io.queuelab.jdbc.qos.QosReadDataSet;
import io.queuelab.jdbc.qos.QosSchema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Seed 000's three schemas filled with its read data set (Table 4.3, scaled down), on the embedded MariaDB. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QosLoaderTest {
    static final QosReadDataSet DATA = new QosReadDataSet(0.002, 5);

    @BeforeAll
    void load() throws SQLException {
        QosLoader loader = new QosLoader(TestDatabases.embedded());
        for (QosSchema s : QosSchema.values()) {
            QosLoader.Result r = loader.load(s, DATA);
            assertEquals(DATA.totalRows(), r.rows());
        }
    }


    @Test
    void table43ScaledHas556RunsAndTheCountingColumnsSelectRowsPerRun() throws SQLException {
        // 1 x 1,200 + 5 x 173 + 50 x 20 + 500 x 2 at scale 0.002
        assertEquals(556, DATA.runs().size());
        assertEquals(1_200 + 5 * 173 + 50 * 20 + 500 * 2, DATA.totalRows());
        assertEquals(DATA.totalRows(), QosTestSql.scalar("SELECT COUNT(*) FROM qos1_results"));
        assertEquals(DATA.totalRows(), QosTestSql.scalar("SELECT COUNT(*) FROM qos2_averageStats"));
        assertEquals(DATA.totalRows(), QosTestSql.scalar("SELECT COUNT(*) FROM qos3_mainStats"));
        assertEquals(DATA.totalRows(), QosTestSql.scalar("SELECT COUNT(*) FROM qos3_secondaryStats"));
        assertEquals(556, QosTestSql.scalar("SELECT COUNT(*) FROM qos2_measurementsId"));
        assertEquals(556, QosTestSql.scalar("SELECT COUNT(*) FROM qos3_measurementsId"));
        // the seed's Q2 case 1 (ul_delay < 1): one row per run; Q1 case 4 (customer_id = 1): the long run
        assertEquals(556, QosTestSql.scalar("SELECT COUNT(*) FROM qos1_results WHERE ul_delay < 1"));
        assertEquals(556, QosTestSql.scalar("SELECT COUNT(*) FROM qos3_secondaryStats WHERE ul_dupl < 1"));
        assertEquals(1_200, QosTestSql.scalar("SELECT COUNT(*) FROM qos1_results WHERE customer_id = 1"));
        assertEquals(2, QosTestSql.scalar("SELECT COUNT(*) FROM qos2_averageStats a JOIN qos2_measurementsId m USING (measurement_id) WHERE m.customer_id = 60"));
        // row 19 exists in runs 1-56 (at least 20 rows), row 172 in runs 1-6 (at least 173)
        assertEquals(56, QosTestSql.scalar("SELECT COUNT(*) FROM qos1_results WHERE ul_delay = 19"));
        assertEquals(6, QosTestSql.scalar("SELECT COUNT(*) FROM qos3_mainStats WHERE dl_delay = 172"));
    }

    @Test
    void everySchemaHoldsTheSameValues() throws SQLException {
        long one = QosTestSql.scalar("SELECT SUM(ul_jitter) + SUM(dl_mos) + SUM(customer_id * ul_reorder) FROM qos1_results");
        long two = QosTestSql.scalar("SELECT SUM(ul_jitter) + SUM(dl_mos) + SUM(m.customer_id * ul_reorder) FROM qos2_averageStats a"
                + " JOIN qos2_measurementsId m USING (measurement_id)");
        long three = QosTestSql.scalar("SELECT SUM(a.ul_jitter) + SUM(b.dl_mos) + SUM(m.customer_id * b.ul_reorder) FROM qos3_mainStats a"
                + " JOIN qos3_secondaryStats b USING (result_id) JOIN qos3_measurementsId m ON m.measurement_id = a.measurement_id");
        assertEquals(one, two);
        assertEquals(one, three);
        assertEquals(QosTestSql.scalar("SELECT SUM(probe_id + primary_port + start_time) FROM qos1_results WHERE ul_delay = 0"),
                QosTestSql.scalar("SELECT SUM(probe_id + primary_port + start_time) FROM qos3_measurementsId"));
    }

    @Test
    void theLoadIsDeterministicInItsSeed() throws SQLException {
        String checksum = "SELECT SUM(ul_jitter * 7 + dl_throughput) FROM qos2_averageStats";
        long before = QosTestSql.scalar(checksum);
        QosLoader loader = new QosLoader(TestDatabases.embedded());
        loader.load(QosSchema.TWO, DATA);
        assertEquals(before, QosTestSql.scalar(checksum));
        loader.load(QosSchema.TWO, new QosReadDataSet(DATA.scale(), 6));
        assertNotEquals(before, QosTestSql.scalar(checksum));
        loader.load(QosSchema.TWO, DATA);
        assertEquals(before, QosTestSql.scalar(checksum));
        assertTrue(QosTestSql.scalar("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE()"
                + " AND table_name LIKE 'qos%\\_\\_loading%'") == 0, "no scratch table left");
    }

    @Test
    void theForeignKeysPointAtTheFinalTablesAndAreEnforced() throws SQLException {
        List<String> references = new ArrayList<>();
        try (Connection c = TestDatabases.embedded().connect(0); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT table_name, referenced_table_name FROM information_schema.referential_constraints"
                     + " WHERE constraint_schema = DATABASE() AND table_name REGEXP '^qos[123]_' ORDER BY 1, 2")) {
            while (r.next()) {
                references.add(r.getString(1) + "->" + r.getString(2));
            }
        }
        assertEquals(List.of("qos2_averageStats->qos2_measurementsId", "qos3_mainStats->qos3_measurementsId",
                "qos3_secondaryStats->qos3_mainStats", "qos3_secondaryStats->qos3_measurementsId"), references);
        try (Connection c = TestDatabases.embedded().connect(0); Statement s = c.createStatement()) {
            String columns = String.join(", ", QosColumns.SECONDARY);
            // a secondaryStats row whose mainStats row does not exist
            assertThrows(SQLIntegrityConstraintViolationException.class, () -> s.executeUpdate(
                    "INSERT INTO qos3_secondaryStats (result_id, measurement_id, " + columns + ") SELECT 999999999, measurement_id, "
                            + columns + " FROM qos3_secondaryStats LIMIT 1"));
        }
    }
}
