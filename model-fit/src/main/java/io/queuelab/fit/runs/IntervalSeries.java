package io.queuelab.fit.runs;

import java.util.Arrays;

/**
 * Per-interval counts of a run, in memory bounded by {@link #MAX_INTERVALS}: when a run is longer
 * than that many intervals, neighbouring intervals are merged and the interval doubles. Interval
 * {@code i} covers [i * interval, (i + 1) * interval) ns after the run's origin.
 */
public final class IntervalSeries {
    public static final int MAX_INTERVALS = 1 << 15;

    private long intervalNanos;
    private int length;
    private long[] arrivals = new long[64];
    private long[] completions = new long[64];
    private double[] responseSumNanos = new double[64];
    private long[] responseMaxNanos = new long[64];
    private double[] inFlightNanos = new double[64];

    IntervalSeries(long intervalNanos) {
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("interval must be positive");
        }
        this.intervalNanos = intervalNanos;
    }

    private int index(long t) {
        long i = Math.max(0, t) / intervalNanos;
        while (i >= MAX_INTERVALS) {
            coarsen();
            i = Math.max(0, t) / intervalNanos;
        }
        int idx = (int) i;
        if (idx >= arrivals.length) {
            int n = Math.min(MAX_INTERVALS, Math.max(idx + 1, arrivals.length * 2));
            arrivals = Arrays.copyOf(arrivals, n);
            completions = Arrays.copyOf(completions, n);
            responseSumNanos = Arrays.copyOf(responseSumNanos, n);
            responseMaxNanos = Arrays.copyOf(responseMaxNanos, n);
            inFlightNanos = Arrays.copyOf(inFlightNanos, n);
        }
        length = Math.max(length, idx + 1);
        return idx;
    }

    private void coarsen() {
        int half = (length + 1) / 2;
        for (int i = 0; i < half; i++) {
            int a = 2 * i, b = 2 * i + 1;
            boolean hasB = b < length;
            arrivals[i] = arrivals[a] + (hasB ? arrivals[b] : 0);
            completions[i] = completions[a] + (hasB ? completions[b] : 0);
            responseSumNanos[i] = responseSumNanos[a] + (hasB ? responseSumNanos[b] : 0);
            responseMaxNanos[i] = Math.max(responseMaxNanos[a], hasB ? responseMaxNanos[b] : 0);
            inFlightNanos[i] = inFlightNanos[a] + (hasB ? inFlightNanos[b] : 0);
        }
        for (int i = half; i < length; i++) {
            arrivals[i] = completions[i] = responseMaxNanos[i] = 0;
            responseSumNanos[i] = inFlightNanos[i] = 0;
        }
        length = half;
        intervalNanos *= 2;
    }

    void arrival(long intended) {
        int i = index(intended); // index() may grow the arrays
        arrivals[i]++;
    }

    /** A successful completion: counted in the interval it completed in. */
    void completion(long completed, long responseNanos) {
        int i = index(completed);
        completions[i]++;
        responseSumNanos[i] += responseNanos;
        responseMaxNanos[i] = Math.max(responseMaxNanos[i], responseNanos);
    }

    /** A request present in the system over [from, to): adds its time to each interval it overlaps. */
    void presence(long from, long to) {
        from = Math.max(0, from);
        if (to <= from) {
            return;
        }
        int last = index(to);
        int first = index(from);
        for (int i = first; i <= last; i++) {
            long lo = Math.max(from, i * intervalNanos);
            long hi = Math.min(to, (i + 1) * intervalNanos);
            if (hi > lo) {
                inFlightNanos[i] += hi - lo;
            }
        }
    }

    public long intervalNanos() {
        return intervalNanos;
    }

    public double intervalSeconds() {
        return intervalNanos / 1e9;
    }

    public int length() {
        return length;
    }

    /** Start of interval i, in seconds after the origin. */
    public double startSeconds(int i) {
        return i * intervalSeconds();
    }

    public long arrivals(int i) {
        return arrivals[i];
    }

    /** Successful completions in interval i. */
    public long completions(int i) {
        return completions[i];
    }

    /** Mean response time (s) of the successful completions of interval i; NaN when none. */
    public double meanResponseSeconds(int i) {
        return completions[i] == 0 ? Double.NaN : responseSumNanos[i] / completions[i] / 1e9;
    }

    public double maxResponseSeconds(int i) {
        return responseMaxNanos[i] / 1e9;
    }

    /** Time-average number of requests in the system during interval i. */
    public double meanInFlight(int i) {
        return inFlightNanos[i] / intervalNanos;
    }

    double responseSumNanos(int i) {
        return responseSumNanos[i];
    }

    double inFlightNanos(int i) {
        return inFlightNanos[i];
    }
}
