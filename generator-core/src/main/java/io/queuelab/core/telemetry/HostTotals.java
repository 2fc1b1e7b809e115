package io.queuelab.core.telemetry;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One reading of the whole machine (the host a generator node runs on), in the columns of a
 * process's {@link ProcessResources} so that it is one more row of the host-resources file:
 * {@code cpuNanos} is the busy time of all CPUs together ({@code /proc/stat}: user, nice, system,
 * irq, softirq, steal; idle and iowait left out), so 100 % of one core per busy core;
 * {@code rssBytes} the memory in use ({@code MemTotal - MemAvailable} of {@code /proc/meminfo});
 * {@code readBytes}/{@code writeBytes} the sectors read and written by the physical block devices
 * ({@code /sys/block/<dev>/stat} of every device backed by hardware, so partitions, loop and
 * device-mapper devices are not counted twice); the network bytes of the sampler's own network
 * namespace; no data directory. {@link ProcessResources#UNKNOWN} where the system does not say.
 */
final class HostTotals {
    private static final long SECTOR_BYTES = 512;

    private HostTotals() {
    }

    /** The machine's counters now; empty when not even {@code /proc/stat} is readable (not Linux). */
    static Optional<ProcessResources> read() {
        long cpu;
        try {
            cpu = busyNanos(Files.readAllLines(Path.of("/proc/stat")));
        } catch (IOException | RuntimeException unreadable) {
            return Optional.empty();
        }
        long[] disk = diskBytes(Path.of("/sys/block"));
        long[] net = ProcessResources.network(Path.of("/proc/self/net/dev"));
        return Optional.of(new ProcessResources(cpu, memoryInUse(Path.of("/proc/meminfo")), disk[0], disk[1], net[0], net[1],
                ProcessResources.UNKNOWN));
    }

    /** Busy CPU time of the {@code cpu} summary line of {@code /proc/stat}. */
    static long busyNanos(List<String> stat) {
        for (String line : stat) {
            if (line.startsWith("cpu ")) {
                String[] f = line.trim().split("\\s+");
                // cpu user nice system idle iowait irq softirq steal ...
                long ticks = 0;
                for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
                    ticks += i < f.length ? Long.parseLong(f[i]) : 0;
                }
                return ticks * (1_000_000_000L / ProcessResources.CLOCK_TICKS_PER_SECOND);
            }
        }
        throw new IllegalArgumentException("no cpu line in /proc/stat");
    }

    /** MemTotal - MemAvailable in bytes, or {@link ProcessResources#UNKNOWN}. */
    static long memoryInUse(Path meminfo) {
        long total = -1, available = -1;
        try {
            for (String line : Files.readAllLines(meminfo)) {
                String[] f = line.split("\\s+");
                if (f[0].equals("MemTotal:")) {
                    total = Long.parseLong(f[1]) * 1024;
                } else if (f[0].equals("MemAvailable:")) {
                    available = Long.parseLong(f[1]) * 1024;
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            return ProcessResources.UNKNOWN;
        }
        return total < 0 || available < 0 ? ProcessResources.UNKNOWN : total - available;
    }

    /** {read, written} bytes of the block devices under {@code sysBlock} that have a {@code device} (hardware). */
    static long[] diskBytes(Path sysBlock) {
        long read = 0, written = 0;
        boolean any = false;
        try (DirectoryStream<Path> devices = Files.newDirectoryStream(sysBlock)) {
            for (Path dev : devices) {
                if (!Files.exists(dev.resolve("device"))) {
                    continue;
                }
                String[] f = Files.readString(dev.resolve("stat")).trim().split("\\s+");
                read += Long.parseLong(f[2]) * SECTOR_BYTES;
                written += Long.parseLong(f[6]) * SECTOR_BYTES;
                any = true;
            }
        } catch (IOException | RuntimeException unreadable) {
            return new long[] {ProcessResources.UNKNOWN, ProcessResources.UNKNOWN};
        }
        return any ? new long[] {read, written} : new long[] {ProcessResources.UNKNOWN, ProcessResources.UNKNOWN};
    }
}
