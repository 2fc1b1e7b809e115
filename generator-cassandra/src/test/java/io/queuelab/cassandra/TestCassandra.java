package io.queuelab.cassandra;

import io.queuelab.cassandra.node.LocalCassandraCluster;
import io.queuelab.cassandra.workload.CqlWorkload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The one real Cassandra node all tests of this module share: started on first use (512M heap, free
 * ports, under target/), stopped when the test JVM exits.
 */
final class TestCassandra {
    private static LocalCassandraCluster cluster;

    private TestCassandra() {
    }

    static synchronized LocalCassandraCluster cluster() throws Exception {
        if (cluster == null) {
            Path dir = Path.of("target", "cassandra-test").toAbsolutePath();
            Files.createDirectories(dir);
            removeEarlierNodes(dir);
            Path run = Files.createTempDirectory(dir, "node");
            cluster = LocalCassandraCluster.start(run, LocalCassandraCluster.defaults().withHeap("512M").withFreePorts(),
                    false, Duration.ofSeconds(180));
        }
        return cluster;
    }

    /**
     * The node directories of earlier test JVMs (hundreds of MB each): a node still running from
     * one (its JVM killed before its watchdog acted) is stopped by its recorded pid, then the
     * directory is deleted.
     */
    private static void removeEarlierNodes(Path dir) throws IOException {
        try (Stream<Path> earlier = Files.list(dir)) {
            for (Path node : earlier.filter(Files::isDirectory).toList()) {
                if (Files.exists(node.resolve("cluster.properties"))) {
                    LocalCassandraCluster.open(node).stop();
                }
                try (Stream<Path> files = Files.walk(node)) {
                    for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(f);
                    }
                }
            }
        }
    }

    /** Settings for the test node: RF 1, writes QUORUM, reads ONE, a generous timeout for a loaded machine. */
    static CqlSettings settings(String keyspace) throws Exception {
        return CqlSettings.local()
                .withContactPoints(cluster().contactPoints())
                .withKeyspace(keyspace, 1)
                .withRequestTimeout(Duration.ofSeconds(10));
    }

    static CqlBackend asyncBackend(String keyspace, CqlWorkload workload) throws Exception {
        return CqlBackend.open(settings(keyspace), workload);
    }
}
