package io.queuelab.cli;

import io.queuelab.core.run.RunStop;

import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Ctrl-C (SIGINT), SIGTERM and SIGHUP while a run is under way. The first one asks the run to stop
 * ({@link RunStop}): it ends as at its planned end, with the drain, every record and a complete
 * manifest that says when and why, and the command then exits 130 (SIGINT), 143 (SIGTERM) or 129
 * (SIGHUP). A
 * second one exits at once: the log then holds every record flushed so far (at most the last
 * 200 ms are missing, and the reader reports the torn tail) and the manifest says the run did
 * not complete. Outside a run the JVM's own handling applies. {@code load} installs the same
 * handling with its own words and a hook that cancels its statement ({@link LoadCommand}).
 */
final class RunSignals implements AutoCloseable {
    /** SIGHUP (the terminal closed, an ssh session dropped) ends a run as Ctrl-C does, not as a crash. */
    private static final Map<String, Integer> EXIT_CODES = Map.of("INT", 130, "TERM", 143, "HUP", 129);

    private final RunStop stop = new RunStop();
    private final Map<Signal, SignalHandler> previous = new LinkedHashMap<>();
    private final PrintWriter err;
    private final String stopping;
    private final String exitingNow;
    private final java.util.function.Consumer<String> onStop;
    private volatile String received;
    private final long installedNanos = System.nanoTime();

    private RunSignals(PrintWriter err, String stopping, String exitingNow, java.util.function.Consumer<String> onStop) {
        this.err = err;
        this.stopping = stopping;
        this.exitingNow = exitingNow;
        this.onStop = onStop;
    }

    static RunSignals install(PrintWriter err) {
        return install(err, "stopping the run (draining, then writing the manifest)",
                "the run directory holds every record written so far and is marked incomplete", why -> { });
    }

    /**
     * The same handling for another command (a load): {@code stopping} says what the first signal
     * does, {@code exitingNow} what a second one leaves; {@code onStop} gets the reason
     * ("interrupted by SIGINT") on the signal's thread, besides {@link #stop()}.
     */
    static RunSignals install(PrintWriter err, String stopping, String exitingNow, java.util.function.Consumer<String> onStop) {
        RunSignals s = new RunSignals(err, stopping, exitingNow, onStop);
        for (String name : EXIT_CODES.keySet()) {
            try {
                Signal signal = new Signal(name);
                s.previous.put(signal, Signal.handle(signal, s::handle));
            } catch (IllegalArgumentException e) {
                // a platform without this signal: nothing to handle
            }
        }
        return s;
    }

    /**
     * Ctrl-C, SIGTERM or SIGHUP while {@code command} waits for its server, or for anything it does
     * not own ({@code waiting}: "while the embedded server was starting", "while connecting to the
     * server", k8s collect's "while waiting for the pods of ..."): one line saying so and
     * that {@code nothing} (what was not done), then the JVM's exit with the signal's code, whose
     * shutdown hooks stop an embedded server that is starting before the process ends (see
     * EmbeddedMariaDb). Before, the JVM's own handling exited 130 with nothing said. Closed
     * (handlers restored) once the server is there.
     */
    static RunSignals whileWaitingForServer(PrintWriter err, String command, String waiting, String nothing) {
        RunSignals s = new RunSignals(err, null, null, why -> { });
        for (String name : EXIT_CODES.keySet()) {
            try {
                Signal signal = new Signal(name);
                s.previous.put(signal, Signal.handle(signal, received -> {
                    if (s.received != null) {
                        return; // again: the exit under way stops the server within its grace
                    }
                    s.received = received.getName();
                    err.printf(java.util.Locale.ROOT, "queuelab: %s interrupted by SIG%s %s (after %.1f s): %s%n", command,
                            received.getName(), waiting, s.secondsSinceInstalled(), nothing);
                    err.flush();
                    System.exit(EXIT_CODES.getOrDefault(received.getName(), 130)); // runs the hooks that stop the server
                }));
            } catch (IllegalArgumentException e) {
                // a platform without this signal: nothing to handle
            }
        }
        return s;
    }

    /**
     * After {@link #whileWaitingForServer} caught a signal, the JVM is exiting on it: the caller's
     * thread waits here for the end rather than go on or report the server's start failing under
     * the exit (a second line, after the one that said why).
     */
    void awaitExitIfInterrupted() {
        while (interrupted()) {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                // the exit ends this thread; nothing else to do here
            }
        }
    }

    private void handle(Signal signal) {
        if (received != null) {
            err.println("queuelab: SIG" + signal.getName() + " again: exiting now; " + exitingNow);
            err.flush();
            Runtime.getRuntime().halt(EXIT_CODES.getOrDefault(signal.getName(), 130));
        }
        received = signal.getName();
        err.println("queuelab: SIG" + signal.getName() + ": " + stopping + "; send it again to exit at once");
        err.flush();
        stop.request("interrupted by SIG" + signal.getName());
        onStop.accept("interrupted by SIG" + signal.getName());
    }

    /** Seconds since the handlers were installed. */
    double secondsSinceInstalled() {
        return (System.nanoTime() - installedNanos) / 1e9;
    }

    RunStop stop() {
        return stop;
    }

    /** True once a signal asked the run to stop. */
    boolean interrupted() {
        return received != null;
    }

    int exitCode() {
        return received == null ? 0 : EXIT_CODES.getOrDefault(received, 130);
    }

    @Override
    public void close() {
        previous.forEach(Signal::handle);
    }
}
