package io.queuelab.cli;

import io.queuelab.core.telemetry.ResourceUse;
import io.queuelab.reports.data.ResourceTable;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * A run's host resources as the summary prints them, and beside their network column (the
 * network namespace's counters, which count every process on it: on one machine all loopback
 * traffic) the server's own count of its traffic with its clients, when the run has it.
 */
final class ResourceLines {
    private ResourceLines() {
    }

    /** Prints nothing for a run without host resources. */
    static void print(PrintWriter out, Path run) throws IOException {
        Optional<ResourceUse> use = ResourceUse.read(run);
        if (use.isEmpty()) {
            return;
        }
        out.print(use.get().render());
        Optional<ResourceTable.ServerTraffic> traffic = ResourceTable.serverTraffic(run);
        out.print(traffic.map(t -> String.format(Locale.ROOT, "  net/s above is the network namespace's (every process on it); the"
                + " server's traffic with its clients: %.3f Mbit/s (%s)%n", t.bytesPerSecond() * 8 / 1e6, t.source()))
                .orElse("  net/s above is the network namespace's: every process on it, on one machine all loopback traffic\n"));
    }
}
