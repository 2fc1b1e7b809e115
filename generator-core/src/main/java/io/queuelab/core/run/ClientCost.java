package io.queuelab.core.run;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * The instrument's own cost, which on a machine shared with the server is taken from the server:
 * the client process's CPU time and garbage collection over the measured part of the run (from the
 * end of the warm-up phases to the end of the drain), its share of the machine's cores, and the
 * whole process's CPU since the JVM started (start-up, class loading and the JIT included, as
 * {@code /usr/bin/time} would count it).
 *
 * <p>CPU is the process's (every thread: schedule, workers, logger, driver, JIT, GC), read from the
 * operating system, never estimated.
 */
final class ClientCost {
    /** One reading of the process's counters. */
    record Reading(long wallNanos, long cpuNanos, long gcMillis, long gcCount) {
        static Reading now() {
            long time = 0;
            long count = 0;
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                time += Math.max(0, gc.getCollectionTime());
                count += Math.max(0, gc.getCollectionCount());
            }
            return new Reading(System.nanoTime(), processCpuNanos(), time, count);
        }
    }

    /**
     * The cost over the measured part.
     *
     * @param cpuSeconds        process CPU over the measured part
     * @param wallSeconds       its wall-clock length
     * @param cores             the cores this process may use (all the machine's, unless it was pinned)
     * @param gcSeconds         GC pause time over the measured part
     * @param gcCount           collections over the measured part
     * @param processCpuSeconds the process's CPU since the JVM started
     */
    record Measured(double cpuSeconds, double wallSeconds, int cores, double gcSeconds, long gcCount,
                    double processCpuSeconds) {
        /**
         * Whether this process was given fewer CPUs than the machine has online (pinned, e.g. by
         * {@code --cpu-split}): its CPU then comes from its own cores, not from a server's.
         */
        boolean pinned() {
            try {
                String online = java.nio.file.Files.readString(java.nio.file.Path.of("/sys/devices/system/cpu/online"));
                return cores < io.queuelab.core.process.CpuSet.parse(online).size();
            } catch (java.io.IOException | RuntimeException unknown) {
                return false;
            }
        }

        /** The share of the CPUs this process may use that the client used, 0..1. */
        double machineShare() {
            return wallSeconds <= 0 ? 0 : cpuSeconds / (wallSeconds * cores);
        }

        static Measured between(Reading from, Reading to) {
            return new Measured((to.cpuNanos - from.cpuNanos) / 1e9, (to.wallNanos - from.wallNanos) / 1e9,
                    affinity(), (to.gcMillis - from.gcMillis) / 1e3, to.gcCount - from.gcCount, to.cpuNanos / 1e9);
        }

        /**
         * The CPUs this process may run on (its affinity), not availableProcessors(): a cgroup's CPU
         * quota lowers the latter without pinning anything, and {@link #pinned} would then say pinned.
         */
        private static int affinity() {
            try {
                return io.queuelab.core.process.CpuSet.ofThisThread().size();
            } catch (java.io.IOException | RuntimeException unknown) {
                return Runtime.getRuntime().availableProcessors();
            }
        }
    }

    private volatile Reading measuredFrom;
    private Thread sampler;

    /** Takes the first reading at {@code instant} of the run clock (now, if it has passed). */
    void startAt(RunClock clock, long instant) {
        if (instant <= clock.now()) {
            measuredFrom = Reading.now();
            return;
        }
        sampler = new Thread(() -> {
            if (clock.awaitInstant(instant, 0, () -> Thread.currentThread().isInterrupted())) {
                measuredFrom = Reading.now();
            }
        }, "queuelab-cost");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** The cost from the first reading until now (from now, if the first reading never came). */
    Measured stop() {
        Reading end = Reading.now();
        Reading from = measuredFrom;
        if (sampler != null) {
            sampler.interrupt();
        }
        return Measured.between(from == null ? end : from, end);
    }

    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            long cpu = os.getProcessCpuTime();
            if (cpu >= 0) {
                return cpu;
            }
        }
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }
}
