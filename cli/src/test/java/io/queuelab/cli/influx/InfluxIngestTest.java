package io.queuelab.cli.influx;

import java.util.Map;
import io.queuelab.cli.CliTestSupport;
import io.queuelab.core.backend.SyncSession;
import io.queuelab.core.iot.SensorStream;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.telemetry.ResourceUse;
import org.influxdb.InfluxDB;
import org.influxdb.InfluxDBFactory;
import org.influxdb.dto.Query;
import org.influxdb.dto.QueryResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Seed 002's line-protocol ingest against a real influxd that the test starts (Debian's influxdb 1.6.7 here). */
class InfluxIngestTest {
    @TempDir
    Path tmp;

    static void requireInfluxd() {
        assumeTrue(LocalInfluxd.binary().isPresent(), "influxd is not installed (apt-get install influxdb; .ci/run installs it)");
    }

    @Test
    void eachRequestWritesOneSecondOfDatapointsAsPointsOfFiveFields() throws Exception {
        requireInfluxd();
        try (LocalInfluxd server = LocalInfluxd.start(tmp.resolve("influxd"), Duration.ofSeconds(60))) {
            try (InfluxIngestBackend backend = InfluxIngestBackend.open(server.url(), "iot", 1000, 5, Duration.ofSeconds(10));
                 SyncSession a = backend.openSession(0, 1); SyncSession b = backend.openSession(1, 2)) {
                assertTrue(backend.describe().get("serverVersion").toString().startsWith("1."), backend.describe().toString());
                a.execute(0);
                b.execute(0);
            }
            try (InfluxDB influx = InfluxDBFactory.connect(server.url())) {
                QueryResult count = influx.query(new Query("SELECT COUNT(m0), COUNT(m4), MAX(m4), MIN(m0) FROM \"measurement\"", "iot"));
                List<Object> row = count.getResults().get(0).getSeries().get(0).getValues().get(0);
                assertEquals(2000.0, ((Number) row.get(1)).doubleValue(), "2 requests x 1,000 datapoints " + row);
                assertEquals(2000.0, ((Number) row.get(2)).doubleValue());
                assertTrue(((Number) row.get(3)).doubleValue() <= 4095 && ((Number) row.get(4)).doubleValue() >= 0, row.toString());
                QueryResult seconds = influx.query(new Query("SELECT COUNT(m0) FROM \"measurement\""
                        + " WHERE time > now() - 1h AND time < now() + 1h GROUP BY time(1s)", "iot"));
                long nonEmpty = seconds.getResults().get(0).getSeries().get(0).getValues().stream()
                        .filter(v -> v.get(1) != null && ((Number) v.get(1)).doubleValue() == 1000).count();
                assertEquals(2, nonEmpty, "two distinct seconds of 1,000 points each");
            }
        }
    }

    @Test
    void theLineProtocolCarriesNanosecondTimestampsAndIntegerFields() {
        SensorStream.Batch batch = new SensorStream(0, 2, 1).batch(1_518_465_409L);
        String line = InfluxIngestBackend.points("iot", batch).lineProtocol().split("\n")[1];
        assertEquals("measurement m0=" + batch.value(1, 0) + "i,m1=" + batch.value(1, 1) + "i,m2=" + batch.value(1, 2) + "i,m3="
                + batch.value(1, 3) + "i,m4=" + batch.value(1, 4) + "i " + (1_518_465_409L * 1_000_000_000L + batch.nanos()[1]), line);
    }

    @Test
    void runFromTheCliStartsInfluxdSamplesItAndStopsIt() throws Exception {
        requireInfluxd();
        Path run = tmp.resolve("run");
        CliTestSupport.Result r = CliTestSupport.run("run", "--backend", "influxdb", "--influxd-dir", tmp.resolve("db").toString(),
                "--constant", "--rate", "2", "--duration", "2s", "--telemetry-interval", "500ms", "--out", run.toString());
        assertEquals(0, r.exitCode(), r.err());
        Manifest m = Manifest.read(run);
        long scheduled = m.totals().orElseThrow().scheduled();
        assertTrue(scheduled >= 3 && m.totals().orElseThrow().ok() == scheduled, m.totals().toString());
        Object workload = m.backend().orElseThrow().server().get("workload");
        assertEquals("iot-influx", ((Map<?, ?>) workload).get("name"));
        ResourceUse.Samples server = ResourceUse.read(run).orElseThrow().processes().get("server");
        assertTrue(server != null && server.size() >= 4, "influxd sampled");
        assertTrue(server.dataDirBytes()[server.size() - 1] > 0, "its directory");
        assertFalse(ProcessHandle.of(server.pid()).map(ProcessHandle::isAlive).orElse(false), "influxd stopped with the command");
        // the server's own statistics: the line protocol it received, 1,000 lines of ~76 bytes a request
        List<String> stats = java.nio.file.Files.readAllLines(run.resolve(InfluxStatsSampler.FILE_NAME));
        assertEquals("epoch_ns," + String.join(",", InfluxStatsSampler.COUNTERS), stats.get(0));
        assertTrue(stats.size() >= 5, stats.toString());
        long firstBytes = Long.parseLong(stats.get(1).split(",")[1]);
        long lastBytes = Long.parseLong(stats.get(stats.size() - 1).split(",")[1]);
        assertTrue(lastBytes - firstBytes >= (scheduled - 1) * 60_000L, "writeReqBytes " + firstBytes + " -> " + lastBytes);
        io.queuelab.reports.data.ResourceTable table = io.queuelab.reports.data.ResourceTable.of(List.of(run));
        assertTrue(table.render().contains("InfluxDB's writeReqBytes"), table.render());
    }

    @Test
    void aServerThatDoesNotAnswerIsOneLine() {
        CliTestSupport.assertEachIsRefused(new String[][] {
                {"run", "--backend", "influxdb", "--influx-url", "http://127.0.0.1:1", "--rate", "1", "--out", tmp.resolve("x").toString()},
                {"run", "--backend", "influxdb", "--influx-url", "http://127.0.0.1:1", "--influx-database", "a;b", "--rate", "1",
                        "--out", tmp.resolve("x").toString()},
        });
    }
}
