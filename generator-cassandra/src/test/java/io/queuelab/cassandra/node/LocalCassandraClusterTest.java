package io.queuelab.cassandra.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The launcher's bookkeeping: reattaching, refusing a second start, never stopping a foreign process. */
class LocalCassandraClusterTest {

    @Test
    void aRunningClusterIsFoundAgainFromItsDirectory() throws Exception {
        LocalCassandraCluster running = io.queuelab.cassandra.TestCassandraAccess.cluster();
        LocalCassandraCluster reopened = LocalCassandraCluster.open(running.directory());
        assertEquals(running.settings(), reopened.settings());
        String status = reopened.status().get(0);
        long pid = reopened.node(1).process().orElseThrow().pid();
        // the cpus are the kernel's affinity list of the node's process
        assertEquals("node 1 " + reopened.node(1).spec().address() + ":" + reopened.node(1).spec().nativePort() + " pid " + pid
                + " cpus " + io.queuelab.core.process.CpuSet.of(pid) + " up (CQL answers)", status);
        assertEquals(running.node(1).process().orElseThrow().pid(), reopened.node(1).process().orElseThrow().pid());
        assertTrue(reopened.node(1).releaseVersion().orElseThrow().startsWith("5.0."));
        IllegalStateException twice = assertThrows(IllegalStateException.class, () -> LocalCassandraCluster.start(
                running.directory(), running.settings(), false, Duration.ofSeconds(10)));
        assertTrue(twice.getMessage().startsWith("a Cassandra node already runs from"), twice.getMessage());
    }

    @Test
    void aDirectoryWithoutAClusterIsReported(@TempDir Path empty) {
        IOException missing = assertThrows(IOException.class, () -> LocalCassandraCluster.open(empty));
        assertTrue(missing.getMessage().startsWith("no Cassandra cluster recorded in"), missing.getMessage());
    }

    @Test
    void aRecordedPidOfAnotherProgramIsNeverStopped(@TempDir Path dir) throws Exception {
        Process sleeper = new ProcessBuilder("sleep", "60").start();
        try {
            NodeSpec spec = new NodeSpec(1, "queuelab", "127.0.0.1:7000", 9042, 7000, 7199, "512M", dir.resolve("node-1"));
            Files.createDirectories(spec.directory());
            Files.writeString(spec.pidFile(), Long.toString(sleeper.pid()));
            CassandraNode node = new CassandraNode(spec);
            assertTrue(node.process().isEmpty(), "a pid whose command line is not this node's is not the node");
            assertFalse(node.stop(Duration.ofSeconds(1)));
            assertFalse(sleeper.waitFor(500, TimeUnit.MILLISECONDS), "the foreign process still runs");
        } finally {
            sleeper.destroyForcibly();
        }
    }

    @Test
    void badSettingsAreRejected(@TempDir Path dir) {
        assertThrows(IllegalArgumentException.class, () -> LocalCassandraCluster.defaults().withNodes(0));
        assertThrows(IllegalArgumentException.class, () -> new NodeSpec(1, "c", "s", 9042, 7000, 7199, "lots", dir));
        assertThrows(IllegalArgumentException.class, () -> new NodeSpec(255, "c", "s", 9042, 7000, 7199, "1G", dir));
    }
}
