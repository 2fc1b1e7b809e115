package io.queuelab.core.manifest;

import java.time.Instant;

/**
 * The manifest's {@code start} section: the log's time origin and the schedule's first instant.
 *
 * @param anchorEpochNanos   the request log's anchor, ns since the Unix epoch (the log header's)
 * @param scheduleStartNanos the schedule's start, ns after the anchor
 * @param scheduleStart      the same instant as ISO-8601, for people
 */
public record ScheduleStart(long anchorEpochNanos, long scheduleStartNanos, String scheduleStart) {
    public static ScheduleStart of(long anchorEpochNanos, long scheduleStartNanos) {
        return new ScheduleStart(anchorEpochNanos, scheduleStartNanos,
                Instant.ofEpochSecond(0, anchorEpochNanos + scheduleStartNanos).toString());
    }
}
