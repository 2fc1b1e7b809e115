package io.queuelab.jdbc;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EmbeddedMariaDbTest {

    @Test
    void theServerIsMariaDb1145WithTheServerOptionsPassedThrough() throws Exception {
        EmbeddedMariaDb server = TestDatabases.embeddedServer();
        assertTrue(server.isRunning());
        assertTrue(server.jdbcUrl().startsWith("jdbc:mysql://127.0.0.1:") && server.port() != 3306);
        try (Connection c = TestDatabases.embedded().connect(0); Statement s = c.createStatement()) {
            assertTrue(WisconsinContract.text(s, "SELECT VERSION()").startsWith("11.4.5-MariaDB"));
            assertEquals(64L << 20, WisconsinContract.single(s, "SELECT @@innodb_buffer_pool_size"));
            assertEquals(EmbeddedMariaDb.DATABASE, WisconsinContract.text(s, "SELECT DATABASE()"));
        }
        assertTrue(Files.exists(server.directory().resolve(EmbeddedMariaDb.MARKER)));
        IllegalStateException inUse = assertThrows(IllegalStateException.class, () -> EmbeddedMariaDb.start(server.directory(), List.of()));
        assertTrue(inUse.getMessage().contains("is in use by another queuelab server"), inUse.getMessage());
        assertTrue(server.isRunning());
    }

    @Test
    void foreignTemporaryAndMalformedSettingsAreRefusedBeforeAnythingStarts() throws Exception {
        Path foreign = Files.createDirectories(Path.of("target", "foreign-dir"));
        Files.writeString(foreign.resolve("notes.txt"), "mine");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EmbeddedMariaDb.start(foreign, List.of()));
        assertTrue(e.getMessage().contains("not created by queuelab"), e.getMessage());
        Path temp = Path.of(System.getProperty("java.io.tmpdir"), "queuelab-embedded");
        e = assertThrows(IllegalArgumentException.class, () -> EmbeddedMariaDb.start(temp, List.of()));
        assertTrue(e.getMessage().contains("must not be under"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> EmbeddedMariaDb.start(Path.of("target", "x"), List.of("innodb-buffer-pool-size=16M")));
        assertTrue(e.getMessage().contains("--name=value"), e.getMessage());
    }
}
