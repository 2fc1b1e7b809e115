package io.queuelab.core.run;

import java.nio.file.Path;

/**
 * Something that runs beside a load for its whole length, writing into the run directory, such as
 * server telemetry sampled on the generator's clock. Started just before the schedule starts,
 * closed after the last request is logged and before the manifest is marked complete.
 */
@FunctionalInterface
public interface RunCompanion {
    /** Starts; the returned handle is closed at the end of the run. */
    AutoCloseable start(Path runDirectory) throws Exception;

    RunCompanion NONE = dir -> () -> { };

    /** This companion and {@code other} beside it; closed in reverse order of starting. */
    default RunCompanion and(RunCompanion other) {
        RunCompanion first = this;
        return dir -> {
            AutoCloseable a = first.start(dir);
            AutoCloseable b;
            try {
                b = other.start(dir);
            } catch (Exception e) {
                a.close();
                throw e;
            }
            return () -> {
                try (a; b) {
                    // both closed, b first, even when one fails
                }
            };
        };
    }
}
