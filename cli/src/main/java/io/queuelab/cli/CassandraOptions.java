package io.queuelab.cli;

import io.queuelab.cassandra.CqlBackend;
import io.queuelab.cassandra.CqlSettings;
import io.queuelab.cassandra.CqlSyncBackend;
import io.queuelab.cassandra.workload.CqlWorkload;
import io.queuelab.cassandra.workload.Scenario;
import io.queuelab.cassandra.workload.TimeSeriesSpec;
import io.queuelab.cassandra.workload.TimeSeriesWorkload;
import io.queuelab.cassandra.workload.TimeSeriesSpec.IndexTechnique;
import io.queuelab.cassandra.workload.TimeSeriesSpec.Layout;
import io.queuelab.cassandra.workload.WisconsinWorkload;
import io.queuelab.cassandra.node.CassandraNode;
import io.queuelab.cassandra.node.LocalCassandraCluster;
import io.queuelab.core.backend.Backend;
import io.queuelab.core.process.CpuSet;
import io.queuelab.core.telemetry.HostResourceSampler;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The options of a Cassandra run, reusable as a picocli mixin ({@code @Mixin CassandraOptions
 * cassandra;}): where the cluster is, how requests are sent, and which seed-003 workload runs.
 * {@link #openBackend} validates everything and fails with one-line messages. A cluster of
 * {@code queuelab cassandra start} is named by its directory ({@code --cassandra-dir}): its contact
 * points, and its node processes for the placement and the telemetry ({@link #runningNodes}), come
 * from what that directory records, and a directory whose nodes do not run is refused in one line.
 */
public final class CassandraOptions {
    static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(2);
    static final double DEFAULT_READ_RATIO = 0.25;

    static final String DEFAULT_CONTACT_POINTS = "127.0.0.1:9042";
    static final String DEFAULT_DEMO_DIRECTORY = "queuelab-data/cassandra";

    @Option(names = {"--contact-points", "--contact-point"}, paramLabel = "HOST[:PORT],...",
            description = "Cassandra nodes to contact first (default: the nodes of --cassandra-dir, else " + DEFAULT_CONTACT_POINTS + ").")
    String contactPoints;

    @Option(names = "--cassandra-dir", paramLabel = "DIR",
            description = "The directory of a local cluster of 'queuelab cassandra start --dir DIR'. run and sweep contact its nodes, "
                    + "record the cpus the kernel gives them as the server's (the models' c) and their pids, run the generator on "
                    + "the cpus they leave (--cpu-split auto; none shares) and sample the nodes' processes with --telemetry-interval. "
                    + "The demo starts its own node there (the demo's default: " + DEFAULT_DEMO_DIRECTORY + ").")
    Path clusterDirectory;

    /** The cluster of --cassandra-dir, read once. */
    private LocalCassandraCluster cluster;

    @Option(names = "--local-dc", defaultValue = "datacenter1",
            description = "The driver's local datacenter (default: ${DEFAULT-VALUE}).")
    String localDatacenter;

    @Option(names = "--keyspace", defaultValue = "queuelab", description = "Keyspace of the tables (default: ${DEFAULT-VALUE}).")
    String keyspace;

    @Option(names = "--replication-factor", defaultValue = "1",
            description = "SimpleStrategy replication factor when the keyspace is created (default: ${DEFAULT-VALUE}).")
    int replicationFactor;

    @Option(names = "--write-consistency", defaultValue = "QUORUM",
            description = "Consistency level of writes (default: ${DEFAULT-VALUE}).")
    String writeConsistency;

    @Option(names = "--read-consistency", defaultValue = "ONE",
            description = "Consistency level of reads (default: ${DEFAULT-VALUE}).")
    String readConsistency;

    @Option(names = "--pool-size", defaultValue = "1", description = "Connections per node (default: ${DEFAULT-VALUE}).")
    int poolSize;

    @Option(names = "--create-schema", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Create keyspace and tables when missing (default: on; --no-create-schema: they must exist).")
    boolean createSchema;

    @Option(names = "--sync", description = "Synchronous client: worker threads block on each request (default: asynchronous).")
    boolean sync;

    @Option(names = "--schema", defaultValue = "timeseries",
            description = "Workload: timeseries (seed 003) or wisconsin (key-value point reads/updates) (default: ${DEFAULT-VALUE}).")
    String schema;

    @Option(names = "--scenario", defaultValue = "write",
            description = "write, read (range reads; wisconsin: point selects) or mixed (default: ${DEFAULT-VALUE}).")
    String scenario;

    @Option(names = "--layout", defaultValue = "typed",
            description = "typed (one value per cell) or batched (--batch-size values per blob) (default: ${DEFAULT-VALUE}).")
    String layout;

    @Option(names = "--batch-size", defaultValue = "150", description = "Values per blob in the batched layout (default: ${DEFAULT-VALUE}).")
    int batchSize;

    @Option(names = "--index", defaultValue = "same-table",
            description = "same-table (metadata rows), separate-table, none (scan partition keys), or secondary "
                    + "(SAI indexes on sensor and ts, one query per range) (default: ${DEFAULT-VALUE}).")
    String index;

    @Option(names = "--sensors", defaultValue = "4", description = "Number of sensors (default: ${DEFAULT-VALUE}).")
    int sensors;

    @Option(names = "--timewidth", defaultValue = "100000", description = "Values per partition (default: ${DEFAULT-VALUE}).")
    int timewidth;

    @Option(names = "--preload", defaultValue = "30000",
            description = "Values per sensor loaded before the run, which reads check (default: ${DEFAULT-VALUE}).")
    int preload;

    @Option(names = "--range-min", defaultValue = "9000", description = "Shortest range read, in values (default: ${DEFAULT-VALUE}).")
    int rangeMin;

    @Option(names = "--range-max", defaultValue = "10000", description = "Longest range read, in values (default: ${DEFAULT-VALUE}).")
    int rangeMax;

    @Option(names = "--limit", defaultValue = "10000", description = "LIMIT of a range read, in values (default: ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--rows", defaultValue = "100000", description = "Tuples of the wisconsin relation (default: ${DEFAULT-VALUE}).")
    int rows;

    /** Connection and request settings, validated. */
    public CqlSettings settings(RequestOptions request) {
        return new CqlSettings(CqlSettings.parseContactPoints(contactPoints()), localDatacenter, keyspace,
                replicationFactor, CqlSettings.parseConsistency(writeConsistency),
                CqlSettings.parseConsistency(readConsistency), poolSize, request.requestTimeout(DEFAULT_REQUEST_TIMEOUT),
                createSchema);
    }

    /** The contact points: --contact-points, else the nodes of --cassandra-dir, else {@value #DEFAULT_CONTACT_POINTS}. */
    String contactPoints() {
        if (contactPoints != null) {
            return contactPoints;
        }
        return clusterDirectory == null ? DEFAULT_CONTACT_POINTS : cluster().contactPointsOption();
    }

    /**
     * The node processes of --cassandra-dir (node1, node2, ... with their data directories), for
     * the placement and the host-resources telemetry; empty without it. Refuses in one line a
     * directory that records no cluster, or whose recorded nodes do not all run (their pids gone,
     * or taken by another process).
     */
    List<HostResourceSampler.SampledProcess> runningNodes() {
        if (clusterDirectory == null) {
            return List.of();
        }
        LocalCassandraCluster recorded = cluster();
        List<String> stopped = new ArrayList<>();
        for (CassandraNode node : recorded.nodes()) {
            if (node.process().isEmpty()) {
                stopped.add(Integer.toString(node.spec().index()));
            }
        }
        if (stopped.size() == recorded.nodes().size()) {
            throw new IllegalArgumentException("the Cassandra node(s) recorded in " + clusterDirectory + " are not running "
                    + "(queuelab cassandra start --dir " + clusterDirectory + ")");
        }
        if (!stopped.isEmpty()) {
            throw new IllegalArgumentException("node(s) " + String.join(", ", stopped) + " of the Cassandra cluster recorded in "
                    + clusterDirectory + " are not running (queuelab cassandra status --dir " + clusterDirectory + ")");
        }
        return nodeProcesses(recorded);
    }

    /**
     * Where the server's side of the placement comes from, in the manifest: the directory, the
     * nodes' pids (those host-resources.csv samples), and with several nodes how they share the cpus
     * (the server's side is their union, its size the models' c).
     */
    String placementSource(List<HostResourceSampler.SampledProcess> nodes) {
        String where = cluster().directory().toString();
        if (nodes.size() == 1) {
            return "the affinity of the Cassandra node recorded in " + where + " (pid " + nodes.get(0).pid() + ")";
        }
        Map<HostResourceSampler.SampledProcess, String> cpus = new LinkedHashMap<>();
        for (HostResourceSampler.SampledProcess node : nodes) {
            try {
                cpus.put(node, CpuSet.of(node.pid()).toString());
            } catch (java.io.IOException ended) {
                cpus.put(node, "none"); // it ended as the run started
            }
        }
        String together = "the affinity of the " + nodes.size() + " Cassandra nodes recorded in " + where;
        if (new java.util.HashSet<>(cpus.values()).size() == 1) {
            return together + " (pids " + nodes.stream().map(n -> Long.toString(n.pid())).collect(Collectors.joining(", "))
                    + "), which share these cpus";
        }
        return together + " (" + cpus.entrySet().stream().map(e -> e.getKey().role() + " pid " + e.getKey().pid() + " cpus "
                + e.getValue()).collect(Collectors.joining(", ")) + ")";
    }

    /** The running nodes of {@code cluster} as host-resources telemetry names them; a node that is not running is left out. */
    static List<HostResourceSampler.SampledProcess> nodeProcesses(LocalCassandraCluster cluster) {
        List<HostResourceSampler.SampledProcess> nodes = new ArrayList<>();
        for (CassandraNode node : cluster.nodes()) {
            node.process().ifPresent(p -> nodes.add(new HostResourceSampler.SampledProcess(
                    "node" + node.spec().index(), p.pid(), node.spec().directory().resolve("data"))));
        }
        return nodes;
    }

    private LocalCassandraCluster cluster() {
        if (cluster == null) {
            try {
                cluster = LocalCassandraCluster.open(clusterDirectory);
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("--cassandra-dir: " + e.getMessage() + "; queuelab cassandra start --dir DIR records one");
            }
        }
        return cluster;
    }

    /** The workload the options describe, validated. */
    public CqlWorkload workload(RequestOptions request) {
        double readRatio = request.readRatio().orElse(DEFAULT_READ_RATIO);
        Scenario run = choice("--scenario", scenario, Map.of("write", Scenario.WRITE, "read", Scenario.READ,
                "mixed", Scenario.MIXED));
        String kind = choice("--schema", schema, Map.of("timeseries", "timeseries", "wisconsin", "wisconsin"));
        if (kind.equals("wisconsin")) {
            return new WisconsinWorkload(rows, run, readRatio);
        }
        Layout cells = choice("--layout", layout, Map.of("typed", Layout.TYPED, "batched", Layout.BATCHED));
        IndexTechnique technique = choice("--index", index, Map.of("same-table", IndexTechnique.SAME_TABLE,
                "separate-table", IndexTechnique.SEPARATE_TABLE, "none", IndexTechnique.NONE,
                "secondary", IndexTechnique.SECONDARY));
        return new TimeSeriesWorkload(new TimeSeriesSpec(cells,
                cells == Layout.TYPED ? 1 : batchSize, technique, run, readRatio, sensors, timewidth, preload,
                rangeMin, rangeMax, limit));
    }

    /** True when {@code --sync} asks for the blocking client. */
    public boolean synchronous() {
        return sync;
    }

    /**
     * Connects, creates the schema if asked, loads the workload's data once and returns the backend:
     * a {@link CqlSyncBackend} with {@code --sync}, otherwise a {@link CqlBackend}.
     */
    public Backend openBackend(RequestOptions request) throws Exception {
        CqlSettings settings = settings(request);
        CqlWorkload workload = workload(request);
        return sync ? CqlSyncBackend.open(settings, workload) : CqlBackend.open(settings, workload);
    }

    private static <T> T choice(String option, String value, Map<String, T> choices) {
        T chosen = choices.get(value.trim().toLowerCase(Locale.ROOT));
        if (chosen == null) {
            throw new IllegalArgumentException(option + " must be one of "
                    + Arrays.stream(choices.keySet().toArray(String[]::new)).sorted().collect(Collectors.joining(", "))
                    + ", was '" + value + "'");
        }
        return chosen;
    }
}
