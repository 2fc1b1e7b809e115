package io.queuelab.fit.compare;

import io.queuelab.fit.runs.IntervalSeries;
import io.queuelab.fit.runs.RunData;

import java.util.ArrayList;
import java.util.List;

/**
 * Little's law per window of a run: the time-average number of successful requests in the
 * system L against throughput X times mean response R of the requests completing in the window.
 * Over a window much longer than a response time the two agree; a window where they do not is
 * flagged: requests piling up without completing (a stall, a flush longer than the window's
 * scale, warm-up), or a log missing records.
 */
public final class LittlesLawCheck {
    private LittlesLawCheck() {
    }

    public record Window(double startSeconds, double seconds, double meanInFlight, double throughput,
                         double meanResponse, boolean flagged) {
        public double littleProduct() {
            return throughput * meanResponse;
        }

        /** |L - X R| / max(L, X R). */
        public double relativeDifference() {
            double xr = littleProduct();
            double max = Math.max(meanInFlight, xr);
            return max == 0 ? 0 : Math.abs(meanInFlight - xr) / max;
        }
    }

    /**
     * @param windowSeconds length of a window (rounded to whole intervals of the run's series)
     * @param tolerance     largest relative difference that is not flagged
     * @param minCompletions windows with fewer completions are reported but never flagged
     */
    public static List<Window> check(RunData run, double windowSeconds, double tolerance, long minCompletions) {
        IntervalSeries s = run.series();
        int per = Math.max(1, (int) Math.round(windowSeconds / s.intervalSeconds()));
        List<Window> windows = new ArrayList<>();
        for (int start = 0; start < s.length(); start += per) {
            int end = Math.min(s.length(), start + per);
            double seconds = (end - start) * s.intervalSeconds();
            double inFlight = 0, responseSum = 0;
            long completions = 0;
            for (int i = start; i < end; i++) {
                inFlight += s.meanInFlight(i) * s.intervalSeconds();
                completions += s.completions(i);
                if (s.completions(i) > 0) {
                    responseSum += s.meanResponseSeconds(i) * s.completions(i);
                }
            }
            double l = inFlight / seconds;
            double x = completions / seconds;
            double r = completions == 0 ? 0 : responseSum / completions;
            Window w = new Window(s.startSeconds(start), seconds, l, x, r, false);
            boolean flagged = completions >= minCompletions && w.relativeDifference() > tolerance;
            windows.add(new Window(w.startSeconds(), seconds, l, x, r, flagged));
        }
        return windows;
    }

    /**
     * Windows of max(10 s, 100 mean response times), so that requests straddling a window's edges
     * (at most a few response times' worth) move L and X R by about 1%, tolerance 10%.
     */
    public static List<Window> check(RunData run) {
        return check(run, defaultWindowSeconds(run), 0.1, 50);
    }

    public static double defaultWindowSeconds(RunData run) {
        double mean = run.meanResponseSeconds();
        return Math.max(10, Double.isNaN(mean) ? 0 : Math.ceil(100 * mean));
    }
}
