package io.queuelab.core.manifest;

import io.queuelab.core.clock.ClockOffset;

/**
 * The manifest's {@code clock} section, written when the run measured its clock against a
 * reference ({@code --clock-reference}): at the start and, for the drift, at the end.
 *
 * @param reference the reference's {@code host:port}
 * @param start     the measurement before the first request
 * @param end       the measurement after the drain; null until then
 */
public record ClockAnchor(String reference, Measurement start, Measurement end) {
    public ClockAnchor withEnd(Measurement measurement) {
        return new ClockAnchor(reference, start, measurement);
    }

    /**
     * One measurement; all null but {@code error} when it failed.
     *
     * @param offsetNanos      reference clock minus this node's log clock, ns
     * @param uncertaintyNanos half the shortest round trip, ns
     * @param atNanos          when it was taken, ns of log time (after the anchor)
     * @param exchanges        exchanges made (the shortest round trip's is kept)
     * @param error            why the measurement failed; null when it did not
     */
    public record Measurement(Long offsetNanos, Long uncertaintyNanos, Long atNanos, Integer exchanges, String error) {
        public static Measurement of(ClockOffset offset, long anchorEpochNanos) {
            return new Measurement(offset.offsetNanos(), offset.uncertaintyNanos(), offset.localNanos() - anchorEpochNanos,
                    offset.exchanges(), null);
        }

        public static Measurement failed(String error) {
            return new Measurement(null, null, null, null, error);
        }

        public boolean succeeded() {
            return offsetNanos != null;
        }
    }
}
