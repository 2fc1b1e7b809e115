package io.queuelab.cli;

import io.queuelab.core.backend.Backend;
import io.queuelab.core.inprocess.MM1Backend;
import io.queuelab.core.inprocess.NoopBackend;
import io.queuelab.core.manifest.Placement;
import io.queuelab.core.run.RunCompanion;
import io.queuelab.core.telemetry.CpuSpeedProbe;
import io.queuelab.core.telemetry.HostResourceSampler;
import io.queuelab.core.telemetry.NodeTelemetry;
import io.queuelab.cassandra.ThreadPoolSampler;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.time.Duration;

/**
 * Which backend a run drives, and that backend's own options. {@code jdbc} (the default) is
 * MariaDB/MySQL, an embedded MariaDB unless {@code --jdbc-url} names a server; {@code cassandra}
 * is a CQL cluster at {@code --contact-points}, or the local one of {@code queuelab cassandra start}
 * named by {@code --cassandra-dir}, whose nodes are then the server of the placement and the telemetry. In-process backends
 * test the instrument itself: {@code noop} completes at once (the generator's own cost),
 * {@code mm1} is an emulated M/M/1 server with service rate {@code --mu}; each has an
 * {@code -async} variant. Closing this stops whatever server it started.
 */
public final class BackendOptions implements AutoCloseable {
    static final List<String> NAMES = List.of("jdbc", "cassandra", "influxdb", "noop", "noop-async", "mm1", "mm1-async");

    @Option(names = "--backend", defaultValue = "jdbc",
            description = "System under test: jdbc (MariaDB/MySQL), cassandra (CQL; --sync for blocking workers), influxdb "
                    + "(seed 002's line-protocol ingest), noop, noop-async, mm1, mm1-async (default ${DEFAULT-VALUE}).")
    String backend;

    @Option(names = "--iot-points", paramLabel = "N", defaultValue = "1000",
            description = "Datapoints (of 5 values) per IoT ingest request (--operation iot-*, --backend influxdb), i.e. per "
                    + "second at --constant --rate 1 (default ${DEFAULT-VALUE}).")
    int iotPoints = 1000;

    @Mixin
    InfluxOptions influx = new InfluxOptions();

    @Option(names = "--mu", defaultValue = "200", description = "Service rate per second of the mm1 backends (default ${DEFAULT-VALUE}).")
    double mu;

    @Mixin
    JdbcOptions jdbc = new JdbcOptions();

    @Mixin
    CassandraOptions cassandra = new CassandraOptions();

    @Mixin
    RequestOptions request = new RequestOptions();

    @Mixin
    CpuSplitOptions cpus = new CpuSplitOptions();

    @Option(names = "--telemetry-interval", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Sample the server into the run directory at this interval, e.g. 1s: jdbc SHOW GLOBAL STATUS "
                    + "(server-status.csv), cassandra every node's thread pools, flushes and compactions among them "
                    + "(cassandra-thread-pools.csv), influxdb its /debug/vars (influxdb-stats.csv); and for every backend the host "
                    + "resources of the client, of its host and of a local server (host-resources.csv: CPU, RSS, disk bytes, "
                    + "network bytes, data-directory size). With --node-count k every node samples its own client and host, and "
                    + "node 0 alone samples the server. Default: off.")
    Duration telemetryInterval;

    @Option(names = "--server-pid", paramLabel = "PID",
            description = "A local server process to sample into host-resources.csv besides the embedded MariaDB "
                    + "(e.g. the machine's mariadbd; the nodes of 'queuelab cassandra start' are named by --cassandra-dir); "
                    + "with --node-count, node 0's "
                    + "(the other nodes ignore it).")
    Long serverPid;

    @Option(names = "--server-data-dir", paramLabel = "DIR",
            description = "The data directory of --server-pid, whose size host-resources.csv records.")
    Path serverDataDir;

    /** The running nodes of --cassandra-dir, read by {@link #open}: servers queuelab started earlier, placed beside. */
    private List<HostResourceSampler.SampledProcess> cassandraNodes = List.of();

    /** The workers a run on this backend gets unless {@code --workers} says otherwise. */
    int defaultWorkers() {
        return backend.equals("noop") ? 1 : GeneratorOptions.SERVER_WORKERS;
    }

    /** Opens the chosen backend; the caller closes it (and then this). */
    public Backend open(long seed) throws Exception {
        cpus.validate();
        checkCassandraDirectory();
        return switch (backend) {
            case "jdbc" -> jdbc.open(request, checkedIotPoints(), seed);
            case "influxdb" -> influx.open(request, checkedIotPoints(), seed);
            case "cassandra" -> cassandra.openBackend(request);
            case "noop" -> NoopBackend.sync();
            case "noop-async" -> NoopBackend.async();
            case "mm1" -> MM1Backend.sync(mu, seed);
            case "mm1-async" -> MM1Backend.async(mu, seed);
            default -> throw new IllegalArgumentException("unknown backend '" + backend + "' (known: " + String.join(", ", NAMES) + ")");
        };
    }

    /**
     * Reads the nodes of --cassandra-dir before anything connects, and refuses in one line what
     * cannot go with them: another backend, a split of cpus that are not this command's to choose
     * (cassandra start placed the nodes), --server-pid (the directory names the server's processes),
     * a directory whose nodes do not run.
     */
    private void checkCassandraDirectory() {
        if (cassandra.clusterDirectory == null) {
            return;
        }
        if (!backend.equals("cassandra")) {
            throw new IllegalArgumentException("--cassandra-dir names a Cassandra cluster: it goes with --backend cassandra");
        }
        cpus.validateBeside("the nodes of --cassandra-dir");
        if (serverPid != null) {
            throw new IllegalArgumentException("--server-pid names a server of your own; --cassandra-dir already names the nodes, "
                    + "whose pids are sampled");
        }
        cassandraNodes = cassandra.runningNodes();
    }

    /**
     * Refuses a server this jar cannot start (the embedded MariaDB is in the full jar only), before
     * anything is created: with --print-plan too, so that scripts/distributed-run's check of the run
     * options on the node jar says so before the jar is shipped.
     */
    void checkServerPackaged() {
        if (backend.equals("jdbc")) {
            jdbc.connection.checkEmbeddedPackaged();
        }
    }

    /** Refuses a backend that cannot share its server with other generator nodes of one run. */
    void checkNodeCount(int nodeCount) {
        if (backend.equals("influxdb")) {
            influx.checkNodeCount(nodeCount);
        }
    }

    private int checkedIotPoints() {
        if (iotPoints < 1 || iotPoints > 1_000_000) {
            throw new IllegalArgumentException("--iot-points must be 1 to 1,000,000, not " + iotPoints);
        }
        return iotPoints;
    }

    /**
     * Refuses, in one line naming the option, a --telemetry-interval, --server-pid or
     * --server-data-dir that node {@code nodeIndex} could not sample: called before {@link #open}
     * starts a server (and again by {@link #companion(int)}).
     */
    void checkTelemetry(int nodeIndex) {
        if (telemetryInterval != null && (telemetryInterval.isNegative() || telemetryInterval.isZero())) {
            throw new IllegalArgumentException("--telemetry-interval must be positive");
        }
        if (serverDataDir != null && serverPid == null) {
            throw new IllegalArgumentException("--server-data-dir needs --server-pid");
        }
        if (serverPid != null && telemetryInterval == null) {
            throw new IllegalArgumentException("--server-pid needs --telemetry-interval");
        }
        if (serverPid != null && NodeTelemetry.samplesServer(nodeIndex) && ProcessHandle.of(serverPid).isEmpty()) {
            throw new IllegalArgumentException("--server-pid " + serverPid + ": no such process (give the pid of the running server, "
                    + "e.g. pgrep -o mariadbd)");
        }
    }

    /** {@link #companion(int)} of a single generator (node 0, which samples the server too). */
    public RunCompanion companion() {
        return companion(NodeTelemetry.SERVER_NODE);
    }

    /**
     * What runs beside the load of node {@code nodeIndex}, when --telemetry-interval asks for it:
     * the host resources of this node's client and host, and on node {@value NodeTelemetry#SERVER_NODE}
     * only the server's own counters and its local processes ({@link NodeTelemetry}); the other
     * nodes leave --server-pid and --server-data-dir alone (the pid is node 0's machine's). Without
     * it, node 0 still times the speed of the server's own cpus ({@link CpuSpeedProbe}).
     */
    public RunCompanion companion(int nodeIndex) {
        checkTelemetry(nodeIndex);
        if (telemetryInterval == null) {
            // the server cpus' speed is part of what a run measures, sampled or not (HostResourceSampler adds it otherwise)
            return NodeTelemetry.samplesServer(nodeIndex) ? CpuSpeedProbe.companion(this::serverProcesses) : RunCompanion.NONE;
        }
        return NodeTelemetry.companion(nodeIndex, serverCounters(), this::serverProcesses, telemetryInterval);
    }

    /**
     * Splits the CPUs between the server this command started (if any) and the generator
     * ({@link CpuSplitOptions}); call once the backend is open. {@code statedCores} are the cores
     * of a server queuelab did not start ({@code --server-cores}), or null. Returns what the runs record.
     */
    public Placement place(Integer statedCores, java.io.PrintWriter err) {
        if (!cassandraNodes.isEmpty()) {
            if (statedCores != null) {
                throw new IllegalArgumentException("--server-cores states the cores of a server queuelab does not know; the nodes of "
                        + "--cassandra-dir have theirs from the kernel");
            }
            return cpus.applyBeside(cassandraNodes, cassandra.placementSource(cassandraNodes), err);
        }
        return cpus.apply(startedServers(), serverPid == null ? List.of()
                : List.of(new HostResourceSampler.SampledProcess("server", serverPid, serverDataDir)), statedCores, err);
    }

    /** The servers this command started: the embedded MariaDB, a local influxd. */
    private List<HostResourceSampler.SampledProcess> startedServers() {
        List<HostResourceSampler.SampledProcess> servers = new ArrayList<>();
        if (backend.equals("jdbc")) {
            try {
                servers.addAll(jdbc.environment().serverProcesses());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        if (backend.equals("influxdb")) {
            servers.addAll(influx.serverProcesses());
        }
        return servers;
    }

    /** The local server processes whose resources are sampled: those this command started, the nodes of --cassandra-dir, --server-pid. */
    List<HostResourceSampler.SampledProcess> serverProcesses() {
        List<HostResourceSampler.SampledProcess> servers = startedServers();
        servers.addAll(cassandraNodes);
        if (serverPid != null) {
            servers.add(new HostResourceSampler.SampledProcess(servers.isEmpty() ? "server" : "server2", serverPid, serverDataDir));
        }
        return servers;
    }

    private RunCompanion serverCounters() {
        return switch (backend) {
            case "jdbc" -> dir -> jdbc.startTelemetry(dir, telemetryInterval);
            case "cassandra" -> dir -> ThreadPoolSampler.start(cassandra.settings(request),
                    dir.resolve(ThreadPoolSampler.FILE_NAME), telemetryInterval);
            case "influxdb" -> dir -> influx.startTelemetry(dir, telemetryInterval);
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
        try (InfluxOptions startedInflux = influx) {
            jdbc.close();
        } finally {
            cpus.restore();
        }
    }
}
