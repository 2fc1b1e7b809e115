package io.queuelab.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The timing threads' settings, read back independently of the syscall that made them: the kernel's
 * own per-thread scheduler report ({@code /proc/thread-self/sched}: {@code se.slice}, {@code prio},
 * {@code policy}) and {@code timerslack_ns}.
 */
class TimerPrecisionTest {

    @Test
    void theCallingThreadGetsAShortSliceAtItsOwnPriorityAndThreadsItStartsLaterDoNot() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/thread-self/sched")), "Linux with /proc/thread-self/sched");
        assumeTrue(kernelAtLeast(6, 12), "a kernel with EEVDF's per-thread slice (6.12+)");
        AtomicReference<Map<String, String>> before = new AtomicReference<>();
        AtomicReference<Map<String, String>> after = new AtomicReference<>();
        AtomicReference<TimerPrecision.Granted> granted = new AtomicReference<>();
        AtomicReference<String> slack = new AtomicReference<>();
        AtomicReference<Map<String, String>> child = new AtomicReference<>();
        Thread timing = new Thread(() -> {
            before.set(sched());
            granted.set(TimerPrecision.applyToCurrentThread());
            after.set(sched());
            Thread started = new Thread(() -> child.set(sched())); // as a driver starts its timer thread lazily
            started.start();
            try {
                started.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            try { // /proc/TID/timerslack_ns: the task directories have no such file
                slack.set(read("/proc/" + Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName() + "/timerslack_ns"));
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
        });
        timing.start();
        timing.join();

        assertEquals(new TimerPrecision.Granted(true, TimerPrecision.SLICE_NANOS), granted.get());
        assertEquals(Long.toString(TimerPrecision.SLICE_NANOS), after.get().get("se.slice"), after.get().toString());
        assertTrue(Long.parseLong(before.get().get("se.slice")) > TimerPrecision.SLICE_NANOS, before.get().toString());
        assertEquals("1", slack.get());
        // the same policy and priority (nice) as before: a shorter slice, not a higher priority
        assertEquals(before.get().get("policy"), after.get().get("policy"));
        assertEquals(before.get().get("prio"), after.get().get("prio"));
        assertEquals(before.get().get("se.slice"), child.get().get("se.slice"), "a thread started afterwards: " + child.get());
        assertEquals(before.get().get("prio"), child.get().get("prio"));
    }

    private static Map<String, String> sched() {
        return read("/proc/thread-self/sched").lines().filter(l -> l.contains(":") && !l.contains("#threads"))
                .map(l -> l.split(":", 2)).collect(Collectors.toMap(p -> p[0].trim(), p -> p[1].trim(), (a, b) -> a));
    }

    private static String read(String path) {
        try {
            return Files.readString(Path.of(path)).trim();
        } catch (Exception e) {
            throw new AssertionError(path, e);
        }
    }

    private static boolean kernelAtLeast(int major, int minor) {
        String[] v = read("/proc/sys/kernel/osrelease").split("[.-]");
        int ma = Integer.parseInt(v[0]);
        int mi = Integer.parseInt(v[1]);
        return ma > major || (ma == major && mi >= minor);
    }
}
