package io.queuelab.cli;

import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.telemetry.CpuSpeed;
import io.queuelab.core.telemetry.ResourceUse;
import io.queuelab.fit.runs.ResourceTable;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * A run's host resources as the summary prints them, and beside their network column (the
 * network namespace's counters, which count every process on it: on one machine all loopback
 * traffic) the server's own count of its traffic with its clients, when the run has it; then the
 * speed of the server's own cpus during the run ({@link CpuSpeed}), when they were probed.
 */
final class ResourceLines {
    private ResourceLines() {
    }

    /** Prints nothing for a run without host resources and without a cpu-speed file. */
    static void print(PrintWriter out, Path run) throws IOException {
        Optional<ResourceUse> use = ResourceUse.read(run);
        if (use.isPresent()) {
            out.print(use.get().render());
            Optional<ResourceTable.ServerTraffic> traffic = ResourceTable.serverTraffic(run);
            out.print(traffic.map(t -> String.format(Locale.ROOT, "  net/s above is the network namespace's (every process on it); the"
                    + " server's traffic with its clients: %.3f Mbit/s (%s)%n", t.bytesPerSecond() * 8 / 1e6, t.source()))
                    .orElse("  net/s above is the network namespace's: every process on it, on one machine all loopback traffic\n"));
        }
        Optional<Manifest> manifest;
        try {
            manifest = Optional.of(Manifest.read(run));
        } catch (IOException noManifest) {
            manifest = Optional.empty(); // the speed is then taken over the whole run, warm-up included
        }
        try {
            CpuSpeed.read(run, manifest).ifPresent(speed -> out.print(speed.render()));
        } catch (IOException unreadable) {
            out.println("  server cpu speed unreadable: " + unreadable.getMessage());
        }
    }
}
