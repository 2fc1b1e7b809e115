package io.queuelab.jdbc;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.run.RunStop;
import io.queuelab.jdbc.qos.QosSchema;
import io.queuelab.jdbc.qos.QosWriteGrid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Seed 000's write grid at a tiny size on the embedded MariaDB: finite closed runs, every line logged and stored. */
class QosWriteGridTest {
    @TempDir
    Path dir;


    @Test
    void theSeedsStandardErrorDividesTheDeviationByN() {
        // mean 2, s = sqrt(2/3) (over n, equation 2), SE = s / sqrt(3), relative 0.2357
        assertEquals(Math.sqrt(2.0 / 3) / Math.sqrt(3) / 2, QosWriteGrid.relativeStandardError(List.of(1.0, 2.0, 3.0)), 1e-12);
        assertEquals(0, QosWriteGrid.relativeStandardError(List.of(5.0, 5.0, 5.0, 5.0, 5.0)), 0);
    }

    @Test
    void everyClientWritesItsLinesIntoEachSchemaAndEachRoundIsALoggedRun() throws Exception {
        QosWriteGrid grid = new QosWriteGrid(TestDatabases.embedded(), new QosWriteGrid.Rules(2, 3, 10.0, Duration.ofSeconds(60)),
                dir, 3, null);
        List<QosWriteGrid.CellResult> results = grid.run(List.of(new QosWriteGrid.Cell(QosSchema.ONE, 2, 3),
                new QosWriteGrid.Cell(QosSchema.TWO, 2, 3), new QosWriteGrid.Cell(QosSchema.THREE, 3, 4)));
        for (QosWriteGrid.CellResult r : results) {
            // a limit of 1000 % is met at the minimum of 2 rounds, after the warm-up round (issue 27: the cold first
            // round was one of the rounds averaged)
            assertEquals(2, r.cycleSeconds().size(), r.toString());
            assertTrue(r.warmupSeconds() > 0, r.toString());
            assertTrue(Files.isDirectory(dir.resolve(r.cell().directoryName()).resolve("round-00")), r.toString());
            assertEquals(r.cycleSeconds().stream().mapToDouble(Double::doubleValue).average().orElseThrow(), r.meanSeconds(), 1e-12);
            assertTrue(r.converged());
            assertTrue(r.meanSeconds() > 0 && r.linesPerSecond() > 0, r.toString());
        }
        // each cell's tables hold exactly its rounds' lines, the warm-up round's included (fresh tables per cell)
        assertEquals(3 * 2 * 3, QosTestSql.scalar("SELECT COUNT(*) FROM qosw1_results"));
        assertEquals(3 * 2 * 3, QosTestSql.scalar("SELECT COUNT(*) FROM qosw2_averageStats"));
        assertEquals(3 * 2, QosTestSql.scalar("SELECT COUNT(*) FROM qosw2_measurementsId WHERE end_time > start_time"));
        assertEquals(3 * 3 * 4, QosTestSql.scalar("SELECT COUNT(*) FROM qosw3_mainStats m JOIN qosw3_secondaryStats s USING (result_id)"
                + " WHERE m.measurement_id = s.measurement_id AND m.ul_delay = s.ul_dupl"));
        assertEquals(3 * 3, QosTestSql.scalar("SELECT COUNT(*) FROM qosw3_measurementsId WHERE end_time > start_time"));
        // every client wrote lines 0..3 of its own measurement
        assertEquals(3 * 3, QosTestSql.scalar("SELECT COUNT(*) FROM (SELECT measurement_id FROM qosw3_mainStats GROUP BY measurement_id"
                + " HAVING COUNT(*) = 4 AND MIN(ul_delay) = 0 AND MAX(ul_delay) = 3) c"));
        RunDirectory round = RunDirectory.open(dir.resolve("schema3-c3-r4").resolve("round-02"));
        long ok = 0;
        try (RequestLogReader r = round.openLog()) {
            while (r.next()) {
                assertEquals(LogFormat.OK, r.outcome());
                ok++;
            }
        }
        assertEquals(12, ok);
        assertEquals(results.get(2).cycleSeconds().get(1),
                round.manifest().end().orElseThrow().workDoneAtSeconds(), 1e-9);
        Path csv = dir.resolve("grid.csv");
        QosWriteGrid.writeCsv(csv, results);
        assertEquals(4, Files.readAllLines(csv).size());
    }

    @Test
    void aStopRequestEndsTheGridAndKeepsTheCellsCompletedBefore() throws Exception {
        RunStop stop = new RunStop();
        // the progress line of the first finished cell asks the grid to stop
        PrintStream progress = new PrintStream(new OutputStream() {
            @Override
            public void write(int b) {
                stop.request("test");
            }
        });
        QosWriteGrid grid = new QosWriteGrid(TestDatabases.embedded(), new QosWriteGrid.Rules(2, 2, 10.0, Duration.ofSeconds(60)),
                dir, 5, progress, stop, io.queuelab.core.run.RunCompanion.NONE);
        List<QosWriteGrid.CellResult> done = grid.run(List.of(new QosWriteGrid.Cell(QosSchema.ONE, 1, 2),
                new QosWriteGrid.Cell(QosSchema.ONE, 2, 2), new QosWriteGrid.Cell(QosSchema.TWO, 1, 2)));
        assertEquals(1, done.size());
        assertEquals(1, done.get(0).cell().clients());
        assertFalse(Files.exists(dir.resolve("schema1-c2-r2")), "no round of a cell after the stop");
    }

    @Test
    void aCellThatDoesNotMeetTheLimitStopsAtMaxRoundsAndSaysSo() throws Exception {
        QosWriteGrid grid = new QosWriteGrid(TestDatabases.embedded(), new QosWriteGrid.Rules(2, 3, 1e-12, Duration.ofSeconds(60)),
                dir, 4, null);
        QosWriteGrid.CellResult r = grid.run(new QosWriteGrid.Cell(QosSchema.TWO, 1, 2));
        assertEquals(3, r.cycleSeconds().size());
        assertFalse(r.converged());
    }
}
