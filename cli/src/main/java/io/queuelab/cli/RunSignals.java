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
 * not complete. Outside a run the JVM's own handling applies.
 */
final class RunSignals implements AutoCloseable {
    /** SIGHUP (the terminal closed, an ssh session dropped) ends a run as Ctrl-C does, not as a crash. */
    private static final Map<String, Integer> EXIT_CODES = Map.of("INT", 130, "TERM", 143, "HUP", 129);

    private final RunStop stop = new RunStop();
    private final Map<Signal, SignalHandler> previous = new LinkedHashMap<>();
    private final PrintWriter err;
    private volatile String received;

    private RunSignals(PrintWriter err) {
        this.err = err;
    }

    static RunSignals install(PrintWriter err) {
        RunSignals s = new RunSignals(err);
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

    private void handle(Signal signal) {
        if (received != null) {
            err.println("queuelab: SIG" + signal.getName() + " again: exiting now; the run directory holds every record "
                    + "written so far and is marked incomplete");
            err.flush();
            Runtime.getRuntime().halt(EXIT_CODES.getOrDefault(signal.getName(), 130));
        }
        received = signal.getName();
        err.println("queuelab: SIG" + signal.getName() + ": stopping the run (draining, then writing the manifest); "
                + "send it again to exit at once");
        err.flush();
        stop.request("interrupted by SIG" + signal.getName());
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
