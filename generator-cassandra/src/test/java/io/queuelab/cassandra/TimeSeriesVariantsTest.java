package io.queuelab.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import io.queuelab.cassandra.workload.Scenario;
import io.queuelab.cassandra.workload.TimeSeriesSpec;
import io.queuelab.cassandra.workload.TimeSeriesSpec.IndexTechnique;
import io.queuelab.cassandra.workload.TimeSeriesSpec.Layout;
import io.queuelab.cassandra.workload.TimeSeriesWorkload;
import io.queuelab.core.backend.SyncSession;
import io.queuelab.core.run.LoadRun;
import io.queuelab.core.run.RunConfig;
import io.queuelab.core.run.RunResult;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every layout x index technique: a known series is written, ranges read back are equal to it. */
class TimeSeriesVariantsTest {
    @TempDir
    Path dir;

    private static final int BATCH = 50;

    /** Small buckets (600 values) so that most ranges (300..1,300 values) cross partitions. */
    static TimeSeriesSpec spec(Layout layout, IndexTechnique index, Scenario scenario) {
        int batch = layout == Layout.TYPED ? 1 : BATCH;
        return new TimeSeriesSpec(layout, batch, index, scenario, 0.5, 2, 600, 3_000, 300, 1_300, 1_200);
    }

    static Stream<Arguments> variants() {
        return Stream.of(Layout.values()).flatMap(layout ->
                Stream.of(IndexTechnique.values()).map(index -> Arguments.of(layout, index)));
    }

    @ParameterizedTest(name = "{0} values, index {1}")
    @MethodSource("variants")
    void rangesReadBackEqualToWhatWasWritten(Layout layout, IndexTechnique index) throws Exception {
        TimeSeriesWorkload workload = new TimeSeriesWorkload(spec(layout, index, Scenario.MIXED));
        int reads = 0;
        try (CqlBackend backend = TestCassandra.asyncBackend("ts_variants", workload)) {
            RecordingDriver driver = RecordingDriver.run(backend, 300, 8, 41);
            assertEquals(300, driver.completed(), "every request completes exactly once");
            assertEquals(0, driver.failures().size(), () -> "failures: " + driver.failures());
            reads = driver.countOf(0);
        }
        assertTrue(reads > 100, "the mix issued reads: " + reads);
    }

    @Test
    void theSynchronousBackendReadsTheSameData() throws Exception {
        TimeSeriesWorkload workload = new TimeSeriesWorkload(spec(Layout.BATCHED, IndexTechnique.SEPARATE_TABLE, Scenario.READ));
        try (CqlSyncBackend backend = CqlSyncBackend.open(TestCassandra.settings("ts_variants"), workload);
             SyncSession session = backend.openSession(0, 5)) {
            // each read checks every value of its range (aCorruptedValueFailsTheReadAsWrongResult shows this
            // session's check failing); 50 ranges read back equal to what was written
            for (int i = 0; i < 50; i++) {
                int read = i;
                assertDoesNotThrow(() -> session.execute(0), () -> "range read " + read + " of the batched series");
            }
        }
    }

    @Test
    void aCorruptedValueFailsTheReadAsWrongResult() throws Exception {
        TimeSeriesSpec spec = new TimeSeriesSpec(Layout.TYPED, 1, IndexTechnique.SAME_TABLE, Scenario.READ,
                0.5, 1, 600, 1_000, 1_000, 1_000, 1_000);
        TimeSeriesWorkload workload = new TimeSeriesWorkload(spec);
        try (CqlSyncBackend backend = CqlSyncBackend.open(TestCassandra.settings("ts_corrupt"), workload);
             SyncSession session = backend.openSession(0, 1);
             CqlSession raw = CqlSession.builder().addContactPoints(TestCassandra.cluster().contactPoints())
                     .withLocalDatacenter("datacenter1").withKeyspace("ts_corrupt").build()) {
            session.execute(0); // the only possible range: values 0..999, intact
            long ts = TimeSeriesWorkload.timestamp(700);
            raw.execute("UPDATE " + spec.table() + " SET value = -1 WHERE sensor = 0 AND bucket = "
                    + TimeSeriesWorkload.timestamp(600) + " AND ts = " + ts);
            WrongResultException wrong = assertThrows(WrongResultException.class, () -> session.execute(0));
            assertTrue(wrong.getMessage().contains("value 700"), wrong.getMessage());
            assertEquals(CqlErrors.WRONG_RESULT, backend.classify(wrong));
            // the asynchronous backend under the run's pipeline: every read (there is one range) comes back
            // wrong, and each is logged once as a wrong_result failure, none as ok
            RunResult run;
            try (CqlBackend async = CqlBackend.open(TestCassandra.settings("ts_corrupt"), workload)) {
                LoadPlan plan = new LoadPlan(
                        List.of(Phase.open("main", Duration.ofSeconds(1), 20, false)),
                        LoadPlan.Arrivals.POISSON, Duration.ZERO);
                run = LoadRun.execute(new RunConfig(plan, 1, 1000, 16, 7, 0, 1, null,
                        Duration.ZERO, Duration.ofSeconds(10), dir.resolve("async-wrong")), async,
                        Map.of("backend", "cassandra"), null);
            }
            var totals = run.totals();
            assertTrue(totals.scheduled() > 0 && totals.balanced(), totals::toString);
            assertEquals(Map.of(CqlErrors.WRONG_RESULT, totals.scheduled()), totals.errorsByClass(), totals::toString);
            assertEquals(0, totals.ok());
            raw.execute("UPDATE " + spec.table() + " SET value = " + TimeSeriesWorkload.value(0, 700)
                    + " WHERE sensor = 0 AND bucket = " + TimeSeriesWorkload.timestamp(600) + " AND ts = " + ts);
            session.execute(0);
        }
    }

    @Test
    void aTruncatedBlobFailsTheReadAsWrongResult() throws Exception {
        TimeSeriesSpec spec = new TimeSeriesSpec(Layout.BATCHED, BATCH, IndexTechnique.NONE, Scenario.READ,
                0.5, 1, 600, 1_000, 1_000, 1_000, 1_000);
        try (CqlSyncBackend backend = CqlSyncBackend.open(TestCassandra.settings("ts_corrupt"), new TimeSeriesWorkload(spec));
             SyncSession session = backend.openSession(0, 1);
             CqlSession raw = CqlSession.builder().addContactPoints(TestCassandra.cluster().contactPoints())
                     .withLocalDatacenter("datacenter1").withKeyspace("ts_corrupt").build()) {
            session.execute(0);
            raw.execute(raw.prepare("UPDATE " + spec.table() + " SET value = ? WHERE sensor = 0 AND bucket = ? AND ts = ?")
                    .bind(ByteBuffer.allocate(8), TimeSeriesWorkload.timestamp(0), TimeSeriesWorkload.timestamp(100)));
            assertThrows(WrongResultException.class, () -> session.execute(0));
        }
    }
}
