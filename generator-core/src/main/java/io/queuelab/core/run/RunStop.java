package io.queuelab.core.run;

/**
 * A request to end a run before its plan does (Ctrl-C, SIGTERM, a failing disk). The run then ends
 * as at its planned end: the schedule stops before its next arrival, requests already in the
 * client get the drain timeout to complete, every record is written and the manifest is completed
 * with the totals, the self-check and the reason. Thread-safe; the first reason wins.
 */
public final class RunStop {
    private volatile String reason;

    /** Asks the run to stop; later calls keep the first reason. */
    public void request(String why) {
        synchronized (this) {
            if (reason == null) {
                reason = why;
            }
        }
    }

    public boolean requested() {
        return reason != null;
    }

    /** Why the run was asked to stop; null if it was not. */
    public String reason() {
        return reason;
    }
}
