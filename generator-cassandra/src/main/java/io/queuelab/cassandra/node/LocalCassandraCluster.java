package io.queuelab.cassandra.node;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * One to k real Cassandra nodes on 127.0.0.1..127.0.0.k, sharing one directory
 * ({@code <dir>/cluster.properties} and {@code <dir>/node-<i>/}). {@link #start} starts the nodes one
 * after another (Cassandra joins one node at a time) and returns when every node answers CQL.
 * {@link #open} reattaches to a directory written earlier (the CLI's {@code status} and
 * {@code stop} run in later processes). {@link #close} stops exactly the nodes of this directory.
 */
public final class LocalCassandraCluster implements AutoCloseable {
    private static final String STATE_FILE = "cluster.properties";

    private final Path directory;
    private final Settings settings;
    private final List<CassandraNode> nodes;
    private boolean detached = true;

    /** How the cluster is laid out; see {@link #defaults(Path)}. */
    public record Settings(int nodes, String heap, int nativePort, int storagePort, int jmxPortBase,
                           String clusterName, String version) {
        public Settings {
            if (nodes < 1 || nodes > 9) {
                throw new IllegalArgumentException("--nodes must be 1..9, was " + nodes);
            }
        }

        public Settings withNodes(int n) {
            return new Settings(n, heap, nativePort, storagePort, jmxPortBase, clusterName, version);
        }

        public Settings withHeap(String h) {
            return new Settings(nodes, h, nativePort, storagePort, jmxPortBase, clusterName, version);
        }

        /** Ports chosen by the operating system as free right now (for tests beside a user's cluster). */
        public Settings withFreePorts() throws IOException {
            return new Settings(nodes, heap, freePort(), freePort(), freePort(), clusterName, version);
        }
    }

    /** One node, 512M heap, the standard ports (CQL 9042, storage 7000, JMX 7199+), the pinned release. */
    public static Settings defaults() {
        return new Settings(1, "512M", 9042, 7000, 7199, "queuelab", CassandraClasspath.defaultVersion());
    }

    private LocalCassandraCluster(Path directory, Settings settings) {
        this.directory = directory.toAbsolutePath().normalize();
        this.settings = settings;
        List<CassandraNode> list = new ArrayList<>();
        String seed = "127.0.0.1:" + settings.storagePort();
        for (int i = 1; i <= settings.nodes(); i++) {
            list.add(new CassandraNode(new NodeSpec(i, settings.clusterName(), seed, settings.nativePort(),
                    settings.storagePort(), settings.jmxPortBase() + i - 1, settings.heap(),
                    this.directory.resolve("node-" + i))));
        }
        this.nodes = List.copyOf(list);
    }

    /**
     * Starts every node and waits until each answers CQL. On failure, the nodes started so far are
     * stopped again before the exception propagates.
     *
     * @param detached true: the nodes outlive this JVM; false: they stop when it exits
     */
    public static LocalCassandraCluster start(Path directory, Settings settings, boolean detached,
                                              Duration startTimeoutPerNode) throws IOException, InterruptedException {
        LocalCassandraCluster cluster = new LocalCassandraCluster(directory, settings);
        cluster.detached = detached;
        Files.createDirectories(cluster.directory);
        for (CassandraNode node : cluster.nodes) {
            if (node.process().isPresent()) {
                throw new IllegalStateException("a Cassandra node already runs from " + cluster.directory
                        + " (pid " + node.process().get().pid() + "); stop it first");
            }
        }
        cluster.writeState();
        CassandraClasspath classpath = cluster.classpath();
        try {
            for (CassandraNode node : cluster.nodes) {
                node.start(classpath, detached);
                node.awaitCql(startTimeoutPerNode);
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /**
     * Starts node {@code index} again (after {@link CassandraNode#stop}) with its data, and waits until
     * it answers CQL. It is detached or not as the cluster was started.
     */
    public void restart(int index, Duration timeout) throws IOException, InterruptedException {
        CassandraNode node = node(index);
        node.start(classpath(), detached);
        node.awaitCql(timeout);
    }

    private CassandraClasspath classpath() throws IOException {
        return CassandraClasspath.resolve(settings.version());
    }

    /** Reattaches to the cluster recorded in {@code directory} (it need not be running). */
    public static LocalCassandraCluster open(Path directory) throws IOException {
        Path state = directory.resolve(STATE_FILE);
        if (!Files.exists(state)) {
            throw new IOException("no Cassandra cluster recorded in " + directory.toAbsolutePath()
                    + " (no " + STATE_FILE + ")");
        }
        Properties p = new Properties();
        try (Reader reader = Files.newBufferedReader(state)) {
            p.load(reader);
        }
        Settings settings = new Settings(Integer.parseInt(p.getProperty("nodes")), p.getProperty("heap"),
                Integer.parseInt(p.getProperty("native_port")), Integer.parseInt(p.getProperty("storage_port")),
                Integer.parseInt(p.getProperty("jmx_port_base")), p.getProperty("cluster_name"),
                p.getProperty("version"));
        return new LocalCassandraCluster(directory, settings);
    }

    public Path directory() {
        return directory;
    }

    public Settings settings() {
        return settings;
    }

    public List<CassandraNode> nodes() {
        return nodes;
    }

    public CassandraNode node(int index) {
        return nodes.get(index - 1);
    }

    /** The CQL addresses of all nodes, for the driver. */
    public List<InetSocketAddress> contactPoints() {
        return nodes.stream().map(node -> node.spec().cqlAddress()).toList();
    }

    /** The contact points as {@code --contact-points} takes them: host:port,host:port. */
    public String contactPointsOption() {
        return nodes.stream().map(node -> node.spec().address() + ":" + node.spec().nativePort())
                .collect(Collectors.joining(","));
    }

    /** One line per node: address, pid, the cpus the kernel lets it run on, and whether CQL answers. */
    public List<String> status() {
        List<String> lines = new ArrayList<>();
        for (CassandraNode node : nodes) {
            String where = "node " + node.spec().index() + " " + node.spec().address() + ":" + node.spec().nativePort();
            lines.add(node.process()
                    .map(handle -> where + " pid " + handle.pid() + cpus(handle.pid())
                            + (node.portAnswers() ? " up (CQL answers)" : " starting"))
                    .orElse(where + " stopped"));
        }
        return lines;
    }

    private static String cpus(long pid) {
        try {
            return " cpus " + io.queuelab.core.process.CpuSet.of(pid);
        } catch (IOException gone) {
            return ""; // ended between the two reads: the next status says stopped
        }
    }

    /** Stops every node of this directory that runs; returns how many were stopped. */
    public int stop() {
        int stopped = 0;
        for (int i = nodes.size() - 1; i >= 0; i--) {
            if (nodes.get(i).stop(Duration.ofSeconds(30))) {
                stopped++;
            }
        }
        return stopped;
    }

    @Override
    public void close() {
        stop();
    }

    private void writeState() throws IOException {
        Properties p = new Properties();
        p.setProperty("nodes", Integer.toString(settings.nodes()));
        p.setProperty("heap", settings.heap());
        p.setProperty("native_port", Integer.toString(settings.nativePort()));
        p.setProperty("storage_port", Integer.toString(settings.storagePort()));
        p.setProperty("jmx_port_base", Integer.toString(settings.jmxPortBase()));
        p.setProperty("cluster_name", settings.clusterName());
        p.setProperty("version", settings.version());
        try (Writer writer = Files.newBufferedWriter(directory.resolve(STATE_FILE))) {
            p.store(writer, "queuelab local Cassandra cluster");
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
