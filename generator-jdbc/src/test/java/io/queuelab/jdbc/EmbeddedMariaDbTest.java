package io.queuelab.jdbc;

import io.queuelab.core.process.ChildProcesses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EmbeddedMariaDbTest {

    @Test
    void theServerIsMariaDb1145WithTheServerOptionsPassedThrough() throws Exception {
        EmbeddedMariaDb server = TestDatabases.embeddedServer();
        assertTrue(server.isRunning());
        assertTrue(server.jdbcUrl().startsWith("jdbc:mariadb://127.0.0.1:") && server.port() != 3306);
        try (Connection c = TestDatabases.embedded().connect(0); Statement s = c.createStatement()) {
            assertTrue(WisconsinContract.text(s, "SELECT VERSION()").startsWith("11.4.5-MariaDB"));
            assertEquals(64L << 20, WisconsinContract.single(s, "SELECT @@innodb_buffer_pool_size"));
            assertEquals(EmbeddedMariaDb.DATABASE, WisconsinContract.text(s, "SELECT DATABASE()"));
        }
        assertTrue(Files.exists(server.directory().resolve(EmbeddedMariaDb.MARKER)));
        // the binaries are the machine's one unpack, not a copy in the directory
        assertFalse(Files.exists(server.directory().resolve("base")), "no copy of the server in " + server.directory());
        assertTrue(Files.isExecutable(ServerBinaries.directory().resolve("bin").resolve("mariadbd")), ServerBinaries.directory()::toString);
        List<ProcessHandle> running = io.queuelab.core.process.ChildProcesses.withArgument(EmbeddedMariaDb.dataDirArgument(server.directory()));
        assertEquals(1, running.size(), running::toString);
        assertTrue(running.get(0).info().command().map(c -> c.startsWith(ServerBinaries.directory().toString())).orElse(false),
                () -> "the server runs from the shared binaries: " + running.get(0).info());
        IllegalStateException inUse = assertThrows(IllegalStateException.class, () -> EmbeddedMariaDb.start(server.directory(), List.of()));
        assertTrue(inUse.getMessage().contains("is in use by another queuelab server"), inUse.getMessage());
        assertTrue(server.isRunning());
    }

    @Test
    @Timeout(180)
    void aFrozenServerIsKilledAfterTheGracePeriodWithOneLineAndStartsAgain() throws Exception {
        EmbeddedMariaDb server = TestDatabases.embeddedServer();
        long pid = server.serverPid();
        Process stop = new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start();
        assertTrue(stop.waitFor(10, TimeUnit.SECONDS) && stop.exitValue() == 0);
        try {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            PrintStream original = System.err;
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            long start = System.nanoTime();
            try {
                server.stop(Duration.ofSeconds(2));
            } finally {
                System.setErr(original);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            assertTrue(seconds >= 2 && seconds < 2 + ChildProcesses.KILL_WAIT.toSeconds(), "stop took " + seconds + " s");
            assertFalse(server.isRunning());
            assertFalse(ProcessHandle.of(pid).map(p -> p.isAlive() && p.info().arguments().isPresent()).orElse(false));
            assertEquals("queuelab: the embedded MariaDB (pid " + pid + ") did not stop within 2 s of SIGTERM (frozen?); "
                    + "killed it with SIGKILL", err.toString(StandardCharsets.UTF_8).trim());
        } finally {
            // the other tests of this JVM share the server: it runs again whatever was asserted above
            // (a server still frozen by a failed stop is thawed and stopped first)
            new ProcessBuilder("kill", "-CONT", Long.toString(pid)).start().waitFor(10, TimeUnit.SECONDS);
            server.stop();
            server.restart();
        }
        try (Connection c = TestDatabases.embedded().connect(0); Statement s = c.createStatement()) {
            assertEquals(1L, WisconsinContract.single(s, "SELECT 1"));
        }
    }

    @Test
    void foreignAndMalformedSettingsAreRefusedBeforeAnythingStarts() throws Exception {
        Path foreign = Files.createDirectories(Path.of("target", "foreign-dir"));
        Files.writeString(foreign.resolve("notes.txt"), "mine");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EmbeddedMariaDb.start(foreign, List.of()));
        assertTrue(e.getMessage().contains("not created by queuelab"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> EmbeddedMariaDb.start(Path.of("target", "x"), List.of("innodb-buffer-pool-size=16M")));
        assertTrue(e.getMessage().contains("--name=value"), e.getMessage());
    }
}
