package io.queuelab.core.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What took this machine's cpu time away from a test between {@link #start} and a reading, as
 * shares of all the machine's cpu time (0 to 1), read from the kernel and not from the run, so
 * independent of what a timing test measures:
 * <ul>
 * <li>{@link #steal}: the host's ("steal" of /proc/stat's cpu line), time the virtual cpus were
 * ready to run and were not;
 * <li>{@link #others}: every other process's busy time on the machine (the cpu line's busy time
 * less this JVM's own, /proc/self/stat's utime and stime).
 * </ul>
 * A ground-truth timing test can tell a machine that was busy with something else from an
 * instrument that is late. Zeros where /proc is not there (not Linux).
 */
final class MachineShare {
    private final long[] start;

    private MachineShare(long[] start) {
        this.start = start;
    }

    static MachineShare start() {
        return new MachineShare(read());
    }

    /** The host's share of the machine's cpu time since {@link #start}. */
    double steal() {
        long[] now = read();
        long total = now[1] - start[1];
        return total > 0 ? (double) (now[0] - start[0]) / total : 0;
    }

    /** Other processes' share of the machine's cpu time since {@link #start} (this JVM's own left out). */
    double others() {
        long[] now = read();
        long total = now[1] - start[1];
        long othersBusy = (now[2] - start[2]) - (now[3] - start[3]);
        return total > 0 ? Math.max(0, (double) othersBusy / total) : 0;
    }

    /** {steal, all, busy (all less idle, iowait and steal), this JVM's own} in clock ticks, or zeros. */
    private static long[] read() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long all = 0;
            for (int i = 1; i < f.length && i <= 8; i++) {
                all += Long.parseLong(f[i]); // user nice system idle iowait irq softirq steal
            }
            long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
            long busy = all - Long.parseLong(f[4]) - Long.parseLong(f[5]) - steal;
            String self = Files.readString(Path.of("/proc/self/stat"));
            String[] s = self.substring(self.lastIndexOf(')') + 2).split(" ");
            long own = Long.parseLong(s[11]) + Long.parseLong(s[12]); // utime and stime, fields 14 and 15 of the line
            return new long[] {steal, all, busy, own}; // both files count in the same clock ticks (USER_HZ)
        } catch (IOException | RuntimeException notLinux) {
            return new long[] {0, 0, 0, 0};
        }
    }
}
