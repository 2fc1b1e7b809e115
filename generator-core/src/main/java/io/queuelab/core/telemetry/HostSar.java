package io.queuelab.core.telemetry;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * sar's view of the host (seed 000's Figures 5.4-5.7 were {@code sar} beside the write grid): the
 * machine's CPU time by state from the {@code cpu} line of {@code /proc/stat} (user, nice, system,
 * idle, iowait, irq, softirq, steal) and the read and write operations completed by its physical
 * disks from {@code /proc/diskstats} (the devices under {@code /sys/block} backed by hardware, as
 * {@link HostTotals} counts them, so partitions, loop and device-mapper devices are not counted
 * twice). {@link HostResourceSampler} writes one row of these cumulative counters into
 * {@value #FILE_NAME} in each of its samples, at the same {@code epoch_ns} (the generator's clock)
 * as its host row; {@link #of(Path)} turns a file into sar's figures over its span.
 */
public final class HostSar {
    public static final String FILE_NAME = "host-sar.csv";
    public static final String HEADER = "epoch_ns,cpu_user_ns,cpu_nice_ns,cpu_system_ns,cpu_idle_ns,cpu_iowait_ns,cpu_irq_ns,"
            + "cpu_softirq_ns,cpu_steal_ns,disk_reads,disk_writes,disk_sectors_written";
    private static final int CPU_STATES = 8;

    private HostSar() {
    }

    /**
     * The counters now, in {@link #HEADER}'s order after {@code epoch_ns}; empty when
     * {@code /proc/stat} cannot be read; the disk columns {@link ProcessResources#UNKNOWN} when no
     * physical disk is found.
     */
    static Optional<long[]> read(Path procStat, Path procDiskstats, Path sysBlock) {
        long[] v = new long[CPU_STATES + 3];
        try {
            String cpu = Files.readAllLines(procStat).stream().filter(l -> l.startsWith("cpu ")).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no cpu line in " + procStat));
            String[] f = cpu.trim().split("\\s+");
            for (int i = 0; i < CPU_STATES; i++) {
                v[i] = (i + 1 < f.length ? Long.parseLong(f[i + 1]) : 0) * (1_000_000_000L / ProcessResources.CLOCK_TICKS_PER_SECOND);
            }
        } catch (IOException | RuntimeException unreadable) {
            return Optional.empty();
        }
        long reads = 0, writes = 0, sectors = 0;
        boolean any = false;
        try {
            for (String line : Files.readAllLines(procDiskstats)) {
                // major minor name reads merged sectors_read ms writes merged sectors_written ...
                String[] f = line.trim().split("\\s+");
                if (f.length < 10 || !Files.exists(sysBlock.resolve(f[2]).resolve("device"))) {
                    continue;
                }
                reads += Long.parseLong(f[3]);
                writes += Long.parseLong(f[7]);
                sectors += Long.parseLong(f[9]);
                any = true;
            }
        } catch (IOException | RuntimeException unreadable) {
            any = false;
        }
        v[CPU_STATES] = any ? reads : ProcessResources.UNKNOWN;
        v[CPU_STATES + 1] = any ? writes : ProcessResources.UNKNOWN;
        v[CPU_STATES + 2] = any ? sectors : ProcessResources.UNKNOWN;
        return Optional.of(v);
    }

    /** The machine's counters now. */
    static Optional<long[]> read() {
        return read(Path.of("/proc/stat"), Path.of("/proc/diskstats"), Path.of("/sys/block"));
    }

    /**
     * sar's figures between the first and the last row: CPU shares of all CPUs' time, as sar's
     * {@code %user %system %iowait} (nice apart), and disk operations per second ({@code sar -d}'s
     * reads and writes; NaN when no disk was found).
     */
    public record Figures(double seconds, double userPercent, double systemPercent, double iowaitPercent,
                          double readOpsPerSecond, double writeOpsPerSecond) {
    }

    /** The figures of {@code runDirectory}'s {@value #FILE_NAME}; empty without the file or with fewer than two rows. */
    public static Optional<Figures> of(Path runDirectory) throws IOException {
        Path file = runDirectory.resolve(FILE_NAME);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        List<long[]> rows = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file)) {
            String header = in.readLine();
            if (!HEADER.equals(header)) {
                throw new IOException(file + ": not a host-sar file (header " + (header == null ? "missing" : "differs") + ")");
            }
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String[] f = line.split(",", -1);
                if (f.length != CPU_STATES + 4) {
                    continue; // a torn last line
                }
                long[] row = new long[f.length];
                for (int i = 0; i < f.length; i++) {
                    row[i] = f[i].isEmpty() ? ProcessResources.UNKNOWN : Long.parseLong(f[i]);
                }
                rows.add(row);
            }
        } catch (NumberFormatException e) {
            throw new IOException(file + ": not a number in a row (" + e.getMessage() + ")");
        }
        if (rows.size() < 2) {
            return Optional.empty();
        }
        long[] a = rows.get(0), b = rows.get(rows.size() - 1);
        double seconds = (b[0] - a[0]) / 1e9;
        double total = 0;
        for (int i = 1; i <= CPU_STATES; i++) {
            total += b[i] - a[i];
        }
        boolean disks = a[CPU_STATES + 1] != ProcessResources.UNKNOWN && b[CPU_STATES + 1] != ProcessResources.UNKNOWN;
        return Optional.of(new Figures(seconds,
                total <= 0 ? Double.NaN : 100.0 * (b[1] - a[1]) / total,
                total <= 0 ? Double.NaN : 100.0 * (b[3] - a[3]) / total,
                total <= 0 ? Double.NaN : 100.0 * (b[5] - a[5]) / total,
                disks && seconds > 0 ? (b[CPU_STATES + 1] - a[CPU_STATES + 1]) / seconds : Double.NaN,
                disks && seconds > 0 ? (b[CPU_STATES + 2] - a[CPU_STATES + 2]) / seconds : Double.NaN));
    }
}
