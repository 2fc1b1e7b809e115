package io.queuelab.fit;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pauses are told apart by whether the server's page writes complete at their end, against chance. */
class PauseCausesTest {
    /** Samples every 0.2 s over 60 s. */
    private static final double[] SAMPLES = new double[301];
    /** Pages counted flushed in the sample closing 3.0 s, 6.0 s, ...: a flush batch completing every 3 s. */
    private static final double[] EVERY_THREE_SECONDS = new double[301];

    static {
        for (int i = 0; i <= 300; i++) {
            SAMPLES[i] = i * 0.2;
            EVERY_THREE_SECONDS[i] = i % 15 == 0 && i > 0 ? 400 : 0;
        }
    }

    /** Pauses of {@code length} s starting at the given instants. */
    private static Flushes pauses(double length, double... starts) {
        double[] lengths = new double[starts.length];
        Arrays.fill(lengths, length);
        return new Flushes(0.01, starts, lengths);
    }

    @Test
    void pausesEndingAsAFlushBatchCompletesAreFlushes() {
        // a 0.8 s pause before each batch completes: the service stops while the batch is written
        double[] starts = new double[19];
        for (int k = 0; k < starts.length; k++) {
            starts[k] = 3 * (k + 1) - 0.85;
        }
        PauseCauses c = PauseCauses.of(SAMPLES, EVERY_THREE_SECONDS, 0, 60, pauses(0.8, starts));
        assertEquals(19, c.pauses());
        assertEquals(19, c.withWrites());
        // a 1.0 s window (pause + one sample) holds one of the completions every 3 s with probability ~1/3
        assertEquals(19 / 3.0, c.expected(), 1.5);
        assertTrue(c.flushes(), c.summary());
        assertTrue(c.summary().endsWith("(flush pauses)"), c.summary());
    }

    @Test
    void pausesSpreadOverTheRunAreNotFlushesEvenIfSomeMeetAWrite() {
        // a pause about every second at every phase of the flush cycle (a scheduler's hiccups): a window of 0.7 s
        // happens to hold one of the completions 3 s apart in about a quarter of the cases
        double[] starts = new double[56];
        for (int k = 0; k < starts.length; k++) {
            starts[k] = 0.3 + k * 1.03;
        }
        PauseCauses c = PauseCauses.of(SAMPLES, EVERY_THREE_SECONDS, 0, 60, pauses(0.5, starts));
        assertTrue(c.withWrites() >= 5 && c.withWrites() <= 25, c.summary());
        assertFalse(c.flushes(), c.summary());
        assertTrue(c.summary().contains("does not show them to be flushes"), c.summary());
    }

    @Test
    void whereEverySampleHasWritesTheTelemetryDoesNotTell() {
        double[] always = new double[SAMPLES.length];
        Arrays.fill(always, 50);
        PauseCauses c = PauseCauses.of(SAMPLES, always, 0, 60, pauses(0.8, 2.15, 5.15, 8.15));
        assertEquals(3, c.withWrites());
        assertEquals(3, c.expected(), 1e-9);
        assertFalse(c.flushes(), "no contrast: " + c.summary());
    }

    @Test
    void withoutAnyPageWrittenNoPauseIsAFlush() {
        PauseCauses c = PauseCauses.of(SAMPLES, new double[SAMPLES.length], 0, 60, pauses(0.8, 2.15, 5.15));
        assertEquals(0, c.withWrites());
        assertFalse(c.flushes());
        assertTrue(c.summary().contains("wrote no page"), c.summary());
    }

    @Test
    void onlyPausesInsideTheMeasuredPhaseCount() {
        PauseCauses c = PauseCauses.of(SAMPLES, EVERY_THREE_SECONDS, 10, 60, pauses(0.8, 2.15, 5.15, 11.15, 14.15));
        assertEquals(2, c.pauses());
        assertEquals(2, c.withWrites());
    }
}
