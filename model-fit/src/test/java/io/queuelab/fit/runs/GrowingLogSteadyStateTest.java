package io.queuelab.fit.runs;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The steady-state analysis of a run whose log its writer is still appending to (a summary of a run in progress). */
class GrowingLogSteadyStateTest {
    @TempDir
    Path dir;

    @Test
    void aLogThatGrowsBetweenThePassesIsJudgedOnWhatTheFirstPassRead() throws Exception {
        Path growing = Files.createDirectory(dir.resolve("growing"));
        Path firstPart = Files.createDirectory(dir.resolve("first-part"));
        try (RequestLogWriter log = RequestLogWriter.create(growing.resolve(LogFormat.FILE_NAME), 0);
             RequestLogWriter same = RequestLogWriter.create(firstPart.resolve(LogFormat.FILE_NAME), 0)) {
            for (int i = 0; i < 2_000; i++) {
                append(log, i, 0);
                append(same, i, 0);
            }
            log.flush();
            same.flush();
            // the writer goes on while the analysis reads: later requests of phase 0, then the first of phase 1,
            // neither in the spans the first pass measured
            SteadyState judged = SteadyState.of(growing, () -> {
                for (int i = 2_000; i < 2_500; i++) {
                    append(log, i, 0);
                }
                for (int i = 2_500; i < 2_600; i++) {
                    append(log, i, 1);
                }
                log.flush();
            });
            SteadyState expected = SteadyState.of(firstPart);
            assertEquals(1, judged.phases().size(), judged.phases().toString());
            assertEquals(expected.phases(), judged.phases());
            assertEquals(2_000, judged.phases().get(0).ok());
        }
    }

    /** Request {@code i}: due at i ms, answered 0.5 ms (1.5 ms every tenth) later, ok, outside warm-up. */
    private static void append(RequestLogWriter log, int i, int phase) throws IOException {
        long due = 1_000_000L * i;
        log.append(due, due, due, due + (i % 10 == 0 ? 1_500_000 : 500_000), 0, 0, 0, LogFormat.OK, phase, 0);
    }
}
