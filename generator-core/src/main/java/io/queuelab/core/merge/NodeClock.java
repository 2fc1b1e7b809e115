package io.queuelab.core.merge;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * How one node's log time maps onto the reference clock: the offsets (reference minus node) that
 * {@code ClockProbe} measured at the run's start and, when it could, at its end, interpolated
 * linearly in between (the node's monotonic clock drifts at a constant rate over a run), and held
 * constant outside. A node measured against no reference has offset zero.
 */
record NodeClock(long startOffsetNanos, long startAtNanos, long endOffsetNanos, long endAtNanos,
                 long uncertaintyNanos, boolean measured) {

    static final NodeClock UNMEASURED = new NodeClock(0, 0, 0, 0, 0, false);

    /** Reads a manifest's {@code clock} section; {@link #UNMEASURED} when it has none. */
    static NodeClock of(JsonNode clock) {
        JsonNode start = clock.path("start");
        if (!start.has("offsetNanos")) {
            return UNMEASURED;
        }
        JsonNode end = clock.path("end");
        long startOffset = start.path("offsetNanos").asLong();
        long startAt = start.path("atNanos").asLong();
        long uncertainty = start.path("uncertaintyNanos").asLong();
        if (!end.has("offsetNanos") || end.path("atNanos").asLong() <= startAt) {
            return new NodeClock(startOffset, startAt, startOffset, startAt, uncertainty, true);
        }
        return new NodeClock(startOffset, startAt, end.path("offsetNanos").asLong(), end.path("atNanos").asLong(),
                Math.max(uncertainty, end.path("uncertaintyNanos").asLong()), true);
    }

    /** Reference minus node clock at node log time {@code t}. */
    long offsetAt(long t) {
        if (endAtNanos == startAtNanos || t <= startAtNanos) {
            return startOffsetNanos;
        }
        if (t >= endAtNanos) {
            return endOffsetNanos;
        }
        return startOffsetNanos + Math.round((endOffsetNanos - startOffsetNanos)
                * ((double) (t - startAtNanos) / (endAtNanos - startAtNanos)));
    }

    /** Drift over the run, in ns of offset per s of run (ppm x 1000). */
    double driftNanosPerSecond() {
        return endAtNanos == startAtNanos ? 0 : (endOffsetNanos - startOffsetNanos) * 1e9 / (endAtNanos - startAtNanos);
    }
}
