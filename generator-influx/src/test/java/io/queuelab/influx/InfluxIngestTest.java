package io.queuelab.influx;

import io.queuelab.core.backend.SyncSession;
import io.queuelab.core.iot.SensorStream;
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
}
