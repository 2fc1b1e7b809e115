package io.queuelab.fit;

import io.queuelab.core.telemetry.HostResourceSampler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The server-side files a measured run of a write workload has beside its log, written for a run
 * whose server is emulated: the server process's cpu over the run ({@code host-resources.csv},
 * two samples), and its commits (Com_update) and log fsyncs (Innodb_data_fsyncs) over the run
 * ({@code server-status.csv}, two samples {@code seconds} apart), as the group-commit candidate
 * reads them (ServerWork, LogCounters).
 */
final class ServerCounters {
    private ServerCounters() {
    }

    static void write(Path run, double cpuSeconds, long commits, long fsyncs, double seconds) throws IOException {
        Files.writeString(run.resolve(HostResourceSampler.FILE_NAME), HostResourceSampler.HEADER + "\n"
                + "1000,server,9,0,,,,,,,1\n2000,server,9," + Math.round(cpuSeconds * 1e9) + ",,,,,,,1\n");
        Files.writeString(run.resolve("server-status.csv"), "epoch_ns,Com_update,Innodb_data_fsyncs\n"
                + "1000000000,5,7\n" + (1_000_000_000L + Math.round(seconds * 1e9)) + "," + (5 + commits) + "," + (7 + fsyncs) + "\n");
    }
}
