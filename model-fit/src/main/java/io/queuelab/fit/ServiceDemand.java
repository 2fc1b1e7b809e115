package io.queuelab.fit;

import io.queuelab.fit.runs.RunData;
import io.queuelab.sim.Distribution;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.io.IOException;
import java.util.Arrays;
import java.util.stream.DoubleStream;

/**
 * The demand each request of a run brought to the server, recovered from its log under a model's
 * assumption about how requests share the server: with c cores shared by the n requests between
 * their send and completion (each progressing at min(1, c/n)), a request's demand is the integral
 * of min(1, c/n(t)) over its service interval, W(completed) - W(sent) with W the cumulative
 * progress of one request. With c unbounded (FCFS models: nobody shares) the demand is the service
 * time itself. A log without send instants gives its response times instead (a CSV log without
 * {@code sent}: at low load nearly the same).
 *
 * <p>Guarantee: the demands are those of the successful requests after warm-up, every
 * {@code ceil(n / maxValues)}-th one when there are more than {@code maxValues}, in log order.
 */
final class ServiceDemand {
    /** c of a server nobody shares. */
    static final int UNSHARED = Integer.MAX_VALUE;

    private ServiceDemand() {
    }

    static Distribution of(RunData run, int cores, int maxValues) throws IOException {
        ServiceIntervals intervals = ServiceIntervals.of(run);
        long[] sent = intervals.sent();
        long[] completed = intervals.completed();
        boolean[] counted = intervals.measured();
        int n = intervals.size();
        int measured = intervals.measuredCount();
        if (measured == 0) {
            return responsesBelow(run, Double.POSITIVE_INFINITY, maxValues);
        }
        Progress progress = cores == UNSHARED ? null : new Progress(sent.clone(), completed.clone(), cores);
        int step = (measured + maxValues - 1) / maxValues;
        double[] values = new double[(measured + step - 1) / step];
        int k = 0, seen = 0;
        for (int i = 0; i < n; i++) {
            if (!counted[i]) {
                continue;
            }
            if (seen++ % step == 0 && k < values.length) {
                double nanos = progress == null ? completed[i] - sent[i] : progress.between(sent[i], completed[i]);
                values[k++] = Math.max(0, nanos) / 1e9;
            }
        }
        return Distribution.empirical(Arrays.copyOf(values, k));
    }

    /** W(t): the progress of one request in service from the first send to t, piecewise linear between events. */
    private static final class Progress {
        private final long[] instants;
        private final double[] progress;

        Progress(long[] sends, long[] completions, int cores) {
            Arrays.sort(sends);
            Arrays.sort(completions);
            int n = sends.length;
            instants = new long[2 * n];
            progress = new double[2 * n];
            int inside = 0, m = 0;
            long last = n > 0 ? sends[0] : 0;
            double w = 0;
            for (int i = 0, j = 0; i < n || j < n; ) {
                boolean completion = j < n && (i >= n || completions[j] <= sends[i]);
                long t = completion ? completions[j] : sends[i];
                if (inside > 0) {
                    w += (t - last) * Math.min(1.0, (double) cores / inside);
                }
                last = t;
                instants[m] = t;
                progress[m] = w;
                m++;
                if (completion) {
                    inside--;
                    j++;
                } else {
                    inside++;
                    i++;
                }
            }
        }

        /** W(to) - W(from), both instants of events. */
        double between(long from, long to) {
            return at(to) - at(from);
        }

        private double at(long t) {
            int i = Arrays.binarySearch(instants, t);
            if (i < 0) {
                throw new IllegalStateException("not an event instant: " + t);
            }
            // equal instants: the progress is the same at each of them (no time passes between)
            return progress[i];
        }
    }

    /**
     * The response times of a run below {@code maxSeconds} (all: +infinity), thinned to
     * {@code maxValues}, from its histogram (3 significant digits).
     */
    static Distribution responsesBelow(RunData run, double maxSeconds, int maxValues) {
        Histogram h = new Histogram(3);
        for (HistogramIterationValue v : run.responseNanos().recordedValues()) {
            if (v.getValueIteratedTo() / 1e9 < maxSeconds) {
                h.recordValueWithCount(v.getValueIteratedTo(), v.getCountAtValueIteratedTo());
            }
        }
        long total = h.getTotalCount();
        if (total == 0) {
            throw new IllegalArgumentException("run " + run.name() + " has no successful request"
                    + (maxSeconds < Double.POSITIVE_INFINITY ? " shorter than " + maxSeconds + " s" : "") + " to take a distribution from");
        }
        DoubleStream.Builder values = DoubleStream.builder(), counts = DoubleStream.builder();
        for (HistogramIterationValue v : h.recordedValues()) {
            values.add(h.medianEquivalentValue(v.getValueIteratedTo()) / 1e9);
            counts.add(v.getCountAtValueIteratedTo());
        }
        double[] kept = replicated(values.build().toArray(), counts.build().toArray(), Math.min(1.0, (double) maxValues / total),
                (int) Math.min(total, maxValues) + 1);
        return Distribution.empirical(kept.length > 0 ? kept : new double[1]);
    }

    /**
     * Each of {@code values} as many times as its weight times {@code perWeight}, the fractions
     * carried on to the next (thinning or copying by a running fraction keeps every value's share
     * without randomness), at most {@code capacity} values in all, in the order given.
     */
    static double[] replicated(double[] values, double[] weights, double perWeight, int capacity) {
        double[] out = new double[capacity];
        int n = 0;
        double carried = 0;
        for (int i = 0; i < values.length; i++) {
            carried += weights[i] * perWeight;
            long copies = (long) Math.floor(carried + 1e-9);
            carried -= copies;
            for (long c = 0; c < copies && n < capacity; c++) {
                out[n++] = values[i];
            }
        }
        return Arrays.copyOf(out, n);
    }
}
