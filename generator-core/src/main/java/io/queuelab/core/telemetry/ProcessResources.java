package io.queuelab.core.telemetry;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One reading of a local process's resource counters from Linux's {@code /proc}, as {@code ps} and
 * {@code pidstat} would give them, and of its data directory's disk space by {@code du}.
 *
 * <p>Every counter is cumulative since the process started (CPU, disk and network bytes) or a
 * level at the instant of reading (resident memory, data-directory size); {@link #UNKNOWN} (-1)
 * where the system did not say (e.g. {@code /proc/<pid>/io} of another user's process, no data
 * directory given).
 *
 * @param cpuNanos         user + system CPU time ({@code /proc/<pid>/stat} utime + stime, clock-tick resolution)
 * @param rssBytes         resident set size ({@code VmRSS} of {@code /proc/<pid>/status})
 * @param readBytes        bytes the process caused to be read from storage ({@code read_bytes} of {@code /proc/<pid>/io})
 * @param writeBytes       bytes the process caused to be written to storage ({@code write_bytes})
 * @param netReceivedBytes bytes received on every interface of the process's network namespace
 *                         ({@code /proc/<pid>/net/dev}; Linux keeps no per-process count, so on one
 *                         machine this is shared by every process of the namespace, loopback included)
 * @param netSentBytes     bytes sent, likewise
 * @param dataDirBytes     disk space of the data directory ({@code du -s}: allocated blocks)
 */
public record ProcessResources(long cpuNanos, long rssBytes, long readBytes, long writeBytes,
                               long netReceivedBytes, long netSentBytes, long dataDirBytes) {
    public static final long UNKNOWN = -1;
    /** Linux's USER_HZ, the unit of utime and stime; 100 on every common architecture. */
    static final long CLOCK_TICKS_PER_SECOND = 100;

    /**
     * Reads process {@code pid}; empty when it does not exist (any more).
     *
     * @param dataDirectory a directory whose size to add, or null
     */
    public static Optional<ProcessResources> read(long pid, Path dataDirectory) {
        Path proc = Path.of("/proc", Long.toString(pid));
        long cpu;
        try {
            cpu = cpuNanos(Files.readString(proc.resolve("stat")));
        } catch (IOException | RuntimeException gone) {
            return Optional.empty();
        }
        long rss = field(proc.resolve("status"), "VmRSS:") * 1024;
        long[] io = {field(proc.resolve("io"), "read_bytes:"), field(proc.resolve("io"), "write_bytes:")};
        long[] net = network(proc.resolve("net/dev"));
        long dir = dataDirectory == null ? UNKNOWN : directorySize(dataDirectory);
        return Optional.of(new ProcessResources(cpu, rss < 0 ? UNKNOWN : rss, io[0], io[1], net[0], net[1], dir));
    }

    /**
     * The CPU time the JIT compiler threads of a JVM process (HotSpot's {@code C1 CompilerThre*} and
     * {@code C2 CompilerThre*}) have used, from {@code /proc/<pid>/task/<tid>/stat}; {@link #UNKNOWN}
     * when the process does not exist. A compiler thread that HotSpot retired takes its time with
     * it, so a difference of two readings can be negative: count it as none.
     */
    public static long jitCompilerCpuNanos(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        long sum = 0;
        try (var threads = Files.list(tasks)) {
            for (Path task : (Iterable<Path>) threads::iterator) {
                try {
                    String name = Files.readString(task.resolve("comm")).strip();
                    if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                        sum += cpuNanos(Files.readString(task.resolve("stat")));
                    }
                } catch (IOException | RuntimeException ended) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException | RuntimeException gone) {
            return UNKNOWN;
        }
        return sum;
    }

    /** utime + stime of a {@code /proc/<pid>/stat} line; the command name may hold spaces and parentheses. */
    static long cpuNanos(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        // fields[0] is field 3 (state); utime and stime are fields 14 and 15
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        return ticks * (1_000_000_000L / CLOCK_TICKS_PER_SECOND);
    }

    /** The number after {@code key} on its line of a {@code key: value} file, or {@link #UNKNOWN}. */
    private static long field(Path file, String key) {
        try {
            for (String line : Files.readAllLines(file)) {
                if (line.startsWith(key)) {
                    return Long.parseLong(line.substring(key.length()).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            // another user's /proc/<pid>/io, or the process ended between two reads
        }
        return UNKNOWN;
    }

    /** {received, sent} bytes summed over the interfaces of {@code /proc/<pid>/net/dev}. */
    static long[] network(Path netDev) {
        try {
            return network(Files.readAllLines(netDev));
        } catch (IOException | RuntimeException unreadable) {
            return new long[] {UNKNOWN, UNKNOWN};
        }
    }

    static long[] network(List<String> netDev) {
        long received = 0, sent = 0;
        for (String line : netDev) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue; // the two header lines
            }
            String[] f = line.substring(colon + 1).trim().split("\\s+");
            received += Long.parseLong(f[0]);
            sent += Long.parseLong(f[8]);
        }
        return new long[] {received, sent};
    }

    /**
     * Disk space that the files under {@code dir} occupy, as {@code du -s} counts it (allocated
     * blocks: a sparse or preallocated file counts what it holds, not its length, as in seed 002's
     * {@code du -sh}); {@link #UNKNOWN} when {@code du} cannot tell. Files that vanish during the
     * walk (a server's temporary files) are skipped by du itself.
     */
    static long directorySize(Path dir) {
        if (!Files.isDirectory(dir)) {
            return UNKNOWN;
        }
        try {
            Process du = new ProcessBuilder("du", "-s", "-B1", dir.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out;
            try (var in = du.getInputStream()) {
                out = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            }
            du.waitFor();
            // du exits 1 when a file vanished under it, and still prints the total of the rest
            return Long.parseLong(out.trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return UNKNOWN;
        }
    }
}
