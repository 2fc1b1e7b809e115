package io.queuelab.core.telemetry;

import io.queuelab.core.clock.ClockProbe;
import io.queuelab.core.run.RunCompanion;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Samples the resources of local processes (the client itself, the server it drives) from
 * {@code /proc} at a fixed interval into a CSV file, on the generator's clock, on one daemon thread
 * of its own. Self-contained: it needs only pids (and optionally data directories), so a
 * generator node of a distributed run, or any other tool, can sample its own processes with it.
 *
 * <p>File ({@value #FILE_NAME}), one row per process per sample, header {@link #HEADER}:
 * {@code epoch_ns} is the generator's wall clock (epoch nanoseconds) taken before the sample;
 * {@code process} the role given ({@code client}, {@code host} for the whole machine with pid 0,
 * {@code server}, {@code node1}, ...), {@code pid};
 * the {@link ProcessResources} counters, cumulative or levels as documented there, empty where
 * unknown; {@code read_ns} what reading that process cost the sampler (its own overhead, measured).
 *
 * <p>Guarantees: the first sample is taken at {@link #start}, then one per interval, and a last one
 * at {@link #close()}; {@code data_dir_bytes} is filled in the first and the last, and between them in the
 * first sample after each {@link #DATA_DIRECTORY_PERIOD} (empty in the other rows); a process that
 * has ended gives no row (and is counted in {@link #missedReadings()}); every row written is
 * complete; {@link #close()} stops the thread and flushes. Reading one process costs a few hundred
 * microseconds, plus a {@code du} of its data directory (docs/benchmarks.md gives measured figures).
 */
public final class HostResourceSampler implements AutoCloseable {
    public static final String FILE_NAME = "host-resources.csv";
    /** How often data directories are measured ({@code du}, the costly part), besides the first and the last sample. */
    public static final Duration DATA_DIRECTORY_PERIOD = Duration.ofSeconds(5);
    /** The roles of the generator's own machine: this JVM and the whole host. */
    public static final String CLIENT_ROLE = "client";
    public static final String HOST_ROLE = "host";
    public static final Set<String> NODE_ROLES = Set.of(CLIENT_ROLE, HOST_ROLE);
    /** The pid column of the {@value #HOST_ROLE} row (no process has pid 0 in /proc). */
    public static final long HOST_PID = 0;
    public static final String HEADER = "epoch_ns,process,pid,cpu_ns,rss_bytes,read_bytes,write_bytes,"
            + "net_rx_bytes,net_tx_bytes,data_dir_bytes,read_ns";

    /**
     * A process to sample.
     *
     * @param role          its name in the file: {@code client}, {@code server}, {@code node<i>}, ...
     * @param pid           its process id
     * @param dataDirectory the directory whose size to record (a server's data), or null
     */
    public record SampledProcess(String role, long pid, Path dataDirectory) {
        public SampledProcess {
            if (role == null || !role.matches("[A-Za-z0-9_.-]+")) {
                throw new IllegalArgumentException("a sampled process needs a role of letters, digits, '_', '.' or '-': " + role);
            }
        }

        /** This JVM, the generator. */
        public static SampledProcess client() {
            return new SampledProcess(CLIENT_ROLE, ProcessHandle.current().pid(), null);
        }

        /** The whole machine the generator runs on ({@link HostTotals}: all CPUs, memory in use, disks); pid 0. */
        public static SampledProcess host() {
            return new SampledProcess(HOST_ROLE, HOST_PID, null);
        }
    }

    private final List<SampledProcess> processes;
    private final SampleTimer timer;
    private BufferedWriter out;
    private BufferedWriter sar;
    private long samples;
    private long missed;
    private long readNanos;
    private long readings;
    private long lastDirectoryNanos;

    private HostResourceSampler(List<SampledProcess> processes, BufferedWriter out, BufferedWriter sar, Duration interval) {
        this.processes = List.copyOf(processes);
        this.out = out;
        this.sar = sar;
        this.timer = SampleTimer.start("host-resource-sampler", interval, this::sample);
    }

    /** Creates {@code file} (which must not exist), samples at once and then every {@code interval}. */
    public static HostResourceSampler start(List<SampledProcess> processes, Path file, Duration interval) throws IOException {
        return start(processes, file, interval, false);
    }

    /**
     * As {@link #start(List, Path, Duration)}; with {@code sar}, each sample also writes the host's
     * CPU time by state and its disks' operations ({@link HostSar}) into {@value HostSar#FILE_NAME}
     * beside {@code file}, at the same instant: one loop, one clock.
     */
    public static HostResourceSampler start(List<SampledProcess> processes, Path file, Duration interval, boolean sar) throws IOException {
        SampleTimer.requirePositive(interval);
        if (processes.isEmpty()) {
            throw new IllegalArgumentException("no process to sample");
        }
        BufferedWriter out = Files.newBufferedWriter(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        BufferedWriter sarOut = null;
        try {
            out.write(HEADER + "\n");
            if (sar) {
                Path sarFile = file.toAbsolutePath().resolveSibling(HostSar.FILE_NAME);
                sarOut = Files.newBufferedWriter(sarFile, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                sarOut.write(HostSar.HEADER + "\n");
            }
        } catch (IOException | RuntimeException e) {
            out.close();
            if (sarOut != null) {
                sarOut.close();
            }
            throw e;
        }
        return new HostResourceSampler(processes, out, sarOut, interval);
    }

    /**
     * A run companion sampling the client, its host and the processes {@code servers} names when
     * the run starts into {@value #FILE_NAME} of the run directory, and timing the speed of the
     * servers' own cpus ({@link CpuSpeedProbe}) into {@value CpuSpeedProbe#FILE_NAME}.
     */
    public static RunCompanion companion(Supplier<List<SampledProcess>> servers, Duration interval) {
        return companion(servers, interval, false);
    }

    /** As {@link #companion(Supplier, Duration)}; with {@code sar}, {@value HostSar#FILE_NAME} too (qos-write's sar figures). */
    public static RunCompanion companion(Supplier<List<SampledProcess>> servers, Duration interval, boolean sar) {
        RunCompanion resources = runDirectory -> {
            List<SampledProcess> all = new ArrayList<>();
            all.add(SampledProcess.client());
            all.add(SampledProcess.host());
            all.addAll(servers.get());
            return start(all, runDirectory.resolve(FILE_NAME), interval, sar);
        };
        return resources.and(CpuSpeedProbe.companion(servers));
    }

    /**
     * Whether rows of {@code role} are the generator's own machine (its client or host), as a
     * node's file names them or as a merged run does ({@code node<i>.client}, {@code node<i>.host}),
     * rather than a server process.
     */
    public static boolean generatorSide(String role) {
        return NODE_ROLES.contains(role.replaceFirst("^node[0-9]+\\.", ""));
    }

    /** Sample instants written so far. */
    public synchronized long samples() {
        return samples;
    }

    /** Readings of a process that had ended (no row). */
    public synchronized long missedReadings() {
        return missed;
    }

    /** The mean cost of reading one process, in ns (0 before the first reading). */
    public synchronized double meanReadNanos() {
        return readings == 0 ? 0 : (double) readNanos / readings;
    }

    private void sample() {
        sample(false);
    }

    /**
     * One sample of every process; the data directories (a {@code du}, the costly part) only when
     * {@link #DATA_DIRECTORY_PERIOD} has passed since the last, or when {@code withDirectories}.
     */
    private synchronized void sample(boolean withDirectories) {
        if (out == null) {
            return;
        }
        long epochNanos = ClockProbe.wallClockNanos();
        long now = System.nanoTime();
        boolean directories = withDirectories || lastDirectoryNanos == 0 || now - lastDirectoryNanos >= DATA_DIRECTORY_PERIOD.toNanos();
        if (directories) {
            lastDirectoryNanos = now;
        }
        StringBuilder rows = new StringBuilder();
        for (SampledProcess p : processes) {
            long begin = System.nanoTime();
            Optional<ProcessResources> r = p.pid() == HOST_PID ? HostTotals.read()
                    : ProcessResources.read(p.pid(), directories ? p.dataDirectory() : null);
            long cost = System.nanoTime() - begin;
            if (r.isEmpty()) {
                missed++;
                continue;
            }
            readNanos += cost;
            readings++;
            ProcessResources v = r.get();
            rows.append(epochNanos).append(',').append(p.role()).append(',').append(p.pid());
            for (long value : new long[] {v.cpuNanos(), v.rssBytes(), v.readBytes(), v.writeBytes(),
                    v.netReceivedBytes(), v.netSentBytes(), v.dataDirBytes()}) {
                rows.append(',');
                if (value != ProcessResources.UNKNOWN) {
                    rows.append(value);
                }
            }
            rows.append(',').append(cost).append('\n');
        }
        try {
            out.write(rows.toString());
            out.flush(); // a crash leaves every sample taken so far, as the request log does
            samples++;
        } catch (IOException e) {
            missed += processes.size();
        }
        if (sar != null) {
            Optional<long[]> host = HostSar.read();
            if (host.isEmpty()) {
                missed++;
                return;
            }
            StringBuilder row = new StringBuilder().append(epochNanos);
            for (long value : host.get()) {
                row.append(',');
                if (value != ProcessResources.UNKNOWN) {
                    row.append(value);
                }
            }
            try {
                sar.write(row.append('\n').toString());
                sar.flush();
            } catch (IOException e) {
                missed++;
            }
        }
    }

    @Override
    public void close() throws IOException {
        timer.close();
        sample(true); // the end state, data directories included, whenever the last one was taken
        synchronized (this) {
            try {
                if (out != null) {
                    out.close();
                    out = null;
                }
            } finally {
                if (sar != null) {
                    sar.close();
                    sar = null;
                }
            }
        }
    }
}
