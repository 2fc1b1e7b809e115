package io.queuelab.fit.runs;

import org.HdrHistogram.Histogram;

import java.util.Arrays;

/**
 * The gaps between consecutive successful departures of a run, in completion order, with bounded
 * memory: a histogram of all gaps and the longest gaps (up to {@link #MAX_LONG_GAPS}) with their
 * instants and the response time of the request that ended each gap, which is what flush detection
 * needs. A log written nearly in completion order is put in order through a reorder window of
 * {@link #REORDER_WINDOW} records; departures later than that are counted in {@link #late()} and
 * skipped.
 */
public final class DepartureGaps {
    public static final int REORDER_WINDOW = 4096;
    public static final int MAX_LONG_GAPS = 1 << 16;
    private static final int SLOT_BITS = 13; // 2 * REORDER_WINDOW slots
    private static final long SLOT_MASK = (1L << SLOT_BITS) - 1;

    private final long[] keys = new long[2 * REORDER_WINDOW];
    private final long[] responses = new long[2 * REORDER_WINDOW];
    private final long[] sortedResponses = new long[2 * REORDER_WINDOW];
    private int buffered;

    private final Histogram gapsMicros = new Histogram(3);
    private final Histogram busyGapsMicros = new Histogram(3);
    private long lastDepartureMicros = Long.MIN_VALUE;
    private long late;
    private long departures;
    private long[] longStart = new long[1024];
    private long[] longGap = new long[1024];
    private long[] longResponse = new long[1024];
    private int longCount;
    private long longFloorMicros;

    void departure(long completedNanos, long responseNanos) {
        long micros = Math.max(0, completedNanos / 1000);
        if (micros >= 1L << (63 - SLOT_BITS)) {
            throw new IllegalArgumentException("completion instant out of range: " + completedNanos);
        }
        keys[buffered] = (micros << SLOT_BITS) | buffered;
        responses[buffered] = responseNanos / 1000;
        buffered++;
        if (buffered == keys.length) {
            drain(REORDER_WINDOW);
        }
    }

    /** Emits the {@code count} earliest buffered departures in order and keeps the rest. */
    private void drain(int count) {
        Arrays.sort(keys, 0, buffered);
        for (int i = 0; i < buffered; i++) {
            sortedResponses[i] = responses[(int) (keys[i] & SLOT_MASK)];
        }
        for (int i = 0; i < count; i++) {
            emit(keys[i] >>> SLOT_BITS, sortedResponses[i]);
        }
        int kept = buffered - count;
        for (int j = 0; j < kept; j++) {
            keys[j] = (keys[count + j] & ~SLOT_MASK) | j;
            responses[j] = sortedResponses[count + j];
        }
        buffered = kept;
    }

    void finish() {
        drain(buffered);
    }

    private void emit(long micros, long responseMicros) {
        if (micros < lastDepartureMicros) {
            late++;
            return;
        }
        departures++;
        if (lastDepartureMicros != Long.MIN_VALUE) {
            long gap = micros - lastDepartureMicros;
            gapsMicros.recordValue(gap);
            if (responseMicros >= gap) {
                busyGapsMicros.recordValue(gap);
            }
            if (gap > longFloorMicros) {
                addLongGap(lastDepartureMicros, gap, responseMicros);
            }
        }
        lastDepartureMicros = micros;
    }

    private void addLongGap(long start, long gap, long response) {
        if (longCount == MAX_LONG_GAPS) {
            long[] sorted = Arrays.copyOf(longGap, longCount);
            Arrays.sort(sorted);
            longFloorMicros = sorted[longCount / 2];
            int kept = 0;
            for (int i = 0; i < longCount; i++) {
                if (longGap[i] > longFloorMicros) {
                    longStart[kept] = longStart[i];
                    longGap[kept] = longGap[i];
                    longResponse[kept] = longResponse[i];
                    kept++;
                }
            }
            longCount = kept;
            if (gap <= longFloorMicros) {
                return;
            }
        }
        if (longCount == longGap.length) {
            int n = Math.min(MAX_LONG_GAPS, longCount * 2);
            longStart = Arrays.copyOf(longStart, n);
            longGap = Arrays.copyOf(longGap, n);
            longResponse = Arrays.copyOf(longResponse, n);
        }
        longStart[longCount] = start;
        longGap[longCount] = gap;
        longResponse[longCount] = response;
        longCount++;
    }

    /** Histogram of all gaps, in microseconds. */
    public Histogram gapsMicros() {
        return gapsMicros;
    }

    /**
     * Histogram of the busy gaps, in microseconds: those whose closing request was already in the
     * system when the gap opened (its response time is at least the gap), so the server worked
     * through the whole gap. In a closed run with many requests nearly every gap is busy; in an
     * open run these are the gaps without idle time, i.e. processing times and pauses.
     */
    public Histogram busyGapsMicros() {
        return busyGapsMicros;
    }

    /** Departures taken into account (successful, in completion order). */
    public long departures() {
        return departures;
    }

    /** Departures that came later than the reorder window allows (skipped). */
    public long late() {
        return late;
    }

    /** Every gap longer than this is among the retained long gaps. */
    public double longGapFloorSeconds() {
        return longFloorMicros / 1e6;
    }

    /** Retained long gaps, in completion order. */
    public int longGapCount() {
        return longCount;
    }

    /** Instant (s after the origin) of the departure that opened long gap i. */
    public double longGapStartSeconds(int i) {
        return longStart[i] / 1e6;
    }

    public double longGapSeconds(int i) {
        return longGap[i] / 1e6;
    }

    /** Response time (s) of the request whose departure closed long gap i. */
    public double longGapClosingResponseSeconds(int i) {
        return longResponse[i] / 1e6;
    }
}
