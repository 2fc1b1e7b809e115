package io.queuelab.core.run;

import java.util.Map;

/**
 * The accounting of a run's requests. Always {@code scheduled == ok + errors + dropped + unfinished}:
 * every scheduled request is logged exactly once, with one of those outcomes.
 *
 * @param errorsByClass failed requests per error class name
 */
public record LogTotals(long scheduled, long ok, long errors, long dropped, long unfinished,
                        Map<String, Long> errorsByClass) {
    public LogTotals {
        errorsByClass = Map.copyOf(errorsByClass);
    }

    /** True when the identity above holds (it always should; the self-check says so if not). */
    public boolean balanced() {
        return scheduled == ok + errors + dropped + unfinished;
    }
}
