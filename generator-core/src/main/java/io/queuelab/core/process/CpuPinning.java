package io.queuelab.core.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Pins a process, every thread of it, to a set of CPUs: util-linux's {@code taskset -a -p -c}
 * (sched_setaffinity on each thread; Java has no call of its own). Threads the process starts
 * later inherit the mask of the thread that starts them, so a process pinned once stays pinned.
 *
 * <p>Guarantee: {@link #pin} returns normally only when the kernel's own view of every thread of
 * the process afterwards ({@link CpuSet#ofEachThread(long)}) is the set asked for; any other outcome (no taskset, a
 * container that forbids the call, a process that ended) is an {@link IOException} whose message
 * says why in one line, so the caller can record "not pinned" with the reason.
 */
public final class CpuPinning {
    private static final long TIMEOUT_SECONDS = 10;
    /** Calls of taskset before a process whose threads come and go is said not to be pinned. */
    private static final int ATTEMPTS = 3;

    private CpuPinning() {
    }

    /** Pins every thread of {@code pid} to {@code cpus}; returns once the kernel reports each of them on {@code cpus}. */
    public static void pin(long pid, CpuSet cpus) throws IOException {
        // taskset -a lists the threads, then sets each: one that ends in between fails the whole call (ESRCH), and one
        // that a not-yet-pinned thread starts in between inherits the old set; either way, try again
        for (int attempt = 1; ; attempt++) {
            try {
                taskset(List.of("-a", "-p", "-c", cpus.toString(), Long.toString(pid)), "pid " + pid, cpus);
                requireEachThreadOn(pid, cpus);
                return;
            } catch (IOException e) {
                if (attempt == ATTEMPTS || !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    throw e;
                }
            }
        }
    }

    /** The kernel's view of every thread of {@code pid}, not only its main thread's (/proc/PID/status). */
    private static void requireEachThreadOn(long pid, CpuSet cpus) throws IOException {
        for (java.util.Map.Entry<Long, CpuSet> thread : CpuSet.ofEachThread(pid).entrySet()) {
            if (!thread.getValue().equals(cpus)) {
                throw new IOException("thread " + thread.getKey() + " of pid " + pid + " runs on cpus " + thread.getValue()
                        + " after taskset asked for " + cpus);
            }
        }
    }

    /**
     * Pins the calling thread alone (not its process) to {@code cpus}: its kernel thread id from
     * {@code /proc/thread-self}, {@code taskset -p} without {@code -a}. Threads it starts later inherit the set.
     */
    public static void pinThisThread(CpuSet cpus) throws IOException {
        String tid = Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString(); // "PID/task/TID"
        taskset(List.of("-p", "-c", cpus.toString(), tid), "thread " + tid, cpus);
        CpuSet now = CpuSet.ofThisThread();
        if (!now.equals(cpus)) {
            throw new IOException("thread " + tid + " runs on cpus " + now + " after taskset asked for " + cpus);
        }
    }

    private static void taskset(List<String> arguments, String what, CpuSet cpus) throws IOException {
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("cannot pin a process to no cpu");
        }
        List<String> command = new java.util.ArrayList<>(List.of("taskset"));
        command.addAll(arguments);
        BoundedCommand.Result taskset;
        try {
            taskset = BoundedCommand.run(command, java.time.Duration.ofSeconds(TIMEOUT_SECONDS));
        } catch (IOException e) {
            throw new IOException(e.getMessage().startsWith("taskset cannot be run")
                    ? "taskset (util-linux) cannot be run" + e.getMessage().substring("taskset cannot be run".length()) : e.getMessage());
        }
        if (taskset.exitCode() != 0) {
            throw new IOException("taskset could not pin " + what + " to cpus " + cpus + ": " + taskset.lastLine());
        }
    }
}
