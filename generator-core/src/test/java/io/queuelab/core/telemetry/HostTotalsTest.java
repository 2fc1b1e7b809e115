package io.queuelab.core.telemetry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The whole machine read from the real /proc and /sys, and the parsing of known lines. */
class HostTotalsTest {
    @Test
    void theMachinesBusyTimeGrowsByAtLeastTheCpuThisThreadBurnt() {
        ProcessResources before = HostTotals.read().orElseThrow();
        long threadCpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        double sink = 0;
        while (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - threadCpu < 200_000_000L) {
            sink += Math.sqrt(sink + 1);
        }
        ProcessResources after = HostTotals.read().orElseThrow();
        assertTrue(sink > 0);
        // 200 ms of this thread's CPU are busy time of the machine (10 ms ticks)
        assertTrue(after.cpuNanos() - before.cpuNanos() >= 150_000_000L, before + " -> " + after);
        long client = ProcessResources.read(ProcessHandle.current().pid(), null).orElseThrow().rssBytes();
        assertTrue(after.rssBytes() > client, "the machine's memory in use holds this JVM's: " + after.rssBytes() + " vs " + client);
        assertEquals(ProcessResources.UNKNOWN, after.dataDirBytes());
    }

    @Test
    void busyTimeLeavesIdleAndIowaitOut() {
        // user nice system idle iowait irq softirq steal guest guest_nice
        assertEquals((100 + 2 + 30 + 4 + 5 + 6) * 10_000_000L,
                HostTotals.busyNanos(List.of("cpu  100 2 30 9999 888 4 5 6 0 0", "cpu0 100 2 30 9999 888 4 5 6 0 0")));
    }

    @Test
    void onlyHardwareBlockDevicesCountSoNothingIsCountedTwice(@TempDir Path sys) throws Exception {
        Path vda = Files.createDirectories(sys.resolve("vda"));
        Files.createDirectories(vda.resolve("device"));
        Files.writeString(vda.resolve("stat"), "  100 0 4000 50 200 0 6000 70 0 0 0\n");
        Path loop = Files.createDirectories(sys.resolve("loop0"));
        Files.writeString(loop.resolve("stat"), "  1 0 999 1 1 0 999 1 0 0 0\n");
        assertArrayEquals(new long[] {4000 * 512L, 6000 * 512L}, HostTotals.diskBytes(sys));
        assertArrayEquals(new long[] {ProcessResources.UNKNOWN, ProcessResources.UNKNOWN}, HostTotals.diskBytes(sys.resolve("none")));
    }

    @Test
    void memoryInUseIsTotalLessAvailable(@TempDir Path dir) throws Exception {
        Path meminfo = dir.resolve("meminfo");
        Files.writeString(meminfo, "MemTotal:       4000000 kB\nMemFree:         100000 kB\nMemAvailable:   1000000 kB\n");
        assertEquals(3_000_000L * 1024, HostTotals.memoryInUse(meminfo));
    }
}
