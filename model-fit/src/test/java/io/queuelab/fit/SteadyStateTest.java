package io.queuelab.fit;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogWriter;
import io.queuelab.fit.runs.SteadyState;
import io.queuelab.sim.Estimate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongToDoubleFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Logs written by hand with known response-time processes; the steady-state analysis must see them. */
class SteadyStateTest {
    private static final double MEAN = 0.002;
    private static final long SECOND = 1_000_000_000L;

    @TempDir
    Path tmp;

    /**
     * One request every {@code gap} ns for {@code seconds} s in phase {@code phase}, response time
     * exponential with the mean {@code meanAt(t)} seconds (t in ns from the phase's start).
     */
    private static void phase(RequestLogWriter log, int phase, long from, int seconds, long gap, long seed,
                              LongToDoubleFunction meanAt) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        for (long t = 0; t < seconds * SECOND; t += gap) {
            long response = (long) (-Math.log(1 - random.nextDouble()) * meanAt.applyAsDouble(t) * 1e9);
            log.append(from + t, from + t, from + t, from + t + response, 0, 0, 0, LogFormat.OK, phase, 0);
        }
    }

    private Path log(String name, IoWriter body) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve(name));
        try (RequestLogWriter log = RequestLogWriter.create(dir.resolve(LogFormat.FILE_NAME), 0)) {
            log.defineOperation(0, "select");
            body.write(log);
        }
        return dir;
    }

    interface IoWriter {
        void write(RequestLogWriter log) throws IOException;
    }

    /**
     * The truth lies within three half-widths of the estimate (a 95 % interval misses one run in
     * twenty; at three half-widths the seeded data would have to be a 1-in-10,000 draw), and the
     * interval is not so wide that this says nothing.
     */
    private static void assertWithin(Estimate e, double truth) {
        assertTrue(Math.abs(e.value() - truth) <= 3 * e.halfWidth(), () -> e + " vs " + truth);
        assertTrue(e.halfWidth() < 0.1 * truth, e::toString);
    }

    @Test
    void aStationaryPhaseIsSteadyAndItsIntervalsCoverTheTrueValues() throws Exception {
        Path run = log("steady", log -> phase(log, 0, 0, 20, 1_000_000, 7, t -> MEAN));
        SteadyState.Phase p = SteadyState.of(run).phases().get(0);
        assertEquals(20_000, p.ok());
        assertFalse(p.drifting());
        assertTrue(p.truncationSeconds() < 2, "at most a tenth of the phase: " + p);
        assertWithin(p.mean(), MEAN);
        assertWithin(p.p50(), MEAN * Math.log(2));
        assertWithin(p.p99(), MEAN * Math.log(100));
        assertTrue(p.mean().relativeHalfWidth() < 0.05, p.mean()::toString);
        assertEquals(SteadyState.SECTIONS, p.mean().samples());
    }

    @Test
    void anInitialTransientIsCutAndADriftIsNoSteadyState() throws Exception {
        // the first 4 s of 20 at ten times the response time: a warm-up too short
        Path transient_ = log("transient", log -> phase(log, 0, 0, 20, 1_000_000, 8, t -> t < 4 * SECOND ? 10 * MEAN : MEAN));
        SteadyState.Phase cut = SteadyState.of(transient_).phases().get(0);
        assertFalse(cut.drifting());
        assertTrue(cut.truncationSeconds() > 3.5 && cut.truncationSeconds() < 5, "about the 4 s transient: " + cut);

        // an overloaded server: the response time grows all along
        Path overload = log("overload", log -> phase(log, 0, 0, 20, 1_000_000, 9, t -> MEAN + 0.05 * t / SECOND));
        SteadyState.Phase drift = SteadyState.of(overload).phases().get(0);
        assertTrue(drift.drifting(), drift::toString);
        assertTrue(SteadyState.of(overload).text(List.of("main")).contains("NO steady state"));
    }

    @Test
    void phasesAreSeparateAndWarmupFailuresAndTooFewRequestsAreHandled() throws Exception {
        Path run = log("phases", log -> {
            // a warm-up phase (flag set) that must not count, then two measured phases at different levels
            for (long t = 0; t < SECOND; t += 1_000_000) {
                log.append(t, t, t, t + SECOND, 0, 0, 0, LogFormat.OK, 0, LogFormat.FLAG_WARMUP);
            }
            phase(log, 1, SECOND, 10, 1_000_000, 10, t -> MEAN);
            phase(log, 2, 11 * SECOND, 10, 1_000_000, 11, t -> 5 * MEAN);
            log.append(12 * SECOND, 12 * SECOND, LogFormat.NONE, LogFormat.NONE, 0, 0, 0, LogFormat.DROPPED, 2, 0);
            phase(log, 3, 21 * SECOND, 1, 10_000_000, 12, t -> MEAN); // 100 requests: 5 per section
        });
        List<SteadyState.Phase> phases = SteadyState.of(run).phases();
        assertEquals(List.of(1, 2, 3), phases.stream().map(SteadyState.Phase::index).toList());
        assertWithin(phases.get(0).mean(), MEAN);
        assertWithin(phases.get(1).mean(), 5 * MEAN);
        assertEquals(10_000, phases.get(1).ok(), "the dropped request is not a response time");
        assertTrue(Double.isNaN(phases.get(2).p99().halfWidth()));
        String text = SteadyState.of(run).text(List.of("warm-up", "low", "high"));
        assertTrue(text.contains("phase low ") && text.contains("phase high ") && text.contains("phase #3 "), text);
        assertTrue(text.contains("(too few requests for an interval)"), text);
    }
}
