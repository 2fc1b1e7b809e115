package io.queuelab.core.summary;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.log.RequestLogWriter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one definition of a run's figures, on a log written by hand whose every figure is worked
 * out below from the records themselves: warm-up records (an ok and a failed one among them),
 * two operations, a request with no send instant, drops, an error that completes after every ok
 * request, an unfinished request, and a drop that arrives after the last completion.
 */
class RunSummaryTest {
    private static final long MS = 1_000_000L;
    private static final int TIMEOUT = LogFormat.FIRST_ERROR;
    private static final long NONE = LogFormat.NONE;

    @TempDir
    static Path tmp;
    static RunSummary s;

    @BeforeAll
    static void writeAndSummarize() throws IOException {
        Path file = tmp.resolve(LogFormat.FILE_NAME);
        try (RequestLogWriter log = RequestLogWriter.create(file, 0)) {
            log.defineOperation(0, "read");
            log.defineOperation(1, "write");
            log.defineOutcome(TIMEOUT, "timeout");
            // warm-up (phase 0): three ok requests of 5 ms and a timeout
            for (long t = 0; t < 30 * MS; t += 10 * MS) {
                log.append(t, t, t, t + 5 * MS, 0, 0, 0, LogFormat.OK, 0, LogFormat.FLAG_WARMUP);
            }
            log.append(30 * MS, 30 * MS, 30 * MS, 40 * MS, 0, 0, 0, TIMEOUT, 0, LogFormat.FLAG_WARMUP);
            // measured (phase 1)                                   response  service  queue
            log.append(100 * MS, 100 * MS, 101 * MS, 104 * MS, 0, 0, 0, LogFormat.OK, 1, 0); //  4 ms   3 ms  1 ms
            log.append(200 * MS, 200 * MS, 200 * MS, 210 * MS, 0, 0, 0, LogFormat.OK, 1, 0); // 10 ms  10 ms  0
            log.append(300 * MS, 300 * MS, 302 * MS, 320 * MS, 0, 0, 1, LogFormat.OK, 1, 0); // 20 ms  18 ms  2 ms
            log.append(400 * MS, 400 * MS, NONE, 406 * MS, 0, 0, 1, LogFormat.OK, 1, 0);     //  6 ms  (no send instant)
            log.append(500 * MS, NONE, NONE, NONE, 0, 0, 0, LogFormat.DROPPED, 1, 0);
            log.append(600 * MS, 600 * MS, 600 * MS, 850 * MS, 0, 0, 1, TIMEOUT, 1, 0);      // the last completion
            log.append(700 * MS, 700 * MS, 701 * MS, NONE, 0, 0, 0, LogFormat.UNFINISHED, 1, 0);
            log.append(900 * MS, NONE, NONE, NONE, 0, 0, 0, LogFormat.DROPPED, 1, 0);        // the last arrival, after it
        }
        try (RequestLogReader reader = RequestLogReader.open(file)) {
            s = RunSummary.of(reader);
        }
    }

    @Test
    void theLogsAccountingCountsEveryRecordAndTheFiguresOnlyTheMeasuredOnes() {
        assertEquals(12, s.records);
        assertEquals(4, s.warmupRecords);
        assertEquals(Map.of("ok", 7L, "timeout", 2L, "dropped", 2L, "unfinished", 1L), s.outcomes);
        assertEquals(7, s.count("ok"));
        assertEquals(Map.of("ok", 3L, "timeout", 1L), s.warmupOutcomes);
        assertEquals(Map.of("ok", 4L, "timeout", 1L, "dropped", 2L, "unfinished", 1L), s.measuredOutcomes);
        assertEquals(1, s.measuredCount("timeout"));
        assertEquals(8, s.arrivals);
        assertEquals(4, s.okCount());
        assertEquals(Map.of("timeout", 1L, "dropped", 2L, "unfinished", 1L), s.notOkByOutcome());
        assertEquals(4, s.notOkCount());
        // when each failure happened: measured records only (the warm-up timeout at 30 ms is not in it)
        assertArrayEquals(new long[] {500 * MS, 900 * MS}, s.outcomeWindows.get("dropped"));
        assertArrayEquals(new long[] {600 * MS, 600 * MS}, s.outcomeWindows.get("timeout"));
        assertFalse(s.outcomeWindows.containsKey("ok"));
    }

    @Test
    void ratesAreOverTheMeasuredSpan() {
        // first intended 100 ms; the last instant is the drop's arrival at 900 ms, after the last completion (850 ms)
        assertEquals(0.8, s.spanSeconds(), 1e-12);
        // 8 arrivals from 100 to 900 ms: 7 gaps in 0.8 s
        assertEquals(8.75, s.arrivalRate(), 1e-9);
        // 4 ok in 0.8 s
        assertEquals(5.0, s.throughput(), 1e-9);
    }

    @Test
    void latencyIsOfTheOkMeasuredRequestsWithExactMeans() {
        assertEquals(0.010, s.meanResponseSeconds(), 1e-12, "(4 + 10 + 20 + 6) / 4 ms");
        assertEquals(4, s.all.response.getTotalCount());
        assertEquals(3, s.all.service.getTotalCount(), "the request without a send instant has no service time");
        assertEquals(31.0 / 3 * MS, s.all.meanServiceNanos(), 1e-3);
        assertEquals(3, s.all.queue.getTotalCount());
        assertEquals(1.0 * MS, s.all.meanQueueNanos(), 1e-3);
        assertTrue(s.all.response.valuesAreEquivalent(20 * MS, s.all.response.getMaxValue()));
        assertTrue(s.all.response.valuesAreEquivalent(4 * MS, s.all.response.getMinValue()));
        assertEquals(2, s.byOperation.get("read").response.getTotalCount());
        assertEquals(7.0 * MS, s.byOperation.get("read").meanResponseNanos(), 1e-3);
        assertEquals(13.0 * MS, s.byOperation.get("write").meanResponseNanos(), 1e-3);
    }

    @Test
    void theSummaryPrintsTheseFigures() {
        String text = SummaryText.render(s, null);
        assertTrue(text.contains("requests  12 logged (4 in warm-up), dropped 2, ok 4, timeout 1, unfinished 1 outside warm-up\n"), text);
        assertTrue(text.contains("          in warm-up, ok 3, timeout 1\n"), text);
        assertTrue(text.contains("rate      5.0 ok requests/s, 8.8 arrivals/s over 0.800 s"), text);
        assertTrue(text.contains("timeout 1 scheduled between 0.600 s and 0.600 s"), text);
        assertTrue(text.matches("(?s).*all response\\s+4\\s+10\\.00ms .*"), text);
    }
}
