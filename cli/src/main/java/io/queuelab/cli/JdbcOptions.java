package io.queuelab.cli;

import io.queuelab.core.backend.SyncBackend;
import io.queuelab.jdbc.IotIngestBackend;
import io.queuelab.jdbc.JdbcBackend;
import io.queuelab.jdbc.JdbcEnvironment;
import io.queuelab.jdbc.ServerStatusSampler;
import io.queuelab.jdbc.WisconsinRelation;
import io.queuelab.jdbc.Workload;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * picocli mixin for commands that run the JDBC backend ({@code queuelab run --backend jdbc},
 * {@code queuelab demo}): the server ({@link JdbcConnectionOptions}: --jdbc-url, --user,
 * --password-env, --password-file, --embedded-dir, --server-arg), the workload (--operation
 * select|update|mix|range and --table, or --workload FILE); --read-ratio and --request-timeout come from
 * the {@link RequestOptions} its owner declares beside it, the telemetry interval from its owner too.
 *
 * <p>Use:
 * <pre>{@code
 * @Mixin JdbcOptions jdbc;
 * @Mixin RequestOptions request;
 * ...
 * try (jdbc) {                                   // stops the embedded server at the end
 *     JdbcBackend backend = jdbc.openBackend(request);  // starts the embedded DB first when there is no --jdbc-url
 *     ServerStatusSampler telemetry = jdbc.startTelemetry(runDir, Duration.ofSeconds(1));
 *     ... run ... (close the backend, then the telemetry)
 * }
 * }</pre>
 * {@link #environment()} gives the server itself (e.g. for {@code WisconsinLoader} in the demo);
 * it is started once and reused by every later call. All option errors are one-line
 * {@link IllegalArgumentException}s; an unreachable server, a wrong password, an unknown table
 * or a statement that does not prepare are one-line {@link SQLException}s.
 */
public final class JdbcOptions implements AutoCloseable {
    static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

    @Mixin
    JdbcConnectionOptions connection = new JdbcConnectionOptions();

    @Option(names = "--operation", paramLabel = "select|update|mix|range|round-trip|iot-individual|iot-bulk",
            description = "Built-in workload: select (E1: SELECT unique3 WHERE unique2=?), update (seed 004: "
                    + "UPDATE SET unique3=? WHERE unique1=?), mix (with --read-ratio), range (SUM(unique3) over 10,000"
                    + " consecutive unique2), round-trip (SELECT 1: the client's round trip, no table), or seed 002's IoT ingest, one second of sensor data per request (run it with"
                    + " --constant --rate 1): iot-individual (5 rows per datapoint, prepared INSERTs, one transaction) or"
                    + " iot-bulk (one JSON row). Default: select.")
    String operation;

    @Option(names = "--table", paramLabel = "NAME", description = "Wisconsin table of the built-in workloads (default: wisc).")
    String table;

    @Option(names = "--workload", paramLabel = "FILE",
            description = "JSON workload file: named statements with ? parameters, a generator per parameter "
                    + "(uniform(lo, hi), zipfian(n, theta), sequential(lo, hi)) and a weight per statement.")
    Path workloadFile;


    private JdbcEnvironment environment;

    /** The server, started (embedded) or checked on first use and reused afterwards. */
    public synchronized JdbcEnvironment environment() throws IOException {
        if (environment == null) {
            validate();
            environment = connection.open();
        }
        return environment;
    }

    /** The workload the options describe, sized to the loaded table for the built-in ones. */
    public Workload workload(RequestOptions request) throws IOException, SQLException {
        validate();
        Optional<Double> readRatio = request.readRatio();
        if (readRatio.isPresent() && (workloadFile != null || operation == null || !operation.equalsIgnoreCase("mix"))) {
            throw new IllegalArgumentException("--read-ratio needs --operation mix (a --workload file has its own weights)");
        }
        if (workloadFile != null) {
            return Workload.read(workloadFile);
        }
        return environment().wisconsinWorkload(table == null ? WisconsinRelation.DEFAULT_TABLE : table,
                operation == null ? Workload.SELECT : operation.toLowerCase(Locale.ROOT), readRatio.orElse(0.5));
    }

    /** A new backend for the workload, the IoT ingest included; the caller closes it. */
    public SyncBackend open(RequestOptions request, int iotPoints, long seed) throws IOException, SQLException {
        validate();
        if (operation != null && operation.toLowerCase(Locale.ROOT).startsWith("iot-")) {
            if (request.readRatio().isPresent()) {
                throw new IllegalArgumentException("--read-ratio needs --operation mix");
            }
            if (table != null) {
                throw new IllegalArgumentException("--table names a Wisconsin table; the IoT ingest writes its own ("
                        + IotIngestBackend.INDIVIDUAL_TABLE + ", " + IotIngestBackend.BULK_TABLE + ")");
            }
            return IotIngestBackend.open(environment().target(), IotIngestBackend.Mode.parse(operation.substring(4)), iotPoints,
                    seed, request.requestTimeout(DEFAULT_REQUEST_TIMEOUT));
        }
        return openBackend(request);
    }

    /** A new backend for the statement workload; the caller closes it. */
    public JdbcBackend openBackend(RequestOptions request) throws IOException, SQLException {
        Workload workload = workload(request);
        return environment().openBackend(workload, request.requestTimeout(DEFAULT_REQUEST_TIMEOUT));
    }

    /**
     * Starts server telemetry ({@code SHOW GLOBAL STATUS} every {@code interval}) into
     * {@code runDir/}{@value ServerStatusSampler#FILE_NAME}; the caller closes the sampler at the
     * end of the run.
     */
    public ServerStatusSampler startTelemetry(Path runDir, Duration interval) throws IOException, SQLException {
        ServerStatusSampler sampler = new ServerStatusSampler(environment().target());
        sampler.start(runDir.resolve(ServerStatusSampler.FILE_NAME), interval);
        return sampler;
    }

    /** Stops the embedded server if this object started one. */
    @Override
    public synchronized void close() throws IOException {
        if (environment != null) {
            environment.close();
            environment = null;
        }
    }

    private void validate() {
        if (workloadFile != null && (operation != null || table != null)) {
            throw new IllegalArgumentException("--workload replaces --operation and --table; give one or the other");
        }
        if (operation != null && !operation.toLowerCase(Locale.ROOT).matches("select|update|mix|range|round-trip|iot-individual|iot-bulk")) {
            throw new IllegalArgumentException("--operation must be select, update, mix, range, round-trip, iot-individual or iot-bulk, not '"
                    + operation + "'");
        }

    }
}
