package io.queuelab.core.process;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Server processes that queuelab starts: stopped with a deadline, and tied to this JVM's life.
 *
 * <p>Guarantees: {@link #terminate} never waits without a limit: SIGTERM, then SIGKILL after the
 * grace period (a SIGSTOPped process cannot act on SIGTERM but dies on SIGKILL), then at most
 * {@link #KILL_WAIT} more. {@link #tieToThisJvm} starts a watchdog that stops the child when this
 * JVM ends in any way, SIGKILL included: the watchdog reads a pipe whose only writer is this JVM,
 * and the kernel closes that pipe when the JVM dies. Processes are recognised by an argument of
 * their command line (a pid alone may have been recycled); no process but the server itself (and
 * the watchdog, whose command line names it as one) ever carries that argument, so that "no process
 * with the marker" means "no server".
 */
public final class ChildProcesses {
    /** How long a process may take to disappear after SIGKILL before we give up on it. */
    public static final Duration KILL_WAIT = Duration.ofSeconds(10);

    /*
     * The watchdog: blocks on stdin until EOF (this JVM closed it or died), then stops the child if
     * it still runs with its marker argument. INT and HUP are ignored so that a Ctrl-C or a closed
     * terminal, which reach the whole process group, do not remove it before the JVM's own clean-up.
     * With "-" for the pid it stops every process whose command line has the marker (a server tied
     * before it was started, whose pid is not known yet), watchdogs excepted: their own command
     * lines hold the marker too.
     */
    private static final String WATCHDOG = String.join("\n",
            "trap '' INT HUP",
            "p=$1; m=$2; g=$3",
            // no grep here: its own command line would hold the marker
            "has() { tr '\\000' '\\n' < /proc/$1/cmdline 2>/dev/null | { while IFS= read -r a; do [ \"$a\" = \"$2\" ] && exit 0; done; exit 1; }; }",
            "ours() { if [ \"$p\" != - ]; then has $p \"$m\" && echo $p; return; fi",
            // one grep over every command line first; it reads the marker from its stdin: with the marker
            // among its arguments it was itself, while it ran, a process that holds the server's marker
            // (a check of "no server left" saw it)
            "  for f in $(printf '%s\\n' \"$m\" | grep -alsF -f - /proc/[0-9]*/cmdline); do q=${f#/proc/}; q=${q%/cmdline};",
            "    has $q \"$m\" && ! has $q queuelab-watchdog && echo $q; done; }",
            // "done" is the JVM's word that it stopped the server itself: a later server of the same marker is not ours
            "while read -r l; do [ \"$l\" = done ] && exit 0; done",
            "s=$(ours); [ -n \"$s\" ] || exit 0",
            "alive() { for q in $s; do has $q \"$m\" && echo $q; done; }",
            "kill -TERM $s 2>/dev/null",
            "i=0",
            "while [ $i -lt $((g * 10)) ] && [ -n \"$(alive)\" ]; do sleep 0.1; i=$((i + 1)); done",
            "k=$(alive); [ -n \"$k\" ] && kill -KILL $k 2>/dev/null",
            "exit 0");

    private static final String WATCHDOG_NAME = "queuelab-watchdog";

    private ChildProcesses() {
    }

    /** How {@link #terminate} ended a process. */
    public enum Ending {
        /** it was gone already */
        NOT_RUNNING,
        /** it exited within the grace period after SIGTERM */
        TERMINATED,
        /** it ignored SIGTERM for the grace period (frozen or stuck) and was killed */
        KILLED
    }

    /**
     * Stops {@code process}: SIGTERM, then SIGKILL after {@code grace}.
     *
     * @throws IOException when the signal cannot be sent (another user's process) or the process
     *                     is still there {@link #KILL_WAIT} after SIGKILL
     */
    public static Ending terminate(ProcessHandle process, Duration grace) throws IOException {
        if (!process.isAlive()) {
            return Ending.NOT_RUNNING;
        }
        if (!process.destroy() && process.isAlive()) {
            throw new IOException("cannot signal pid " + process.pid() + " (not permitted)");
        }
        if (awaitExit(process, grace)) {
            return Ending.TERMINATED;
        }
        process.destroyForcibly();
        if (!awaitExit(process, KILL_WAIT)) {
            throw new IOException("pid " + process.pid() + " is still there " + KILL_WAIT.toSeconds() + " s after SIGKILL");
        }
        return Ending.KILLED;
    }

    /** True when the process is gone (or a zombie, which holds no resources) within {@code timeout}. */
    public static boolean awaitExit(ProcessHandle process, Duration timeout) {
        try {
            process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return !isRunning(process);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !isRunning(process);
        } catch (ExecutionException e) {
            return !isRunning(process);
        }
    }

    /**
     * The running processes (not zombies) whose command line contains {@code argument} exactly,
     * e.g. {@code --datadir=/x/data}; only processes of users whose command lines we may read; never a
     * watchdog.
     */
    public static List<ProcessHandle> withArgument(String argument) {
        // a watchdog's own command line holds its child's marker: it is not the child
        return ProcessHandle.allProcesses()
                .filter(h -> h.info().arguments().map(args -> Arrays.asList(args).contains(argument)
                        && !Arrays.asList(args).contains(WATCHDOG_NAME)).orElse(false))
                .toList();
    }

    private static boolean isRunning(ProcessHandle process) {
        // a child of a JVM that died is re-parented; where nobody reaps it, it stays a zombie without arguments
        return process.isAlive() && process.info().arguments().isPresent();
    }

    /**
     * Starts a watchdog that stops {@code child} (SIGTERM, SIGKILL after {@code grace}) when this
     * JVM ends or the returned handle is closed, provided the child's command line still contains
     * {@code marker}. Close it after stopping the child normally.
     */
    public static Watchdog tieToThisJvm(ProcessHandle child, String marker, Duration grace) throws IOException {
        return watchdog(Long.toString(child.pid()), marker, grace, false);
    }

    /**
     * As {@link #tieToThisJvm(ProcessHandle, String, Duration)}, for a child not started yet: when
     * this JVM ends, every process whose command line contains {@code marker} is stopped. Tie it
     * before starting a server whose start takes seconds, so that a signal during the start does not
     * leave the server running; the marker must be unique to the server (a data directory).
     * {@link Watchdog#close()} tells it that the server was stopped and it exits without a look
     * (a server started after with the same marker is not its own).
     */
    public static Watchdog tieToThisJvm(String marker, Duration grace) throws IOException {
        return watchdog("-", marker, grace, true);
    }

    private static Watchdog watchdog(String pid, String marker, Duration grace, boolean stoppedOnClose) throws IOException {
        Process watchdog = new ProcessBuilder("/bin/sh", "-c", WATCHDOG, WATCHDOG_NAME,
                pid, marker, Long.toString(Math.max(1, grace.toSeconds())))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        return new Watchdog(watchdog, stoppedOnClose);
    }

    /**
     * A running watchdog; {@link #close()} lets it check its child once more and exit (one tied to
     * a marker exits at once: its owner stopped the server).
     */
    public static final class Watchdog implements AutoCloseable {
        private final Process process;
        private final boolean stoppedOnClose;

        private Watchdog(Process process, boolean stoppedOnClose) {
            this.process = process;
            this.stoppedOnClose = stoppedOnClose;
        }

        /** The watchdog's own process (tests kill it to make an orphan on purpose). */
        public ProcessHandle handle() {
            return process.toHandle();
        }

        private boolean closed;

        /** Idempotent; safe from a shutdown hook and the owner's thread at once. */
        @Override
        public synchronized void close() {
            if (closed) {
                return;
            }
            closed = true;
            try (OutputStream pipe = process.getOutputStream()) {
                if (stoppedOnClose) {
                    pipe.write("done\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                }
                pipe.flush();
            } catch (IOException alreadyClosed) {
                // the watchdog is gone; nothing to tell it
            }
        }
    }
}
