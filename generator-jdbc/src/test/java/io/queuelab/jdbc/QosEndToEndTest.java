package io.queuelab.jdbc;

import io.queuelab.core.testing.TimingSensitive;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.jdbc.qos.QosEndToEnd;
import io.queuelab.jdbc.qos.QosSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Seed 000's end-to-end writing test at a small size on the embedded MariaDB. */
@TimingSensitive
class QosEndToEndTest {
    @TempDir
    Path dir;


    @Test
    void clientsLinesAreWrittenIntoTheirMeasurementsAndAccountedInTheWindow() throws Exception {
        // 5 clients x 20 lines/s for 0.5 s of warm-up and 2 s measured: 250 lines, well within 2 writers' reach
        QosEndToEnd test = new QosEndToEnd(TestDatabases.embedded(), QosSchema.TWO, 20, Duration.ofMillis(500),
                Duration.ofSeconds(2), Duration.ofSeconds(30));
        QosEndToEnd.Result r = test.run(5, 2, dir.resolve("e2e"), 9);
        assertEquals(100, r.offeredPerSecond(), 1e-9);
        assertEquals(0, r.unfinished());
        long ok = 0;
        try (RequestLogReader log = RunDirectory.open(r.run()).openLog()) {
            while (log.next()) {
                assertEquals(LogFormat.OK, log.outcome());
                ok++;
            }
        }
        // constant rate: 100/s x 2.5 s, each phase's schedule starting one gap after its start
        assertEquals(250, ok, 2);
        assertEquals(ok, QosTestSql.scalar("SELECT COUNT(*) FROM qosw2_averageStats"));
        assertEquals(5, QosTestSql.scalar("SELECT COUNT(*) FROM qosw2_measurementsId"));
        // line n belongs to client n mod 5 as its line n / 5: each measurement holds its lines 0, 1, ... once, without gaps
        assertEquals(5, QosTestSql.scalar("SELECT COUNT(*) FROM (SELECT measurement_id FROM qosw2_averageStats GROUP BY measurement_id"
                + " HAVING COUNT(*) = MAX(ul_delay) + 1 AND COUNT(DISTINCT ul_delay) = COUNT(*) AND MIN(ul_delay) = 0) m"));
        assertTrue(QosTestSql.scalar("SELECT MAX(n) - MIN(n) FROM (SELECT COUNT(*) n FROM qosw2_averageStats GROUP BY measurement_id) m") <= 1);
        // the written rate in the window is the offered one (the writers kept up), give or take the window's edges
        assertEquals(100, r.writtenPerSecond(), 5);
        assertTrue(r.backlogSeconds() >= 0 && r.backlogSeconds() < 5, "backlog " + r.backlogSeconds() + " s");
    }
}
