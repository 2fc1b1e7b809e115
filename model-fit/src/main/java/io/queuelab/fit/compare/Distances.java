package io.queuelab.fit.compare;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.util.ArrayList;
import java.util.List;

/**
 * Distances between two response-time distributions given as HdrHistograms (ns): the
 * Kolmogorov-Smirnov distance D = sup |F1 - F2| and the Wasserstein-1 distance (the area between
 * the two CDFs, in seconds). Both step functions jump only at bucket values, which the two
 * histograms share when they have the same precision, so the result is exact for the histograms
 * (and within their 3-digit resolution of the raw samples).
 */
public record Distances(double ks, double wasserstein) {

    public static Distances between(Histogram a, Histogram b) {
        if (a.getTotalCount() == 0 || b.getTotalCount() == 0) {
            throw new IllegalArgumentException("cannot compare an empty distribution");
        }
        long[][] ca = cumulative(a);
        long[][] cb = cumulative(b);
        double na = a.getTotalCount(), nb = b.getTotalCount();
        int i = 0, j = 0;
        double fa = 0, fb = 0, d = 0, area = 0;
        long previous = Math.min(ca[0][0], cb[0][0]);
        while (i < ca[0].length || j < cb[0].length) {
            long va = i < ca[0].length ? ca[0][i] : Long.MAX_VALUE;
            long vb = j < cb[0].length ? cb[0][j] : Long.MAX_VALUE;
            long v = Math.min(va, vb);
            area += Math.abs(fa - fb) * (v - previous);
            if (va == v) {
                fa = ca[1][i++] / na;
            }
            if (vb == v) {
                fb = cb[1][j++] / nb;
            }
            d = Math.max(d, Math.abs(fa - fb));
            previous = v;
        }
        return new Distances(d, area / 1e9);
    }

    /** (bucket value, cumulative count) pairs of the non-empty buckets, in increasing value. */
    private static long[][] cumulative(Histogram h) {
        List<long[]> steps = new ArrayList<>();
        long cumulative = 0;
        for (HistogramIterationValue v : h.recordedValues()) {
            cumulative += v.getCountAddedInThisIterationStep();
            steps.add(new long[] {h.highestEquivalentValue(v.getValueIteratedTo()), cumulative});
        }
        long[][] out = new long[2][steps.size()];
        for (int k = 0; k < steps.size(); k++) {
            out[0][k] = steps.get(k)[0];
            out[1][k] = steps.get(k)[1];
        }
        return out;
    }
}
