package io.queuelab.core.process;

import java.io.IOException;
import java.util.List;

/**
 * Pins a process, every thread of it, to a set of CPUs: util-linux's {@code taskset -a -p -c}
 * (sched_setaffinity on each thread; Java has no call of its own). Threads the process starts
 * later inherit the mask of the thread that starts them, so a process pinned once stays pinned.
 *
 * <p>Guarantee: {@link #pin} returns normally only when the kernel's own view of the process
 * afterwards ({@link CpuSet#of(long)}) is the set asked for; any other outcome (no taskset, a
 * container that forbids the call, a process that ended) is an {@link IOException} whose message
 * says why in one line, so the caller can record "not pinned" with the reason.
 */
public final class CpuPinning {
    private static final long TIMEOUT_SECONDS = 10;

    private CpuPinning() {
    }

    /** Pins every thread of {@code pid} to {@code cpus}. */
    public static void pin(long pid, CpuSet cpus) throws IOException {
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("cannot pin a process to no cpu");
        }
        BoundedCommand.Result taskset;
        try {
            taskset = BoundedCommand.run(List.of("taskset", "-a", "-p", "-c", cpus.toString(), Long.toString(pid)),
                    java.time.Duration.ofSeconds(TIMEOUT_SECONDS));
        } catch (IOException e) {
            throw new IOException(e.getMessage().startsWith("taskset cannot be run")
                    ? "taskset (util-linux) cannot be run" + e.getMessage().substring("taskset cannot be run".length()) : e.getMessage());
        }
        if (taskset.exitCode() != 0) {
            throw new IOException("taskset could not pin pid " + pid + " to cpus " + cpus + ": " + taskset.lastLine());
        }
        CpuSet now = CpuSet.of(pid);
        if (!now.equals(cpus)) {
            throw new IOException("pid " + pid + " runs on cpus " + now + " after taskset asked for " + cpus);
        }
    }
}
