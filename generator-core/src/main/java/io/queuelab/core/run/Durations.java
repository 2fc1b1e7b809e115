package io.queuelab.core.run;

import java.util.Locale;

/** Formats nanosecond durations for people: 850us, 12.3ms, 1.25s. */
public final class Durations {
    private Durations() {
    }

    public static String format(double nanos) {
        if (Double.isNaN(nanos)) {
            return "-";
        }
        double a = Math.abs(nanos);
        if (a < 1e3) {
            return String.format(Locale.ROOT, "%.0fns", nanos);
        }
        if (a < 1e6) {
            return String.format(Locale.ROOT, "%.1fus", nanos / 1e3);
        }
        if (a < 1e9) {
            return String.format(Locale.ROOT, "%.2fms", nanos / 1e6);
        }
        return String.format(Locale.ROOT, "%.3fs", nanos / 1e9);
    }
}
