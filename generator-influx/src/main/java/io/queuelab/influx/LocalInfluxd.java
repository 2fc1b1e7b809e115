package io.queuelab.influx;

import io.queuelab.core.process.ChildProcesses;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A local InfluxDB 1.x server ({@code influxd} of the machine, e.g. Debian's package {@code influxdb})
 * that queuelab starts for a command or a test: its own configuration, metadata, data and WAL in one
 * directory, HTTP and RPC on free loopback ports, no usage reporting, no self-monitoring database
 * (it would write into the data directory the run measures). With a UDP database it also opens
 * influxd's {@code [[udp]]} listener on a free loopback port, writing the line protocol it receives
 * into that database (nanosecond precision, a batch flushed at {@value #UDP_BATCH_SIZE} points or
 * after {@value #UDP_BATCH_TIMEOUT}, an {@value #UDP_READ_BUFFER}-byte socket buffer as InfluxData's
 * UDP guide asks, capped by the kernel's {@code net.core.rmem_max}).
 *
 * <p>Guarantees: {@link #start} returns once the server answers {@code /ping}, or fails with a
 * one-line message (influxd missing, or not up within the timeout, with its log's last line);
 * {@link #close()} stops it (SIGTERM, SIGKILL after {@link #STOP_GRACE}), and a watchdog stops it
 * when this JVM dies in any other way. The directory is kept (data accumulate as in a real server).
 */
public final class LocalInfluxd implements AutoCloseable {
    public static final Duration STOP_GRACE = Duration.ofSeconds(15);
    static final String CONFIG = "influxdb.conf";
    static final int UDP_BATCH_SIZE = 5000;
    static final String UDP_BATCH_TIMEOUT = "10ms";
    static final int UDP_READ_BUFFER = 8 * 1024 * 1024;

    private final Process process;
    private final ChildProcesses.Watchdog watchdog;
    private final int port;
    private final Path directory;
    private final int udpPort;

    private LocalInfluxd(Process process, ChildProcesses.Watchdog watchdog, int port, Path directory, int udpPort) {
        this.process = process;
        this.watchdog = watchdog;
        this.port = port;
        this.directory = directory;
        this.udpPort = udpPort;
    }

    /** The influxd on the PATH (or /usr/bin/influxd), if installed. */
    public static Optional<Path> binary() {
        for (String dir : (System.getenv().getOrDefault("PATH", "") + ":/usr/bin:/usr/sbin").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "influxd"))) {
                return Optional.of(Path.of(dir, "influxd"));
            }
        }
        return Optional.empty();
    }

    /** Starts influxd on {@code directory} (created if missing) and waits up to {@code timeout} for it. */
    public static LocalInfluxd start(Path directory, Duration timeout) throws IOException, InterruptedException {
        return start(directory, timeout, null);
    }

    /**
     * As {@link #start(Path, Duration)}; with {@code udpDatabase} non-null, influxd's UDP listener
     * too, writing into that database ({@link #udpAddress()}).
     */
    public static LocalInfluxd start(Path directory, Duration timeout, String udpDatabase) throws IOException, InterruptedException {
        Path influxd = binary().orElseThrow(() -> new IOException(
                "influxd is not installed (on Debian: apt-get install influxdb), or give --influx-url of a running server"));
        if (udpDatabase != null) {
            InfluxIngestBackend.checkDatabase(udpDatabase);
        }
        Path dir = Files.createDirectories(directory).toAbsolutePath().normalize();
        int httpPort = freePort();
        int rpcPort = freePort();
        int udpPort = udpDatabase == null ? -1 : freeUdpPort();
        Path config = dir.resolve(CONFIG);
        Files.writeString(config, String.join("\n",
                "reporting-disabled = true",
                "bind-address = \"127.0.0.1:" + rpcPort + "\"",
                "[meta]", "  dir = \"" + dir.resolve("meta") + "\"",
                "[data]", "  dir = \"" + dir.resolve("data") + "\"", "  wal-dir = \"" + dir.resolve("wal") + "\"",
                "  query-log-enabled = false",
                "[http]", "  bind-address = \"127.0.0.1:" + httpPort + "\"", "  log-enabled = false",
                "[monitor]", "  store-enabled = false",
                "[continuous_queries]", "  enabled = false", "")
                + (udpDatabase == null ? "" : String.join("\n",
                "[[udp]]", "  enabled = true", "  bind-address = \"127.0.0.1:" + udpPort + "\"",
                "  database = \"" + udpDatabase + "\"", "  batch-size = " + UDP_BATCH_SIZE,
                "  batch-timeout = \"" + UDP_BATCH_TIMEOUT + "\"", "  read-buffer = " + UDP_READ_BUFFER, "")));
        Path log = dir.resolve("influxd.log");
        Process process = new ProcessBuilder(List.of(influxd.toString(), "run", "-config", config.toString()))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
        ChildProcesses.Watchdog watchdog = ChildProcesses.tieToThisJvm(process.toHandle(), config.toString(), STOP_GRACE);
        LocalInfluxd server = new LocalInfluxd(process, watchdog, httpPort, dir, udpPort);
        try {
            server.awaitPing(timeout, log);
        } catch (IOException | InterruptedException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    private void awaitPing(Duration timeout, Path log) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest ping = HttpRequest.newBuilder(URI.create(url() + "/ping")).timeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("influxd exited at start (code " + process.exitValue() + "): " + lastLine(log));
            }
            try {
                if (http.send(ping, HttpResponse.BodyHandlers.discarding()).statusCode() == 204) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(50);
        }
        throw new IOException("influxd did not answer /ping within " + timeout.toSeconds() + " s: " + lastLine(log));
    }

    private static String lastLine(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1);
        } catch (IOException e) {
            return "(no log)";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static int freeUdpPort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** The UDP listener's address, when the server was started with one. */
    public Optional<InetSocketAddress> udpAddress() {
        return udpPort < 0 ? Optional.empty() : Optional.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), udpPort));
    }

    /** {@code http://127.0.0.1:<port>}. */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public long pid() {
        return process.pid();
    }

    /** The server's directory: metadata, TSM data, write-ahead log (and its small log and configuration). */
    public Path directory() {
        return directory;
    }

    @Override
    public void close() throws IOException {
        try {
            ChildProcesses.terminate(process.toHandle(), STOP_GRACE);
        } finally {
            watchdog.close();
        }
    }
}
