package io.queuelab.cli;

import io.queuelab.influx.InfluxIngestBackend;
import io.queuelab.influx.InfluxStatsSampler;
import io.queuelab.influx.LocalInfluxd;
import io.queuelab.core.telemetry.HostResourceSampler;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * picocli mixin of {@code --backend influxdb}: the server at {@code --influx-url}, or else an
 * influxd that the command starts itself in {@code --influxd-dir} (and stops when it ends), whose
 * process and directory host-resource telemetry then samples; {@code --influx-protocol udp} sends
 * the points as datagrams (to {@code --influx-udp-port} of the URL's host, or to the UDP listener
 * the started influxd opens). Closing this stops that server.
 */
public final class InfluxOptions implements AutoCloseable {
    static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    /** InfluxDB 1.x's customary UDP port. */
    static final int DEFAULT_UDP_PORT = 8089;

    @Option(names = "--influx-url", paramLabel = "URL",
            description = "InfluxDB 1.x HTTP endpoint, e.g. http://127.0.0.1:8086. Default: start the machine's influxd in --influxd-dir.")
    String url;

    @Option(names = "--influx-database", paramLabel = "NAME", defaultValue = "queuelab",
            description = "InfluxDB database of the IoT ingest, created if missing (default ${DEFAULT-VALUE}).")
    String database = "queuelab";

    @Option(names = "--influxd-dir", paramLabel = "DIR", defaultValue = "queuelab-influxdb",
            description = "Directory of the influxd that the command starts without --influx-url (default ${DEFAULT-VALUE}).")
    Path directory = Path.of("queuelab-influxdb");

    @Option(names = "--influx-protocol", paramLabel = "http|udp", defaultValue = "http",
            description = "How the line protocol travels: http (default: one acknowledged write a request) or udp (seed 002's: one "
                    + "datagram a point to influxd's UDP listener; a request is ok only once its points are read back, lost points "
                    + "are counted as udp_lost, points that cannot be read back as udp_unknown, and both in the manifest's "
                    + "backend.server.delivery).")
    String protocol = "http";

    @Option(names = "--influx-udp-port", paramLabel = "PORT",
            description = "With --influx-protocol udp and --influx-url: the server's [[udp]] listener port on the URL's host, which "
                    + "must write into --influx-database (default 8089). The influxd the command starts opens its own.")
    Integer udpPort;

    private LocalInfluxd local;

    /** Starts the local server unless --influx-url names one, then opens the ingest backend. */
    InfluxIngestBackend open(RequestOptions request, int points, long seed) throws IOException, InterruptedException {
        boolean udp = udp();
        InfluxIngestBackend.checkDatabase(database);
        if (url == null && local == null) {
            local = LocalInfluxd.start(directory, START_TIMEOUT, udp ? database : null);
        }
        InetSocketAddress udpAddress = !udp ? null : url == null ? local.udpAddress().orElseThrow()
                : new InetSocketAddress(hostOf(url), udpPort == null ? DEFAULT_UDP_PORT : udpPort);
        return InfluxIngestBackend.open(url != null ? url : local.url(), udpAddress, database, points, seed,
                request.requestTimeout(JdbcOptions.DEFAULT_REQUEST_TIMEOUT));
    }

    /** Over UDP a request reads its seconds back: one generator per database, so several nodes are refused. */
    void checkNodeCount(int nodeCount) {
        if (nodeCount > 1 && udp()) {
            throw new IllegalArgumentException("--influx-protocol udp counts its points by reading its seconds back, which several"
                    + " generators writing one measurement would share: run it with --node-count 1 (HTTP is acknowledged per write)");
        }
    }

    private boolean udp() {
        String p = protocol.toLowerCase(Locale.ROOT);
        if (!p.equals("http") && !p.equals("udp")) {
            throw new IllegalArgumentException("--influx-protocol must be http or udp, not '" + protocol + "'");
        }
        if (udpPort != null && !p.equals("udp")) {
            throw new IllegalArgumentException("--influx-udp-port needs --influx-protocol udp");
        }
        if (udpPort != null && url == null) {
            throw new IllegalArgumentException("--influx-udp-port needs --influx-url (the influxd started here opens its own port)");
        }
        if (udpPort != null && (udpPort < 1 || udpPort > 65535)) {
            throw new IllegalArgumentException("--influx-udp-port must be 1 to 65535, not " + udpPort);
        }
        return p.equals("udp");
    }

    private static String hostOf(String url) {
        String host;
        try {
            host = URI.create(url).getHost();
        } catch (IllegalArgumentException e) {
            host = null;
        }
        if (host == null) {
            throw new IllegalArgumentException("--influx-url '" + url + "' names no host for --influx-protocol udp");
        }
        return host;
    }

    /** The server's own statistics ({@code /debug/vars}) into the run directory, on the generator's clock. */
    InfluxStatsSampler startTelemetry(Path runDir, Duration interval) throws IOException {
        return InfluxStatsSampler.start(url != null ? url : local.url(), runDir.resolve(InfluxStatsSampler.FILE_NAME), interval);
    }

    /** The influxd this command started, for host-resource telemetry. */
    List<HostResourceSampler.SampledProcess> serverProcesses() {
        return local == null ? List.of() : List.of(new HostResourceSampler.SampledProcess("server", local.pid(), local.directory()));
    }

    @Override
    public void close() throws IOException {
        if (local != null) {
            local.close();
            local = null;
        }
    }
}
