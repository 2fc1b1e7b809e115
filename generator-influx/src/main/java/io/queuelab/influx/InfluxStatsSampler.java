package io.queuelab.influx;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queuelab.core.clock.ClockProbe;
import io.queuelab.core.telemetry.SampleTimer;

import java.io.BufferedWriter;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Samples an InfluxDB 1.x server's own statistics ({@code /debug/vars}) at a fixed interval into
 * {@value #FILE_NAME}, the InfluxDB counterpart of MariaDB's {@code server-status.csv}: the bytes
 * its HTTP service received in writes and sent in query answers, and the points and writes it
 * accepted or refused, and, with a UDP listener, the bytes and points it received by UDP and wrote.
 * These are the server's own network figures, which /proc cannot give per process.
 *
 * <p>Guarantees: {@code epoch_ns} (the generator's wall clock before each request) then
 * {@link #COUNTERS} in order, cumulative since the server started; one sample at start, one per
 * interval and a last one at {@link #close()} (after the run's last request); a sample the server does not
 * answer is skipped and counted in {@link #missedSamples()}; every row written is complete.
 */
public final class InfluxStatsSampler implements AutoCloseable {
    public static final String FILE_NAME = "influxdb-stats.csv";
    /**
     * httpd: writeReqBytes, queryRespBytes, writeReq, pointsWrittenOK; write: writeOk, writeError, writeDrop;
     * the UDP listener's (empty without one) as udp + its name: bytesRx, pointsRx (points parsed from the
     * datagrams), pointsTx (points it wrote), pointsParseFail, readFail, batchesTxFail.
     */
    public static final List<String> COUNTERS = List.of("writeReqBytes", "queryRespBytes", "writeReq", "pointsWrittenOK",
            "writeOk", "writeError", "writeDrop", "udpBytesRx", "udpPointsRx", "udpPointsTx", "udpPointsParseFail",
            "udpReadFail", "udpBatchesTxFail");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final HttpRequest vars;
    private final SampleTimer timer;
    private BufferedWriter out;
    private long samples;
    private long missed;

    private InfluxStatsSampler(String url, BufferedWriter out, Duration interval) {
        this.vars = HttpRequest.newBuilder(URI.create(url + "/debug/vars")).timeout(Duration.ofSeconds(2)).build();
        this.out = out;
        this.timer = SampleTimer.start("influxdb-stats-sampler", interval, this::sample);
    }

    /** Creates {@code file} (which must not exist), samples at once and then every {@code interval}. */
    public static InfluxStatsSampler start(String url, Path file, Duration interval) throws IOException {
        SampleTimer.requirePositive(interval);
        BufferedWriter out = Files.newBufferedWriter(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        out.write("epoch_ns," + String.join(",", COUNTERS) + "\n");
        return new InfluxStatsSampler(url, out, interval);
    }

    public synchronized long samples() {
        return samples;
    }

    public synchronized long missedSamples() {
        return missed;
    }

    private synchronized void sample() {
        if (out == null) {
            return;
        }
        long epochNanos = ClockProbe.wallClockNanos();
        try {
            JsonNode root = JSON.readTree(http.send(vars, HttpResponse.BodyHandlers.ofString()).body());
            JsonNode httpd = null;
            JsonNode udp = null;
            for (Iterator<Map.Entry<String, JsonNode>> fields = root.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> f = fields.next();
                if (f.getKey().startsWith("httpd")) {
                    httpd = f.getValue().path("values");
                } else if (f.getKey().startsWith("udp")) {
                    udp = f.getValue().path("values");
                }
            }
            JsonNode write = root.path("write").path("values");
            StringBuilder row = new StringBuilder().append(epochNanos);
            for (String counter : COUNTERS) {
                JsonNode v;
                if (counter.startsWith("udp")) {
                    String name = Character.toLowerCase(counter.charAt(3)) + counter.substring(4);
                    v = udp == null ? write.path("") : udp.path(name);
                } else {
                    v = httpd != null && httpd.has(counter) ? httpd.get(counter) : write.path(counter);
                }
                row.append(',').append(v.isNumber() ? v.asText() : "");
            }
            out.write(row.append('\n').toString());
            out.flush();
            samples++;
        } catch (IOException | RuntimeException e) {
            missed++;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            missed++;
        }
    }

    @Override
    public void close() throws IOException {
        timer.close();
        sample(); // the end state, after the run's last request, as the host sampler takes one
        synchronized (this) {
            if (out != null) {
                out.close();
                out = null;
            }
        }
    }
}
