package io.queuelab.cassandra;

import io.queuelab.cassandra.node.LocalCassandraCluster;
import io.queuelab.cassandra.workload.CqlWorkload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

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
            Path run = Files.createTempDirectory(dir, "node");
            cluster = LocalCassandraCluster.start(run, LocalCassandraCluster.defaults().withHeap("512M").withFreePorts(),
                    false, Duration.ofSeconds(180));
        }
        return cluster;
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
