package io.queuelab.cli;

import io.queuelab.core.backend.Backend;
import io.queuelab.core.inprocess.MM1Backend;
import io.queuelab.core.inprocess.NoopBackend;
import io.queuelab.core.run.RunCompanion;
import io.queuelab.cassandra.ThreadPoolSampler;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.time.Duration;

/**
 * Which backend a run drives, and that backend's own options. {@code jdbc} (the default) is
 * MariaDB/MySQL, an embedded MariaDB unless {@code --jdbc-url} names a server; {@code cassandra}
 * is a CQL cluster at {@code --contact-points} ({@code queuelab cassandra start} runs one). In-process backends
 * test the instrument itself: {@code noop} completes at once (the generator's own cost),
 * {@code mm1} is an emulated M/M/1 server with service rate {@code --mu}; each has an
 * {@code -async} variant. Closing this stops whatever server it started.
 */
public final class BackendOptions implements AutoCloseable {
    static final List<String> NAMES = List.of("jdbc", "cassandra", "noop", "noop-async", "mm1", "mm1-async");

    @Option(names = "--backend", defaultValue = "jdbc",
            description = "System under test: jdbc (MariaDB/MySQL), cassandra (CQL; --sync for blocking workers), noop, noop-async, mm1, mm1-async (default ${DEFAULT-VALUE}).")
    String backend;

    @Option(names = "--mu", defaultValue = "200", description = "Service rate per second of the mm1 backends (default ${DEFAULT-VALUE}).")
    double mu;

    @Mixin
    JdbcOptions jdbc = new JdbcOptions();

    @Mixin
    CassandraOptions cassandra = new CassandraOptions();

    @Mixin
    RequestOptions request = new RequestOptions();

    @Option(names = "--telemetry-interval", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Sample the server into the run directory at this interval, e.g. 1s: jdbc SHOW GLOBAL STATUS "
                    + "(server-status.csv), cassandra every node's thread pools, flushes and compactions among them "
                    + "(cassandra-thread-pools.csv). Default: off.")
    Duration telemetryInterval;

    /** Opens the chosen backend; the caller closes it (and then this). */
    /** The workers a run on this backend gets unless {@code --workers} says otherwise. */
    int defaultWorkers() {
        return backend.equals("noop") ? 1 : GeneratorOptions.SERVER_WORKERS;
    }

    public Backend open(long seed) throws Exception {
        return switch (backend) {
            case "jdbc" -> jdbc.openBackend(request);
            case "cassandra" -> cassandra.openBackend(request);
            case "noop" -> NoopBackend.sync();
            case "noop-async" -> NoopBackend.async();
            case "mm1" -> MM1Backend.sync(mu, seed);
            case "mm1-async" -> MM1Backend.async(mu, seed);
            default -> throw new IllegalArgumentException("unknown backend '" + backend + "' (known: " + String.join(", ", NAMES) + ")");
        };
    }

    /** What runs beside the load: server telemetry, when --telemetry-interval asks for it. */
    public RunCompanion companion() {
        if (telemetryInterval != null && (telemetryInterval.isNegative() || telemetryInterval.isZero())) {
            throw new IllegalArgumentException("--telemetry-interval must be positive");
        }
        if (telemetryInterval == null) {
            return RunCompanion.NONE;
        }
        return switch (backend) {
            case "jdbc" -> dir -> jdbc.startTelemetry(dir, telemetryInterval);
            case "cassandra" -> dir -> ThreadPoolSampler.start(cassandra.settings(request),
                    dir.resolve(ThreadPoolSampler.FILE_NAME), telemetryInterval);
            default -> RunCompanion.NONE;
        };
    }

    Map<String, Object> settings() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("backend", backend);
        if (backend.startsWith("mm1")) {
            m.put("mu", mu);
        }
        return m;
    }

    @Override
    public void close() throws Exception {
        jdbc.close();
    }
}
