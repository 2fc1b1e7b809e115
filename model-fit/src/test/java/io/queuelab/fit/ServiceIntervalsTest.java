package io.queuelab.fit;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The connections a log shows in use at once (K of a CSV log), counted from its send and completion instants. */
class ServiceIntervalsTest {
    private static int most(long[] sent, long[] completed) {
        return new ServiceIntervals(sent.clone(), sent, completed, new boolean[sent.length]).maxConcurrency();
    }

    @Test
    void overlappingIntervalsAreCountedAndACompletionAtASendFreesItsConnectionFirst() {
        assertEquals(3, most(new long[] {0, 1, 2, 10}, new long[] {5, 6, 7, 11}));
        // the second request is sent at the instant the first completes: one connection serves both
        assertEquals(1, most(new long[] {0, 5}, new long[] {5, 9}));
    }

    /**
     * A request that completed at the instant it was sent (a CSV log in milliseconds) holds a
     * connection for no time: the count neither fails on it (it read past the completions) nor goes
     * below zero and comes out low.
     */
    @Test
    void requestsOfNoDurationNeitherFailNorLowerTheCount() {
        assertEquals(1, most(new long[] {5}, new long[] {5}));
        assertEquals(1, most(new long[] {3, 5}, new long[] {3, 5}));
        assertEquals(1, most(new long[] {0, 4, 4}, new long[] {4, 4, 8})); // at 4: A frees, B comes and goes, C takes it
        assertEquals(2, most(new long[] {1, 2, 2}, new long[] {1, 6, 7}));
    }

    @Test
    void noIntervalsNoConcurrency() {
        assertEquals(0, most(new long[0], new long[0]));
    }
}
