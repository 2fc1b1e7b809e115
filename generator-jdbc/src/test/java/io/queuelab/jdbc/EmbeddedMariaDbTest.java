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
        assertTrue(Files.isExecutable(SharedServerFiles.binaries().resolve("bin").resolve("mariadbd")), SharedServerFiles.binaries()::toString);
        List<ProcessHandle> running = io.queuelab.core.process.ChildProcesses.withArgument(EmbeddedMariaDb.dataDirArgument(server.directory()));
        assertEquals(1, running.size(), running::toString);
        assertTrue(running.get(0).info().command().map(c -> c.startsWith(SharedServerFiles.binaries().toString())).orElse(false),
                () -> "the server runs from the shared binaries: " + running.get(0).info());
        IllegalStateException inUse = assertThrows(IllegalStateException.class, () -> EmbeddedMariaDb.start(server.directory(), List.of()));
        assertTrue(inUse.getMessage().contains("is in use by another queuelab server"), inUse.getMessage());
        assertTrue(server.isRunning());
    }

    /**
     * A new directory once the machine has installed one: its data is a copy of the installed data
     * kept by the first (SharedServerFiles), not a new install, and it is a server of its own with
     * queuelab's account and database, grants enforced, what it writes invisible to the other.
     */
    @Test
    @Timeout(480) // a second server's start took over 180 s in a clean-clone run on 2026-11-29's loaded host (its disk's fsyncs 0.5-0.9 ms)
    void aNewDirectoryStartsFromTheMachinesInstalledDataAsAServerOfItsOwn() throws Exception {
        EmbeddedMariaDb first = TestDatabases.embeddedServer();
        if (!Files.exists(SharedServerFiles.dataTemplate().resolve(".complete"))) {
            // the module's server was installed before the machine kept a template (a directory of an earlier build)
            EmbeddedMariaDb.start(Path.of("target", "installing-mariadb-" + System.nanoTime()), List.of()).close();
        }
        assertTrue(Files.exists(SharedServerFiles.dataTemplate().resolve(".complete")),
                () -> "a directory installed on this machine keeps its data as the template: " + SharedServerFiles.dataTemplate());
        Path dir = Path.of("target", "second-mariadb-" + System.nanoTime()).toAbsolutePath();
        try (EmbeddedMariaDb second = EmbeddedMariaDb.start(dir, List.of("--innodb-buffer-pool-size=16M"))) {
            assertTrue(Files.isDirectory(dir.resolve("data").resolve("mysql")), "system tables");
            assertFalse(Files.exists(dir.resolve("data").resolve(".complete")), "the template's marker is not copied");
            assertFalse(Files.exists(dir.resolve("data.copying")), "no half copy left");
            try (Connection c = java.sql.DriverManager.getConnection(second.jdbcUrl(), EmbeddedMariaDb.USER, "");
                 Statement s = c.createStatement()) {
                assertEquals(EmbeddedMariaDb.DATABASE, WisconsinContract.text(s, "SELECT DATABASE()"));
                s.execute("CREATE TABLE only_in_second (x INT)");
            }
            java.sql.SQLException refused = assertThrows(java.sql.SQLException.class,
                    () -> java.sql.DriverManager.getConnection(second.jdbcUrl(), EmbeddedMariaDb.USER, "wrong").close());
            assertTrue(refused.getMessage().contains("Access denied"), refused.getMessage());
            try (Connection c = java.sql.DriverManager.getConnection(first.jdbcUrl(), EmbeddedMariaDb.USER, "");
                 Statement s = c.createStatement();
                 java.sql.ResultSet r = s.executeQuery("SHOW TABLES LIKE 'only_in_second'")) {
                assertFalse(r.next(), "the first server does not see the second's table");
            }
        }
        try (EmbeddedMariaDb again = EmbeddedMariaDb.start(dir, List.of("--innodb-buffer-pool-size=16M"));
             Connection c = java.sql.DriverManager.getConnection(again.jdbcUrl(), EmbeddedMariaDb.USER, "");
             Statement s = c.createStatement();
             java.sql.ResultSet r = s.executeQuery("SHOW TABLES LIKE 'only_in_second'")) {
            assertTrue(r.next(), "its data kept across starts, not copied again");
        }
    }

    @Test
    @Timeout(480)
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
