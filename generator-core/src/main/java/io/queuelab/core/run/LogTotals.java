package io.queuelab.core.run;

import java.util.Map;

/**
 * The accounting of a run's requests: {@code scheduled} as the schedule (or the closed loop's jobs)
 * counted them when it put them into the client, and the records the logger wrote, by outcome.
 * The two sides are counted by different threads from different events, so
 * {@code scheduled == ok + errors + dropped + unfinished} ({@link #balanced()}) is evidence that
 * every scheduled request was logged exactly once, not an identity.
 *
 * @param errorsByClass failed requests per error class name
 */
public record LogTotals(long scheduled, long ok, long errors, long dropped, long unfinished,
                        Map<String, Long> errorsByClass) {
    public LogTotals {
        errorsByClass = Map.copyOf(errorsByClass);
    }

    /** Records the logger wrote. */
    public long logged() {
        return ok + errors + dropped + unfinished;
    }

    /** True when the scheduled requests and the logged records agree. */
    public boolean balanced() {
        return scheduled == logged();
    }
}
