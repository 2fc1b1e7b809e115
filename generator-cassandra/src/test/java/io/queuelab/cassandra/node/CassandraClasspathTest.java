package io.queuelab.cassandra.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The server's class path is resolved once per machine, and a resolution that fails says why. */
class CassandraClasspathTest {

    /** The test node's start left the machine-wide cache; resolving again reads it without Maven. */
    @Test
    void theMachineWideCacheIsReusedWithoutMaven() throws Exception {
        io.queuelab.cassandra.TestCassandraAccess.cluster();
        String version = CassandraClasspath.defaultVersion();
        Path cached = CassandraClasspath.machineCache().resolve("classpath-" + version + ".txt");
        assertTrue(Files.isRegularFile(cached), cached.toString());
        long before = Files.getLastModifiedTime(cached).toMillis();
        CassandraClasspath again = CassandraClasspath.resolve(version);
        assertEquals(before, Files.getLastModifiedTime(cached).toMillis(), "not resolved again");
        assertTrue(again.jars().stream().anyMatch(j -> j.getFileName().toString().startsWith("cassandra-all-" + version)),
                again.asClasspath());
        try (var leftovers = Files.list(CassandraClasspath.machineCache())) {
            // a resolution's own files (classpath-V.txt.PID.N, mvn-output.txt.PID.N); the cache holds others' entries too
            assertTrue(leftovers.noneMatch(f -> f.getFileName().toString().matches("(classpath-.*|mvn-output)\\.txt\\.\\d+\\.\\d+$")),
                    "no temporary files of a resolution are left");
        }
    }

    @Test
    void aReleaseMavenCannotFindIsOneClearMessage(@TempDir Path cache) throws IOException {
        IOException e = assertThrows(IOException.class, () -> CassandraClasspath.resolve(cache, "0.0.0-no-such-release"));
        assertTrue(e.getMessage().startsWith("Maven could not resolve org.apache.cassandra:cassandra-all:0.0.0-no-such-release"
                + " (the first start on a machine downloads"), e.getMessage());
        try (var left = Files.list(cache)) {
            assertEquals(0, left.count(), "nothing half-written in the cache");
        }
    }
}
