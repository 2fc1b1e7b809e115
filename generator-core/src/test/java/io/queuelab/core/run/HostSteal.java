package io.queuelab.core.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The share of this machine's cpu time its host took (the "steal" column of /proc/stat's cpu line)
 * between {@link #start} and {@link #share}: time the virtual cpus were ready to run and were not.
 * It is read from the kernel, not from the run, so it is independent of what a test measures; a
 * ground-truth timing test can tell a host that paused the machine from an instrument that is late.
 * Zero where /proc/stat is not there (not Linux).
 */
final class HostSteal {
    private final long[] start;

    private HostSteal(long[] start) {
        this.start = start;
    }

    static HostSteal start() {
        return new HostSteal(read());
    }

    /** The host's share of the machine's cpu time since {@link #start}, 0 to 1. */
    double share() {
        long[] now = read();
        long total = now[1] - start[1];
        return total > 0 ? (double) (now[0] - start[0]) / total : 0;
    }

    /** {steal, all} jiffies of the aggregate cpu line, or zeros. */
    private static long[] read() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long all = 0;
            for (int i = 1; i < f.length && i <= 8; i++) {
                all += Long.parseLong(f[i]); // user nice system idle iowait irq softirq steal
            }
            return new long[] {f.length > 8 ? Long.parseLong(f[8]) : 0, all};
        } catch (IOException | RuntimeException notLinux) {
            return new long[] {0, 0};
        }
    }
}
