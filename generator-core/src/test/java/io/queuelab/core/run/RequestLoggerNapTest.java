package io.queuelab.core.run;

import io.queuelab.core.testing.TimingSensitive;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The logger's nap: few wake-ups at low rates, and a hand-off queue that never fills between two naps. */
@TimingSensitive
class RequestLoggerNapTest {
    private static final long MS = 1_000_000;

    @Test
    void aSlowRunWakesTheLoggerOnlyAtTheFlushPeriod() {
        // 200 requests/s: about 4 records per 20 ms; a wake-up per 4 records is what cost ~15 us a request
        assertEquals(RequestLogger.FLUSH_MILLIS * MS, RequestLogger.napNanos(4, 20 * MS));
        assertEquals(RequestLogger.FLUSH_MILLIS * MS, RequestLogger.napNanos(0, 200 * MS), "nothing found: nap the longest");
    }

    @Test
    void aFastRunNapsShortEnoughThatTheQueueCannotFill() {
        // 1,000,000 records/s (the highest rate a run accepts): at most 20 ms, 20,000 records, a third of the queue
        long nap = RequestLogger.napNanos(200_000, 200 * MS);
        assertEquals(20 * MS, nap);
        // 100,000/s: long enough for ~8,192 records, which is an eighth of the queue
        long at100k = RequestLogger.napNanos(20_000, 200 * MS);
        assertTrue(at100k > 20 * MS && at100k < 200 * MS, "nap at 100,000/s: " + at100k);
        assertEquals(8192, at100k * 100_000 / 1_000_000_000, 1);
    }
}
