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

import java.io.InterruptedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Seed 002's InfluxDB writer: one request writes one second's batch of sensor datapoints
 * ({@link SensorStream}) as line protocol, one point per datapoint (measurement
 * {@value #MEASUREMENT}, integer fields m0..m4, nanosecond timestamp), in one HTTP write of
 * influxdb-java that returns when the server has acknowledged it. The paper sent each datapoint
 * by UDP, which gives no completion to time, hence no response time; the HTTP write carries the
 * same line protocol.
 *
 * <p>Guarantees: {@link #open} creates the database if missing and fails in one line when the
 * server does not answer; a failed write is classified {@code connection_lost} (no connection),
 * {@code timeout} (--request-timeout) or {@code other} (the server refused it). Seconds are
 * distinct across workers. A MongoDB backend would be another such class over the same stream.
 */
public final class InfluxIngestBackend implements SyncBackend {
    public static final String MEASUREMENT = "measurement";
    static final String OPERATION = "iot-influx";

    private final String url;
    private final String database;
    private final SensorStream stream;
    private final Duration requestTimeout;
    private final Map<String, Object> description;

    private InfluxIngestBackend(String url, String database, SensorStream stream, Duration requestTimeout, Map<String, Object> description) {
        this.url = url;
        this.database = database;
        this.stream = stream;
        this.requestTimeout = requestTimeout;
        this.description = description;
    }

    /**
     * Checks the server at {@code url} and creates {@code database} if missing.
     *
     * @param pointsPerSecond datapoints per request (the paper: 1,000)
     * @param requestTimeout  how long one write may take; zero = no limit
     */
    public static InfluxIngestBackend open(String url, String database, int pointsPerSecond, long seed, Duration requestTimeout) {
        if (!database.matches("[A-Za-z0-9_]+")) {
            throw new IllegalArgumentException("--influx-database must be letters, digits and '_', not '" + database + "'");
        }
        Map<String, Object> d = new LinkedHashMap<>();
        try (InfluxDB influx = connect(url, requestTimeout.isZero() ? Duration.ofSeconds(10) : requestTimeout)) {
            d.put("backend", "influxdb");
            d.put("url", url);
            d.put("serverVersion", influx.ping().getVersion());
            QueryResult created = influx.query(new Query("CREATE DATABASE " + database));
            if (created.hasError()) {
                throw new IllegalStateException("InfluxDB at " + url + " refused CREATE DATABASE: " + created.getError());
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
        workload.put("protocol", "line protocol over HTTP /write, nanosecond precision");
        d.put("workload", workload);
        d.put("requestTimeoutMillis", requestTimeout.toMillis());
        return new InfluxIngestBackend(url, database, new SensorStream(Instant.now().getEpochSecond(), pointsPerSecond, seed),
                requestTimeout, d);
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
    public String classify(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InterruptedIOException) { // OkHttp's call timeout, or a SocketTimeoutException
                return "timeout";
            }
        }
        return failure instanceof InfluxDBIOException ? "connection_lost" : "other";
    }

    @Override
    public SyncSession openSession(int worker, long seed) {
        InfluxDB influx = connect(url, requestTimeout.isZero() ? Duration.ofDays(1) : requestTimeout);
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
}
