package io.queuelab.core.merge;

import io.queuelab.core.manifest.ClockAnchor;

import java.util.Optional;

/**
 * How one node's log time maps onto the reference clock: the offsets (reference minus node) that
 * {@code ClockProbe} measured at the run's start and, when it could, at its end, interpolated
 * linearly in between (the node's monotonic clock drifts at a constant rate over a run), and held
 * constant outside. A node measured against no reference has offset zero.
 */
record NodeClock(long startOffsetNanos, long startAtNanos, long endOffsetNanos, long endAtNanos,
                 long uncertaintyNanos, boolean measured) {

    static final NodeClock UNMEASURED = new NodeClock(0, 0, 0, 0, 0, false);

    /** Reads a manifest's {@code clock} section; {@link #UNMEASURED} when it has none or its start measurement failed. */
    static NodeClock of(Optional<ClockAnchor> anchor) {
        if (anchor.isEmpty() || anchor.get().start() == null || !anchor.get().start().succeeded()) {
            return UNMEASURED;
        }
        ClockAnchor.Measurement start = anchor.get().start();
        ClockAnchor.Measurement end = anchor.get().end();
        long startOffset = start.offsetNanos();
        long startAt = start.atNanos();
        long uncertainty = start.uncertaintyNanos();
        if (end == null || !end.succeeded() || end.atNanos() <= startAt) {
            return new NodeClock(startOffset, startAt, startOffset, startAt, uncertainty, true);
        }
        return new NodeClock(startOffset, startAt, end.offsetNanos(), end.atNanos(),
                Math.max(uncertainty, end.uncertaintyNanos()), true);
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

    /** Whether both the start and the end measurement succeeded, so that the drift was measured. */
    boolean driftKnown() {
        return measured && endAtNanos != startAtNanos;
    }

    /** Drift over the run, in ns of offset per s of run (ppm x 1000); 0 when not {@link #driftKnown()}. */
    double driftNanosPerSecond() {
        return endAtNanos == startAtNanos ? 0 : (endOffsetNanos - startOffsetNanos) * 1e9 / (endAtNanos - startAtNanos);
    }
}
