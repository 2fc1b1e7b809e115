package io.queuelab.reports.fit;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pauses are told apart by whether the server wrote pages while they lasted. */
class PauseCausesTest {
    /** Samples at 0, 1, ..., 10 s: interval i is (i - 1, i]. */
    private static final double[] SAMPLES = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    /** Pages written in the intervals ending at 3, 6 and 9 s (a flush every 3 s). */
    private static final double[] EVERY_THIRD = {0, 0, 0, 80, 0, 0, 80, 0, 0, 80, 0};

    private static Flushes pauses(double... starts) {
        double[] lengths = new double[starts.length];
        java.util.Arrays.fill(lengths, 0.4);
        return new Flushes(0.01, starts, lengths);
    }

    @Test
    void pausesDuringPageWritesAreFlushes() {
        PauseCauses c = PauseCauses.of(SAMPLES, EVERY_THIRD, 0, 10, pauses(2.1, 5.3, 8.2));
        assertEquals(3, c.pausesWithWrites());
        assertEquals(0, c.pausesWithoutWrites());
        assertEquals(3, c.secondsWithWrites(), 1e-9);
        assertEquals(7, c.secondsWithoutWrites(), 1e-9);
        assertTrue(c.flushes(), c.summary());
        assertTrue(c.summary().endsWith("(flush pauses)"), c.summary());
    }

    @Test
    void pausesSpreadOverTheRunAreNotFlushesEvenIfSomeMeetAWrite() {
        // one pause a second (a scheduler's hiccups): a third of them happen to fall in a second with page writes
        PauseCauses c = PauseCauses.of(SAMPLES, EVERY_THIRD, 0, 10, pauses(0.1, 1.1, 2.1, 3.1, 4.1, 5.1, 6.1, 7.1, 8.1, 9.1));
        assertEquals(3, c.pausesWithWrites());
        assertEquals(7, c.pausesWithoutWrites());
        assertFalse(c.flushes(), c.summary());
        assertTrue(c.summary().contains("does not show them to be flushes"), c.summary());
    }

    @Test
    void withoutAnyPageWrittenNoPauseIsAFlush() {
        PauseCauses c = PauseCauses.of(SAMPLES, new double[SAMPLES.length], 0, 10, pauses(2.1, 5.3));
        assertFalse(c.flushes());
        assertTrue(c.summary().contains("wrote no page"), c.summary());
    }

    @Test
    void onlyTheMeasuredPhaseCounts() {
        // the warm-up (0-4 s) had the writes and a pause; the measured phase 4-10 s has writes at 6 and 9 s only
        PauseCauses c = PauseCauses.of(SAMPLES, EVERY_THIRD, 4, 10, pauses(2.1, 5.3, 7.5));
        assertEquals(2, c.secondsWithWrites(), 1e-9);
        assertEquals(4, c.secondsWithoutWrites(), 1e-9);
        assertEquals(1, c.pausesWithWrites());
        assertEquals(1, c.pausesWithoutWrites());
        assertFalse(c.flushes(), "a rate of 0.5/s with writes against 0.25/s without: " + c.summary());
    }
}
