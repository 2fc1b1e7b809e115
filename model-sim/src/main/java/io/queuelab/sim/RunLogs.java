package io.queuelab.sim;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.log.RunDirectory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/** What the simulator takes from a measured (or simulated) run: arrival instants and service times. */
final class RunLogs {
    private RunLogs() {
    }

    /** The intended instant (ns after the anchor) of every record that has one, in log order. */
    static long[] intendedInstants(Path runDir) throws IOException {
        return collect(runDir, log -> log.intended());
    }

    /** completed - sent (ns) of every successful record: the service times a generator measured. */
    static long[] serviceTimes(Path runDir) throws IOException {
        return collect(runDir, log -> log.outcome() == LogFormat.OK && log.sent() != LogFormat.NONE
                && log.completed() != LogFormat.NONE ? log.completed() - log.sent() : LogFormat.NONE);
    }

    /** One value per record of the current cursor position; NONE values are skipped. */
    private interface Field {
        long of(RequestLogReader log);
    }

    private static long[] collect(Path runDir, Field field) throws IOException {
        long[] values = new long[1 << 16];
        int n = 0;
        try (RequestLogReader log = RunDirectory.open(runDir).openLog()) {
            while (log.next()) {
                long value = field.of(log);
                if (value == LogFormat.NONE) {
                    continue;
                }
                if (n == values.length) {
                    values = Arrays.copyOf(values, 2 * n);
                }
                values[n++] = value;
            }
        }
        return Arrays.copyOf(values, n);
    }
}
