package io.queuelab.influx;

import io.queuelab.core.backend.SyncSession;
import org.influxdb.InfluxDB;
import org.influxdb.InfluxDBFactory;
import org.influxdb.dto.Query;
import org.influxdb.dto.QueryResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Seed 002's UDP ingest against a real influxd with its UDP listener: a sent datagram is not a
 * stored point, so the backend's accounting is checked against the server's own count, with every
 * datagram delivered and with a relay that loses some on the way.
 */
class InfluxUdpTest {
    private static final String DB = "iot";

    @TempDir
    Path tmp;

    @Test
    void whatUdpStoredIsWhatTheRequestsAndTheRunCount() throws Exception {
        assumeTrue(LocalInfluxd.binary().isPresent(), "influxd is not installed (apt-get install influxdb; .ci/run installs it)");
        try (LocalInfluxd server = LocalInfluxd.start(tmp.resolve("influxd"), Duration.ofSeconds(60), DB)) {
            InetSocketAddress udp = server.udpAddress().orElseThrow();
            Map<?, ?> delivery;
            Map<?, ?> nextRun;
            long[] missing = new long[2]; // by the requests' own count: this run, the next
            long[] ok = new long[2];
            try (InfluxIngestBackend backend = InfluxIngestBackend.open(server.url(), udp, DB, 1000, 5, Duration.ofSeconds(10));
                 SyncSession a = backend.openSession(0, 1); SyncSession b = backend.openSession(1, 2)) {
                assertTrue(backend.describe().toString().contains("over UDP"), backend.describe().toString());
                for (int i = 0; i < 3; i++) {
                    execute(a, missing, ok, 0); // returns only once its 1,000 points are read back, else throws
                    execute(b, missing, ok, 0);
                }
                delivery = (Map<?, ?>) backend.describeAtEnd().get("delivery");
                // a sweep's next run on the same backend counts its own points only
                execute(a, missing, ok, 1);
                nextRun = (Map<?, ?>) backend.describeAtEnd().get("delivery");
            }
            long all = count(server.url(), "");
            long stored = all - ((Number) nextRun.get("pointsStored")).longValue();
            // loopback loses nothing unless the machine is starved (a small net.core.rmem_max and a busy influxd): either way
            // the server's own count is what the requests and the run say, and only fully stored requests are ok
            assertTrue(stored > 0, "points stored " + stored);
            assertEquals(6000 - missing[0], stored, "the server's count against the requests' " + delivery);
            assertTrue(ok[0] * 1000 <= stored, ok[0] + " ok requests, " + stored + " points stored");
            assertEquals(6000L, delivery.get("datagramsSent"), delivery.toString());
            assertEquals(stored, delivery.get("pointsStored"), delivery.toString());
            assertEquals(stored, delivery.get("pointsConfirmedByRequests"), delivery.toString());
            assertEquals(6000 - stored, delivery.get("pointsLost"), delivery.toString());
            assertEquals(1000L, nextRun.get("datagramsSent"), nextRun.toString());
            assertEquals(1000 - missing[1], nextRun.get("pointsStored"), nextRun.toString());
        }
    }

    /** One request: ok, or its missing points counted from its own message. */
    private static void execute(SyncSession session, long[] missing, long[] ok, int run) throws Exception {
        try {
            session.execute(0);
            ok[run]++;
        } catch (InfluxIngestBackend.PointsNotStored lost) {
            missing[run] += Long.parseLong(lost.getMessage().split(" ")[0]);
        }
    }

    @Test
    void pointsLostOnTheWayAreCountedLostNeverOk() throws Exception {
        assumeTrue(LocalInfluxd.binary().isPresent(), "influxd is not installed (apt-get install influxdb; .ci/run installs it)");
        try (LocalInfluxd server = LocalInfluxd.start(tmp.resolve("influxd"), Duration.ofSeconds(60), DB)) {
            InetSocketAddress udp = server.udpAddress().orElseThrow();
            // an earlier run (same seed, so the same timestamps) fills the seconds a later run would take if it
            // started at "now": its points must not stand in for the later run's lost ones
            try (InfluxIngestBackend earlier = InfluxIngestBackend.open(server.url(), udp, DB, 1000, 5, Duration.ofSeconds(10));
                 SyncSession s = earlier.openSession(0, 1)) {
                for (int i = 0; i < 3; i++) {
                    s.execute(0);
                }
            }
            long before = count(server.url(), "");
            assertEquals(3000, before);
            // a relay that forwards 9 of every 10 datagrams to influxd's listener, counting what it forwards
            try (Relay relay = new Relay(udp, 10);
                 InfluxIngestBackend backend = InfluxIngestBackend.open(server.url(), relay.address(), DB, 1000, 5, Duration.ofSeconds(10))) {
                long missing = 0;
                try (SyncSession s = backend.openSession(0, 1)) {
                    for (int i = 0; i < 2; i++) {
                        Exception e = assertThrows(Exception.class, () -> s.execute(0), "a request with points lost is not ok");
                        InfluxIngestBackend.PointsNotStored lost = assertInstanceOf(InfluxIngestBackend.PointsNotStored.class, e);
                        assertEquals("udp_lost", backend.classify(lost));
                        assertTrue(lost.getMessage().contains("of 1000 points of second"), lost.getMessage());
                        missing += Long.parseLong(lost.getMessage().split(" ")[0]);
                    }
                }
                Map<?, ?> delivery = (Map<?, ?>) backend.describeAtEnd().get("delivery");
                long stored = count(server.url(), "") - before;
                assertEquals(relay.forwarded(), stored, "influxd stored what the relay forwarded");
                assertTrue(stored > 0 && stored <= 1800, "stored " + stored);
                assertEquals(2000L, delivery.get("datagramsSent"), delivery.toString());
                assertEquals(stored, delivery.get("pointsStored"), delivery.toString());
                assertEquals(2000 - stored, delivery.get("pointsLost"), delivery.toString());
                assertEquals(2000 - stored, missing, "the requests' own counts of missing points");
                assertEquals(missing, delivery.get("pointsMissingAtRequestEnd"), delivery.toString());
            }
        }
    }

    /**
     * influxd killed during a run: the requests after it cannot read their points back, so each is
     * udp_send_failed or udp_unknown with the reason (it was connection_lost, as if nothing had been
     * sent), and the run's delivery says what its requests confirmed, what is lost and what is
     * unknown, with the reason (it was only describeAtEndFailed, no delivery at all).
     */
    @Test
    void aServerKilledDuringTheRunLeavesItsPointsLostOrUnknownWithTheReason() throws Exception {
        assumeTrue(LocalInfluxd.binary().isPresent(), "influxd is not installed (apt-get install influxdb; .ci/run installs it)");
        LocalInfluxd server = LocalInfluxd.start(tmp.resolve("influxd"), Duration.ofSeconds(60), DB);
        try (server; InfluxIngestBackend backend = InfluxIngestBackend.open(server.url(), server.udpAddress().orElseThrow(), DB, 1000, 5,
                Duration.ofSeconds(10)); SyncSession s = backend.openSession(0, 1)) {
            s.execute(0); // stored and read back
            ProcessHandle influxd = ProcessHandle.of(server.pid()).orElseThrow();
            influxd.destroyForcibly();
            influxd.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
            for (int i = 0; i < 2; i++) {
                Exception e = assertThrows(Exception.class, () -> s.execute(0));
                InfluxIngestBackend.PointsNotStored lost = assertInstanceOf(InfluxIngestBackend.PointsNotStored.class, e);
                String outcome = backend.classify(lost);
                assertTrue(outcome.equals("udp_unknown") || outcome.equals("udp_send_failed"), outcome + ": " + lost.getMessage());
                assertTrue(lost.getMessage().matches("1000 of 1000 points of second \\d+ unknown: they could not be read back "
                        + "\\(\\d+ sent, \\d+ sends failed\\): .+"), lost.getMessage());
            }
            Map<?, ?> delivery = (Map<?, ?>) backend.describeAtEnd().get("delivery");
            assertEquals(3000L, delivery.get("pointsGenerated"), delivery.toString());
            assertEquals(1000L, delivery.get("pointsConfirmedByRequests"), delivery.toString());
            assertFalse(delivery.containsKey("pointsStored"), delivery.toString());
            assertTrue(String.valueOf(delivery.get("pointsStoredUnknown")).startsWith("the points could not be read back after the run: "),
                    delivery.toString());
            long failedSends = (Long) delivery.get("sendFailures");
            assertEquals(failedSends, delivery.get("pointsLost"), "the points whose send failed are lost: " + delivery);
            assertEquals(2000 - failedSends, delivery.get("pointsUnknown"), "the others sent are unknown: " + delivery);
            assertEquals(2000L, (Long) delivery.get("pointsMissingAtRequestEnd") + (Long) delivery.get("pointsUnknownAtRequestEnd"),
                    delivery.toString());
        }
    }

    private static long count(String url, String where) {
        try (InfluxDB influx = InfluxDBFactory.connect(url)) {
            QueryResult r = influx.query(new Query("SELECT COUNT(m0) FROM \"measurement\"" + where, DB));
            List<QueryResult.Series> series = r.getResults().get(0).getSeries();
            return series == null ? 0 : ((Number) series.get(0).getValues().get(0).get(1)).longValue();
        }
    }

    /** Forwards datagrams to {@code target}, dropping every {@code dropEvery}-th. */
    private static final class Relay implements AutoCloseable {
        private final DatagramSocket in = new DatagramSocket(0, InetAddress.getLoopbackAddress());
        private final DatagramSocket out = new DatagramSocket();
        private final AtomicLong forwarded = new AtomicLong();
        private final Thread thread;

        Relay(InetSocketAddress target, int dropEvery) throws Exception {
            in.setReceiveBufferSize(4 << 20);
            thread = new Thread(() -> {
                byte[] buffer = new byte[65536];
                long received = 0;
                try {
                    while (true) {
                        DatagramPacket p = new DatagramPacket(buffer, buffer.length);
                        in.receive(p);
                        if (++received % dropEvery != 0) {
                            out.send(new DatagramPacket(p.getData(), p.getLength(), target));
                            forwarded.incrementAndGet();
                        }
                    }
                } catch (Exception closed) {
                    // closed at the end of the test
                }
            }, "udp-relay");
            thread.setDaemon(true);
            thread.start();
        }

        InetSocketAddress address() {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), in.getLocalPort());
        }

        long forwarded() {
            return forwarded.get();
        }

        @Override
        public void close() throws Exception {
            in.close();
            out.close();
            thread.join(1000);
        }
    }
}
