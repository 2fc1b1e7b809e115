package io.queuelab.influx;

import io.queuelab.core.backend.OperationMix;
import io.queuelab.core.backend.SyncBackend;
import io.queuelab.core.backend.SyncSession;
import io.queuelab.core.iot.SensorStream;
import okhttp3.OkHttpClient;
import org.influxdb.InfluxDB;
import org.influxdb.InfluxDBFactory;
import org.influxdb.InfluxDBIOException;
import org.influxdb.dto.BatchPoints;
import org.influxdb.dto.Point;
import org.influxdb.dto.Query;
import org.influxdb.dto.QueryResult;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Seed 002's InfluxDB writer: one request writes one second's batch of sensor datapoints
 * ({@link SensorStream}) as line protocol, one point per datapoint (measurement
 * {@value #MEASUREMENT}, integer fields m0..m4, nanosecond timestamp). Over {@link Protocol#HTTP}
 * (the default) the batch is one HTTP write of influxdb-java that returns when the server has
 * acknowledged it. Over {@link Protocol#UDP}, as the paper sent it, each point is one datagram to
 * influxd's UDP listener ({@code sendto} of one line, the paper's writer); UDP acknowledges
 * nothing, so a sent datagram is not a stored point: the request then reads its second back over
 * HTTP ({@code COUNT}) until every point is there, for at most {@link #UDP_STORE_WAIT}, and only a
 * request whose points are all stored is {@code ok}. Its response time therefore runs to the
 * points' being stored and readable, not to the send.
 *
 * <p>Guarantees: {@link #open} creates the database if missing and fails in one line when the
 * server does not answer; a failed HTTP write is classified {@code connection_lost} (no
 * connection), {@code timeout} (--request-timeout) or {@code other} (the server refused it); a UDP
 * request with points missing is {@code udp_lost} ({@code udp_send_failed} when a send failed,
 * {@code udp_unknown} when its points could not be read back: the server did not answer the
 * query), its message saying how many and why. Seconds are distinct across workers; over UDP the
 * stream starts after the last point already in the measurement, so an earlier run's point can
 * never stand in for a lost one. {@link #describeAtEnd()} counts, for UDP, the datagrams and points
 * sent against the points stored (queried back after the run) and reports the difference as lost,
 * per run (a sweep's runs share one backend); when the server does not answer that query (it died
 * during the run, say) the delivery is still reported, its stored count unknown with the reason
 * ({@code pointsStoredUnknown}), the points whose send failed lost and those sent but not confirmed
 * by their request unknown ({@code pointsUnknown}): never nothing. Over UDP one generator owns the database's seconds: several
 * writing the measurement at once would fill each other's seconds, so {@code --node-count} above 1
 * is refused by the command. A MongoDB
 * backend would be another such class over the same stream.
 */
public final class InfluxIngestBackend implements SyncBackend {
    public static final String MEASUREMENT = "measurement";
    static final String OPERATION = "iot-influx";
    /** How long a UDP request waits for its points to be readable after its last datagram. */
    public static final Duration UDP_STORE_WAIT = Duration.ofSeconds(3);
    private static final long READ_BACK_PAUSE_MILLIS = 5;

    /** How the line protocol travels to the server. */
    public enum Protocol { HTTP, UDP }

    private final String url;
    private final InetSocketAddress udp;
    private final String database;
    private final SensorStream stream;
    /** The first second of the run not yet counted by {@link #describeAtEnd()} (a sweep runs several on one backend). */
    private long countFromSecond;
    private final Duration requestTimeout;
    private final Map<String, Object> description;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong datagramsSent = new AtomicLong();
    private final AtomicLong sendFailures = new AtomicLong();
    private final AtomicLong pointsConfirmed = new AtomicLong();
    private final AtomicLong pointsMissing = new AtomicLong();
    private final AtomicLong pointsUnknown = new AtomicLong();

    private InfluxIngestBackend(String url, InetSocketAddress udp, String database, SensorStream stream, long firstSecond,
                                Duration requestTimeout, Map<String, Object> description) {
        this.url = url;
        this.udp = udp;
        this.database = database;
        this.stream = stream;
        this.countFromSecond = firstSecond;
        this.requestTimeout = requestTimeout;
        this.description = description;
    }

    /** A database name influxd and its configuration take as is: letters, digits and '_'. */
    public static String checkDatabase(String database) {
        if (!database.matches("[A-Za-z0-9_]+")) {
            throw new IllegalArgumentException("--influx-database must be letters, digits and '_', not '" + database + "'");
        }
        return database;
    }

    /**
     * Checks the server at {@code url} and creates {@code database} if missing.
     *
     * @param pointsPerSecond datapoints per request (the paper: 1,000)
     * @param requestTimeout  how long one write may take; zero = no limit
     */
    public static InfluxIngestBackend open(String url, String database, int pointsPerSecond, long seed, Duration requestTimeout) {
        return open(url, null, database, pointsPerSecond, seed, requestTimeout);
    }

    /**
     * As {@link #open(String, String, int, long, Duration)}; with {@code udp} non-null the points
     * go as datagrams to that UDP listener, which must write into {@code database}, and the HTTP
     * endpoint at {@code url} reads them back.
     */
    public static InfluxIngestBackend open(String url, InetSocketAddress udp, String database, int pointsPerSecond, long seed,
                                           Duration requestTimeout) {
        checkDatabase(database);
        Map<String, Object> d = new LinkedHashMap<>();
        long firstSecond = Instant.now().getEpochSecond();
        try (InfluxDB influx = connect(url, requestTimeout.isZero() ? Duration.ofSeconds(10) : requestTimeout)) {
            d.put("backend", "influxdb");
            d.put("url", url);
            d.put("serverVersion", influx.ping().getVersion());
            QueryResult created = influx.query(new Query("CREATE DATABASE " + database));
            if (created.hasError()) {
                throw new IllegalStateException("InfluxDB at " + url + " refused CREATE DATABASE: " + created.getError());
            }
            if (udp != null) {
                firstSecond = Math.max(firstSecond, lastStoredSecond(influx, database) + 1);
            }
        } catch (InfluxDBIOException e) {
            throw new IllegalStateException("no InfluxDB answers at " + url + ": " + e.getCause().getMessage(), e);
        }
        d.put("database", database);
        Map<String, Object> workload = new LinkedHashMap<>();
        workload.put("name", OPERATION);
        workload.put("measurement", MEASUREMENT);
        workload.put("pointsPerRequest", pointsPerSecond);
        workload.put("valuesPerPoint", SensorStream.CHANNELS);
        workload.put("protocol", udp == null ? "line protocol over HTTP /write, nanosecond precision"
                : "line protocol over UDP to " + udp.getHostString() + ":" + udp.getPort()
                + ", one point a datagram, nanosecond precision; a request is ok when its points are read back");
        d.put("workload", workload);
        d.put("requestTimeoutMillis", requestTimeout.toMillis());
        if (udp != null) {
            d.put("udpStoreWaitMillis", UDP_STORE_WAIT.toMillis());
        }
        return new InfluxIngestBackend(url, udp, database, new SensorStream(firstSecond, pointsPerSecond, seed), firstSecond,
                requestTimeout, d);
    }

    /** The epoch second of the measurement's last point, or -1 when it has none. */
    private static long lastStoredSecond(InfluxDB influx, String database) {
        QueryResult last = influx.query(new Query("SELECT LAST(m0) FROM \"" + MEASUREMENT + "\"", database), TimeUnit.SECONDS);
        Long time = firstNumber(last, 0);
        return time == null ? -1 : time;
    }

    /** Column {@code column} of the first row of the first series, or null when there is none. */
    private static Long firstNumber(QueryResult result, int column) {
        if (result.hasError()) {
            throw new IllegalStateException("InfluxDB refused a query: " + result.getError());
        }
        if (result.getResults() == null || result.getResults().isEmpty() || result.getResults().get(0).hasError()) {
            String error = result.getResults() == null || result.getResults().isEmpty() ? null : result.getResults().get(0).getError();
            if (error != null) {
                throw new IllegalStateException("InfluxDB refused a query: " + error);
            }
            return null;
        }
        List<QueryResult.Series> series = result.getResults().get(0).getSeries();
        if (series == null || series.isEmpty() || series.get(0).getValues().isEmpty()) {
            return null;
        }
        Object v = series.get(0).getValues().get(0).get(column);
        return v instanceof Number n ? n.longValue() : null;
    }

    /** Points of {@link #MEASUREMENT} stored with timestamps in seconds [from, to). */
    private static long storedPoints(InfluxDB influx, String database, long fromSecond, long toSecond) {
        Long count = firstNumber(influx.query(new Query("SELECT COUNT(m0) FROM \"" + MEASUREMENT + "\" WHERE time >= "
                + fromSecond * 1_000_000_000L + " AND time < " + toSecond * 1_000_000_000L, database)), 1);
        return count == null ? 0 : count;
    }

    private static InfluxDB connect(String url, Duration timeout) {
        OkHttpClient.Builder http = new OkHttpClient.Builder().connectTimeout(Duration.ofSeconds(5))
                .readTimeout(timeout).writeTimeout(timeout).callTimeout(timeout);
        return InfluxDBFactory.connect(url, http);
    }

    /** The line protocol of a batch: what one request writes. */
    static BatchPoints points(String database, SensorStream.Batch batch) {
        BatchPoints points = BatchPoints.database(database).precision(TimeUnit.NANOSECONDS).build();
        for (int p = 0; p < batch.points(); p++) {
            Point.Builder point = Point.measurement(MEASUREMENT).time(batch.second() * 1_000_000_000L + batch.nanos()[p], TimeUnit.NANOSECONDS);
            for (int c = 0; c < SensorStream.CHANNELS; c++) {
                point.addField("m" + c, (long) batch.value(p, c));
            }
            points.point(point.build());
        }
        return points;
    }

    @Override
    public OperationMix operations() {
        return OperationMix.single(OPERATION);
    }

    @Override
    public Map<String, Object> describe() {
        return description;
    }

    @Override
    public Map<String, Object> describeAtEnd() {
        if (udp == null) {
            return Map.of();
        }
        // this run's counts only: the sessions are closed, and the next run of a sweep starts from zero
        long requested = requests.getAndSet(0);
        long from = countFromSecond;
        countFromSecond += requested;
        long points = requested * stream.pointsPerSecond();
        Map<String, Object> delivery = new LinkedHashMap<>();
        delivery.put("protocol", "udp");
        delivery.put("requests", requested);
        delivery.put("pointsGenerated", points);
        delivery.put("datagramsSent", datagramsSent.getAndSet(0));
        delivery.put("sendFailures", sendFailures.getAndSet(0));
        long confirmed = pointsConfirmed.getAndSet(0);
        long failedSends = (Long) delivery.get("sendFailures");
        delivery.put("pointsConfirmedByRequests", confirmed);
        delivery.put("pointsMissingAtRequestEnd", pointsMissing.getAndSet(0));
        delivery.put("pointsUnknownAtRequestEnd", pointsUnknown.getAndSet(0));
        try (InfluxDB influx = connect(url, Duration.ofSeconds(30))) {
            long stored = storedPoints(influx, database, from, from + requested);
            delivery.put("pointsStored", stored);
            delivery.put("pointsLost", points - stored);
        } catch (RuntimeException e) {
            // the server does not answer (killed during the run, say): what is known is still the run's count
            delivery.put("pointsStoredUnknown", "the points could not be read back after the run: " + reason(e));
            delivery.put("pointsLost", failedSends);
            delivery.put("pointsUnknown", points - confirmed - failedSends);
        }
        return Map.of("delivery", delivery);
    }

    @Override
    public String classify(Throwable failure) {
        if (failure instanceof PointsNotStored lost) {
            return lost.sendFailures > 0 ? "udp_send_failed" : lost.unknown ? "udp_unknown" : "udp_lost";
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InterruptedIOException) { // OkHttp's call timeout, or a SocketTimeoutException
                return "timeout";
            }
        }
        return failure instanceof InfluxDBIOException ? "connection_lost" : "other";
    }

    @Override
    public SyncSession openSession(int worker, long seed) throws IOException {
        InfluxDB influx = connect(url, requestTimeout.isZero() ? Duration.ofDays(1) : requestTimeout);
        if (udp != null) {
            try {
                return new UdpSession(influx);
            } catch (IOException | RuntimeException e) {
                influx.close(); // the session that would have closed it was never made
                throw e;
            }
        }
        return new SyncSession() {
            @Override
            public void execute(int operation) {
                influx.write(points(database, stream.nextBatch()));
            }

            @Override
            public void close() {
                influx.close();
            }
        };
    }

    @Override
    public void close() {
    }

    /** A UDP request whose points were not all stored, or could not be read back: counted, never ok. */
    static final class PointsNotStored extends Exception {
        private static final long serialVersionUID = 1L;
        final long sendFailures;
        /** Whether the read-back failed, so that whether the points not confirmed were stored is unknown. */
        final boolean unknown;

        PointsNotStored(long second, int points, long sent, long sendFailures, long stored, Duration waited, IOException sendFailure) {
            super(String.format(Locale.ROOT, "%d of %d points of second %d not stored %d ms after the last datagram (%d sent, %d sends failed%s)",
                    points - stored, points, second, waited.toMillis(), sent, sendFailures,
                    sendFailure == null ? "" : ": " + reason(sendFailure)), sendFailure);
            this.sendFailures = sendFailures;
            this.unknown = false;
        }

        /** The request's points could not be read back ({@code readBack} failed): {@code points - stored} unknown. */
        PointsNotStored(long second, int points, long sent, long sendFailures, long stored, RuntimeException readBack) {
            super(String.format(Locale.ROOT, "%d of %d points of second %d unknown: they could not be read back (%d sent, %d sends "
                    + "failed): %s", points - stored, points, second, sent, sendFailures, reason(readBack)), readBack);
            this.sendFailures = sendFailures;
            this.unknown = true;
        }
    }

    /** A failure's own words: the innermost message (influxdb-java wraps the connection's failure in its own). */
    static String reason(Throwable failure) {
        String said = null;
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                said = t.getMessage();
            }
        }
        return said == null ? failure.getClass().getSimpleName() : said.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    }

    /** One datagram a point (the paper's sendto of a line), then the second read back over HTTP. */
    private final class UdpSession implements SyncSession {
        private final InfluxDB influx;
        private final DatagramSocket socket;

        UdpSession(InfluxDB influx) throws IOException {
            this.influx = influx;
            this.socket = new DatagramSocket();
            try {
                socket.connect(udp);
            } catch (IOException | RuntimeException e) {
                socket.close();
                throw e;
            }
        }

        @Override
        public void execute(int operation) throws Exception {
            SensorStream.Batch batch = stream.nextBatch();
            requests.incrementAndGet();
            String[] lines = points(database, batch).lineProtocol().split("\n");
            long sent = 0;
            long failed = 0;
            IOException firstFailure = null;
            for (String line : lines) {
                byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
                try {
                    socket.send(new DatagramPacket(bytes, bytes.length));
                    sent++;
                } catch (IOException e) {
                    failed++;
                    firstFailure = firstFailure == null ? e : firstFailure;
                }
            }
            datagramsSent.addAndGet(sent);
            sendFailures.addAndGet(failed);
            long waitStart = System.nanoTime();
            long deadline = waitStart + UDP_STORE_WAIT.toNanos();
            long stored = 0;
            while (true) {
                try {
                    stored = storedPoints(influx, database, batch.second(), batch.second() + 1);
                } catch (RuntimeException readBack) {
                    // no answer (the server died, say): the points sent are neither confirmed nor known lost
                    pointsConfirmed.addAndGet(stored);
                    pointsMissing.addAndGet(failed);
                    pointsUnknown.addAndGet(Math.max(0, lines.length - stored - failed));
                    throw new PointsNotStored(batch.second(), lines.length, sent, failed, stored, readBack);
                }
                if (stored >= lines.length || System.nanoTime() >= deadline) {
                    break;
                }
                Thread.sleep(READ_BACK_PAUSE_MILLIS);
            }
            pointsConfirmed.addAndGet(Math.min(stored, lines.length));
            if (stored < lines.length) {
                pointsMissing.addAndGet(lines.length - stored);
                throw new PointsNotStored(batch.second(), lines.length, sent, failed, stored,
                        Duration.ofNanos(System.nanoTime() - waitStart), firstFailure);
            }
        }

        @Override
        public void close() {
            socket.close();
            influx.close();
        }
    }
}
