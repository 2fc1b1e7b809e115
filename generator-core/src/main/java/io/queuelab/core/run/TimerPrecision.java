package io.queuelab.core.run;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Makes the calling thread's timed wake-ups prompt, without privileges and without spinning, where
 * Linux allows it; every thread that waits for instants of the schedule calls {@link #applyToCurrentThread}
 * once, before its first wait.
 *
 * <p>Two settings, each for the calling thread only:
 * <ul>
 * <li><b>timer slack 1 ns</b> ({@code /proc/TID/timerslack_ns}, which a thread may set for itself): the
 *     default 50 us lets the kernel fire a timed wake-up up to 50 us late to batch it with others.</li>
 * <li><b>a scheduler time slice of {@value #SLICE_NANOS} ns</b> ({@code sched_setattr}'s
 *     {@code sched_runtime} for {@code SCHED_OTHER}, Linux 6.12+): under EEVDF a woken thread waits
 *     for the running one to finish its slice (the kernel's default, 1.4 ms on the 2-core machines
 *     here) unless its own slice is shorter, in which case it may preempt at once. The slice sets how soon the thread runs when it
 *     wakes, not how much CPU it gets: its share stays that of any other thread of its nice level.
 *     The thread's policy and nice value are read first and written back unchanged. Threads it starts
 *     afterwards begin with the kernel's default slice ({@code SCHED_FLAG_RESET_ON_FORK}); they do
 *     inherit the timer slack (the kernel's rule for it), which only makes their timers precise.</li>
 * </ul>
 * Guarantee: {@link #applyToCurrentThread} never throws and never raises the thread's priority; it
 * reports what took effect, read back from the kernel (a kernel before 6.12 accepts the slice and
 * ignores it: that reads back as not granted). Measured in docs/benchmarks.md ("the scheduler slice").
 */
public final class TimerPrecision {
    /** The slice asked for: the kernel's minimum is 100 us. */
    static final long SLICE_NANOS = 100_000;

    /** What the calling thread got: 1 ns timer slack, and its scheduler slice in ns (0: the kernel's default). */
    public record Granted(boolean timerSlack, long sliceNanos) {
    }

    private static final SchedAttr SCHED = SchedAttr.load();

    private TimerPrecision() {
    }

    /** Applies both settings to the calling thread; returns what took effect. */
    public static Granted applyToCurrentThread() {
        return new Granted(lowerTimerSlack(), SCHED == null ? 0 : SCHED.shortenSlice(SLICE_NANOS));
    }

    private static boolean lowerTimerSlack() {
        try {
            Path self = Files.readSymbolicLink(Path.of("/proc/thread-self"));
            Path slack = Path.of("/proc", self.getFileName().toString(), "timerslack_ns");
            Files.writeString(slack, "1");
            return "1".equals(Files.readString(slack).trim());
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false; // not Linux, or an old kernel: timed waits keep the default slack
        }
    }

    /** sched_getattr / sched_setattr through libc's syscall(2), by JNA (no C of our own to build). */
    private static final class SchedAttr {
        private static final int SIZE = 48; // SCHED_ATTR_SIZE_VER0
        private static final int SCHED_OTHER = 0;
        private static final int SCHED_BATCH = 3;
        private static final long SCHED_FLAG_RESET_ON_FORK = 0x01;

        interface LibC extends Library {
            long syscall(long number, Object... args);
        }

        private final LibC libc;
        private final long getattr;
        private final long setattr;

        private SchedAttr(LibC libc, long getattr, long setattr) {
            this.libc = libc;
            this.getattr = getattr;
            this.setattr = setattr;
        }

        static SchedAttr load() {
            if (!System.getProperty("os.name", "").equals("Linux")) {
                return null;
            }
            long[] numbers = switch (System.getProperty("os.arch", "")) {
                case "amd64", "x86_64" -> new long[] {315, 314};
                case "aarch64" -> new long[] {275, 274};
                default -> null;
            };
            if (numbers == null) {
                return null;
            }
            try {
                return new SchedAttr(Native.load("c", LibC.class), numbers[0], numbers[1]);
            } catch (LinkageError | RuntimeException e) {
                return null; // JNA's native part could not be loaded here (no writable temp directory, say)
            }
        }

        /** Returns the slice in effect afterwards when it is {@code nanos}, else 0. */
        long shortenSlice(long nanos) {
            try (Memory attr = new Memory(SIZE)) {
                attr.clear();
                if (libc.syscall(getattr, 0L, attr, (long) SIZE, 0L) != 0) {
                    return 0;
                }
                int policy = attr.getInt(4);
                if (policy != SCHED_OTHER && policy != SCHED_BATCH) {
                    return 0; // a real-time or deadline thread someone chose: leave it alone
                }
                attr.setInt(0, SIZE);
                // threads this one starts later (a driver's lazily started timer or I/O thread) begin
                // with the kernel's default slice: the short one is for the timing threads alone
                attr.setLong(8, SCHED_FLAG_RESET_ON_FORK);
                attr.setLong(24, nanos); // sched_runtime; policy (4) and nice (16) as read
                if (libc.syscall(setattr, 0L, attr, 0L) != 0) {
                    return 0;
                }
                attr.clear();
                if (libc.syscall(getattr, 0L, attr, (long) SIZE, 0L) != 0) {
                    return 0;
                }
                return attr.getLong(24) == nanos ? nanos : 0;
            } catch (LinkageError | RuntimeException e) {
                return 0;
            }
        }
    }
}
