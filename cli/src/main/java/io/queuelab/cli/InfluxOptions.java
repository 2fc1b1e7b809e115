package io.queuelab.cli;

import io.queuelab.influx.InfluxIngestBackend;
import io.queuelab.influx.InfluxStatsSampler;
import io.queuelab.influx.LocalInfluxd;
import io.queuelab.core.telemetry.HostResourceSampler;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * picocli mixin of {@code --backend influxdb}: the server at {@code --influx-url}, or else an
 * influxd that the command starts itself in {@code --influxd-dir} (and stops when it ends), whose
 * process and directory host-resource telemetry then samples. Closing this stops that server.
 */
public final class InfluxOptions implements AutoCloseable {
    static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    @Option(names = "--influx-url", paramLabel = "URL",
            description = "InfluxDB 1.x HTTP endpoint, e.g. http://127.0.0.1:8086. Default: start the machine's influxd in --influxd-dir.")
    String url;

    @Option(names = "--influx-database", paramLabel = "NAME", defaultValue = "queuelab",
            description = "InfluxDB database of the IoT ingest, created if missing (default ${DEFAULT-VALUE}).")
    String database = "queuelab";

    @Option(names = "--influxd-dir", paramLabel = "DIR", defaultValue = "queuelab-influxdb",
            description = "Directory of the influxd that the command starts without --influx-url (default ${DEFAULT-VALUE}).")
    Path directory = Path.of("queuelab-influxdb");

    private LocalInfluxd local;

    /** Starts the local server unless --influx-url names one, then opens the ingest backend. */
    InfluxIngestBackend open(RequestOptions request, int points, long seed) throws IOException, InterruptedException {
        if (url == null && local == null) {
            local = LocalInfluxd.start(directory, START_TIMEOUT);
        }
        return InfluxIngestBackend.open(url != null ? url : local.url(), database, points, seed,
                request.requestTimeout(JdbcOptions.DEFAULT_REQUEST_TIMEOUT));
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
