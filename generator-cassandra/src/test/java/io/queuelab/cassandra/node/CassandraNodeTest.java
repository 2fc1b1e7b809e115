package io.queuelab.cassandra.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node's process as {@link CassandraNode} tracks it, with stand-ins for the Cassandra JVM (a real
 * start takes most of a minute; {@code LocalCassandraClusterTest} and the CLI tests start real ones).
 */
@Timeout(60)
class CassandraNodeTest {
    @TempDir
    Path dir;

    /** A port nothing answers on: the stand-ins never speak CQL. */
    private NodeSpec spec() throws IOException {
        NodeSpec spec = new NodeSpec(1, "queuelab", "127.0.0.1:7000", 1, 7000, 7199, "512M", dir.resolve("node-1"));
        Files.createDirectories(spec.logDirectory());
        return spec;
    }

    /**
     * Issue 43: right after start the child's command line may not name the node's config yet (the
     * JDK's spawn helper, setsid, or a process mid-exec, whose /proc/PID/cmdline reads empty). The
     * stand-in's command line names it only after a second, when it execs into one that does.
     * Before: process() was empty at once, and awaitCql said "exited during start-up" of a live node.
     */
    @Test
    void theStartedProcessIsTheNodeBeforeItsCommandLineNamesTheConfig() throws Exception {
        NodeSpec spec = spec();
        String marker = spec.configFile().toUri().toString();
        assertEquals("file://" + spec.configFile(), marker);
        CassandraNode node = new CassandraNode(spec);
        // the marker is put together only by the exec'd shell: the first one's arguments hold its halves
        node.launch(List.of("/bin/sh", "-c", "sleep 1; exec /bin/sh -c 'sleep 30' stand-in \"-Dcassandra.config=$0$1\"",
                "file://", spec.configFile().toString()), false);
        try {
            long pid = node.process().orElseThrow(() -> new AssertionError("a live node taken for a dead one")).pid();
            assertEquals(Long.parseLong(Files.readString(spec.pidFile()).trim()), pid);
            Thread.sleep(1500);
            assertEquals(pid, node.process().orElseThrow().pid(), "still the node once its command line names the config");
            // another process of this machine (the CLI's stop, say) finds it by its pid file and command line
            assertEquals(pid, new CassandraNode(spec).process().orElseThrow().pid());
            assertTrue(node.stop(Duration.ofSeconds(5)));
        } finally {
            ProcessHandle.of(Long.parseLong(Files.readString(spec.pidFile()).trim())).ifPresent(ProcessHandle::destroyForcibly);
        }
        assertTrue(node.process().isEmpty(), "stopped");
        assertTrue(new CassandraNode(spec).process().isEmpty());
    }

    /**
     * A JVM that dies before Cassandra logs anything says why on its stdout only. Before: "exited
     * during start-up: (no output in .../system.log)", without the reason.
     */
    @Test
    void aNodeThatDiesBeforeLoggingSaysWhyFromItsOutput() throws Exception {
        NodeSpec spec = spec();
        CassandraNode node = new CassandraNode(spec);
        node.launch(List.of("/bin/sh", "-c", "echo 'Error occurred during initialization of VM'; "
                + "echo 'Could not reserve enough space for object heap'; exit 1"), false);
        IOException e = assertThrows(IOException.class, () -> node.awaitCql(Duration.ofSeconds(30)));
        Path log = spec.logDirectory();
        assertEquals("Cassandra node 1 exited during start-up with status 1: (no output in " + log.resolve("system.log")
                + "); its output: Error occurred during initialization of VM | Could not reserve enough space for object heap"
                + " (see " + log.resolve("stdout.log") + ")", e.getMessage());
        assertFalse(node.stop(Duration.ofSeconds(1)));
    }

    /**
     * A node started with {@code detached = false} is stopped by its watchdog when this JVM dies (its
     * pipe closes, as {@code Watchdog.close} does here). Before: the watchdog looked for an argument
     * equal to the config's path, which the node's command line never has (it has
     * -Dcassandra.config=file:...), so a killed test or demo left its Cassandra JVMs running.
     */
    @Test
    void theWatchdogStopsTheNodeWhenThisJvmEnds() throws Exception {
        NodeSpec spec = spec();
        CassandraNode node = new CassandraNode(spec);
        node.launch(List.of("/bin/sh", "-c", "sleep 30; :", "-Dcassandra.config=" + spec.configFile().toUri()), false);
        ProcessHandle standIn = node.process().orElseThrow();
        try {
            node.watchdog().close(); // what the kernel does to its pipe when this JVM is killed
            assertTrue(standIn.onExit().completeOnTimeout(null, 20, java.util.concurrent.TimeUnit.SECONDS).get() != null
                    && !standIn.isAlive(), "the watchdog stopped the node");
        } finally {
            standIn.destroyForcibly();
        }
    }
}
