package io.queuelab.core.manifest;

/**
 * The manifest's {@code end} section, written after the drain.
 *
 * @param epochNanos        the wall clock at the end, ns since the Unix epoch (in a merged run: on
 *                          the reference's time line, the latest node's)
 * @param requestsPerJob    a closed run's finite work per job; null without
 * @param allJobsDone       with finite work: whether every job did all its requests; null without
 * @param workDoneAtSeconds with finite work, when all jobs were done: when the last job left, s after the schedule's start
 * @param stoppedAtSeconds  a run stopped early (a signal, a log that could not be written): when, s after the schedule's start
 * @param stopReason        why and when, e.g. {@code interrupted by SIGINT at 12.3 s of 60.0 s}; null for a run that ran its plan
 */
public record RunEnd(long epochNanos, Long requestsPerJob, Boolean allJobsDone, Double workDoneAtSeconds,
                     Double stoppedAtSeconds, String stopReason) {
    public static RunEnd at(long epochNanos) {
        return new RunEnd(epochNanos, null, null, null, null, null);
    }
}
