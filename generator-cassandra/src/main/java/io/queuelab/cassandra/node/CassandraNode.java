package io.queuelab.cassandra.node;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import io.queuelab.core.process.ChildProcesses;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One real Cassandra server ({@code CassandraDaemon}) in a JVM of its own, configured from a
 * {@link NodeSpec}. Guarantees: it only ever stops the process it started (the one this object
 * started, as long as it runs; else the pid remembered in the node directory, checked against that
 * process's command line); a node started with {@code detached = false} is also stopped when this
 * JVM exits.
 */
public final class CassandraNode {
    private static final Set<ProcessHandle> STOP_ON_EXIT = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> STOP_ON_EXIT.forEach(CassandraNode::terminate),
                "queuelab-cassandra-stop"));
    }

    private final NodeSpec spec;
    private ChildProcesses.Watchdog watchdog;
    /** The process this object started; null before {@link #start}. */
    private volatile Process started;

    public CassandraNode(NodeSpec spec) {
        this.spec = spec;
    }

    public NodeSpec spec() {
        return spec;
    }

    /**
     * Writes the configuration and launches the server; returns at once (see {@link #awaitCql}).
     * The data directory is kept across starts, so a stopped node restarts with its data.
     *
     * @param detached true: the node outlives this JVM (the CLI's {@code start}); false: it is
     *                 stopped when this JVM exits (tests, demos)
     */
    public void start(CassandraClasspath classpath, boolean detached) throws IOException {
        Optional<ProcessHandle> running = process();
        if (running.isPresent()) {
            throw new IllegalStateException("node " + spec.index() + " already runs (pid " + running.get().pid() + ")");
        }
        requireFree(spec.address(), spec.nativePort(), "CQL");
        requireFree(spec.address(), spec.storagePort(), "storage");
        requireFree("127.0.0.1", spec.jmxPort(), "JMX");
        writeConfiguration();
        List<String> command = new ArrayList<>();
        if (detached && new File("/usr/bin/setsid").canExecute()) {
            command.add("/usr/bin/setsid"); // its own session: a later Ctrl-C in this terminal does not reach it
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions(classpath));
        command.add("-cp");
        command.add(classpath.asClasspath());
        command.add("org.apache.cassandra.service.CassandraDaemon");
        launch(command, detached);
    }

    /** Starts {@code command} as this node's process (its output into {@code stdout.log}) and records its pid. */
    void launch(List<String> command, boolean detached) throws IOException {
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(stdoutLog().toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        started = process;
        Files.writeString(spec.pidFile(), Long.toString(process.pid()));
        if (!detached) {
            STOP_ON_EXIT.add(process.toHandle());
            // the shutdown hook does not run on SIGKILL: a watchdog process stops the node then too
            // the watchdog knows the node by an argument equal to its marker: the config option is one
            watchdog = ChildProcesses.tieToThisJvm(process.toHandle(), configOption(), Duration.ofSeconds(30));
        }
    }

    /**
     * Waits until the node answers a CQL query and returns its release version.
     *
     * @throws IOException when the process exits or the timeout passes first (with its last log lines)
     */
    public String awaitCql(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (process().isEmpty()) {
                Process own = started;
                // a JVM that dies before Cassandra logs (a bad option, no memory) says why on its stdout only
                throw new IOException("Cassandra node " + spec.index() + " exited during start-up"
                        + (own != null && !own.isAlive() ? " with status " + own.exitValue() : "") + ": "
                        + LogTail.lastLines(spec.logDirectory().resolve("system.log"), 2) + "; its output: "
                        + LogTail.lastLines(stdoutLog(), 3));
            }
            if (portAnswers()) {
                Optional<String> version = releaseVersion();
                if (version.isPresent()) {
                    return version.get();
                }
            }
            Thread.sleep(300);
        }
        throw new IOException("Cassandra node " + spec.index() + " did not answer CQL on " + spec.address() + ":"
                + spec.nativePort() + " within " + timeout.toSeconds() + " s: "
                + LogTail.lastLines(spec.logDirectory().resolve("system.log"), 2));
    }

    /** The release version the node reports over CQL, or empty when it does not answer. */
    public Optional<String> releaseVersion() {
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT, Duration.ofSeconds(3))
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(3))
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(5))
                .withBoolean(DefaultDriverOption.METADATA_SCHEMA_ENABLED, false)
                .build();
        try (CqlSession session = CqlSession.builder()
                .addContactPoint(spec.cqlAddress())
                .withLocalDatacenter("datacenter1")
                .withConfigLoader(config)
                .build()) {
            return Optional.ofNullable(session.execute("SELECT release_version FROM system.local").one())
                    .map(row -> row.getString(0));
        } catch (RuntimeException notYet) {
            return Optional.empty();
        }
    }

    /** True when something accepts connections on the node's CQL port. */
    public boolean portAnswers() {
        try (Socket socket = new Socket()) {
            socket.connect(spec.cqlAddress(), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The node's live process: the one this object started while it runs, else the recorded pid's
     * when it still belongs to this node's server.
     */
    public Optional<ProcessHandle> process() {
        Process own = started;
        if (own != null && own.isAlive()) {
            // our own child is the node until it exits, whatever its command line says at the moment:
            // right after start() it may be mid-exec (of setsid, then java), and /proc/PID/cmdline
            // then reads empty, which the check below would take for a dead node
            return Optional.of(own.toHandle());
        }
        try {
            if (!Files.exists(spec.pidFile())) {
                return Optional.empty();
            }
            long pid = Long.parseLong(Files.readString(spec.pidFile()).trim());
            // a recycled pid must not be mistaken for the node: the command line names its config
            String marker = configOption();
            return ProcessHandle.of(pid)
                    .filter(ProcessHandle::isAlive)
                    .filter(handle -> handle.info().arguments()
                            .map(args -> List.of(args).stream().anyMatch(arg -> arg.contains(marker)))
                            .orElse(handle.info().commandLine().map(line -> line.contains(marker)).orElse(false)));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Stops the node's process (SIGTERM, then SIGKILL after {@code grace}); true if one was running. */
    public boolean stop(Duration grace) {
        Optional<ProcessHandle> running = process();
        running.ifPresent(handle -> {
            handle.destroy();
            try {
                handle.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception timeoutOrInterrupt) {
                handle.destroyForcibly();
                handle.onExit().join();
            }
            STOP_ON_EXIT.remove(handle);
        });
        if (watchdog != null) {
            watchdog.close();
            watchdog = null;
        }
        return running.isPresent();
    }

    /** The JVM option that names the node's config: how its process is told from others. */
    private String configOption() {
        return "-Dcassandra.config=" + spec.configFile().toUri();
    }

    /** The watchdog that stops a node started with {@code detached = false} if this JVM dies; null otherwise. */
    ChildProcesses.Watchdog watchdog() {
        return watchdog;
    }

    private Path stdoutLog() {
        return spec.logDirectory().resolve("stdout.log");
    }

    private static void terminate(ProcessHandle handle) {
        handle.destroy();
        try {
            handle.onExit().get(20, TimeUnit.SECONDS);
        } catch (Exception e) {
            handle.destroyForcibly();
        }
    }

    private List<String> jvmOptions(CassandraClasspath classpath) {
        List<String> options = new ArrayList<>();
        for (String line : CassandraClasspath.resource("jvm-options.txt").split("\n")) {
            String option = line.trim();
            if (!option.isEmpty() && !option.startsWith("#")) {
                options.add(option);
            }
        }
        options.add("-Xms" + spec.heap());
        options.add("-Xmx" + spec.heap());
        options.add("-javaagent:" + classpath.jammAgent());
        options.add(configOption());
        options.add("-Dcassandra.storagedir=" + spec.directory().resolve("data"));
        options.add("-Dcassandra.logdir=" + spec.logDirectory());
        options.add("-Dcassandra.jmx.local.port=" + spec.jmxPort());
        options.add("-Dlogback.configurationFile=" + spec.directory().resolve("logback.xml"));
        return options;
    }

    private void writeConfiguration() throws IOException {
        for (String sub : List.of("data", "commitlog", "saved_caches", "hints", "cdc_raw", "logs")) {
            Files.createDirectories(spec.directory().resolve(sub));
        }
        String yaml = CassandraClasspath.resource("cassandra.yaml")
                .replace("{{cluster_name}}", spec.clusterName())
                .replace("{{seeds}}", spec.seed())
                .replace("{{address}}", spec.address())
                .replace("{{storage_port}}", Integer.toString(spec.storagePort()))
                .replace("{{native_port}}", Integer.toString(spec.nativePort()))
                .replace("{{dir}}", spec.directory().toString());
        Files.writeString(spec.configFile(), yaml);
        Files.writeString(spec.directory().resolve("logback.xml"), CassandraClasspath.resource("logback.xml"));
    }

    private static void requireFree(String address, int port, String what) throws IOException {
        try (ServerSocket probe = new ServerSocket()) {
            probe.bind(new InetSocketAddress(address, port));
        } catch (IOException inUse) {
            throw new IOException("the " + what + " port " + address + ":" + port
                    + " is in use (another Cassandra running? choose other ports)");
        }
    }
}
