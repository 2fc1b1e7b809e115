package io.queuelab.core.merge;

import io.queuelab.core.run.GapSample;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The merged schedule's intended instants of one phase: all of them counted, those inside the
 * sampling window kept, for the KS test of the superposed schedule's gaps.
 */
final class PhaseInstants {
    final long from;
    final long to;
    long count;
    private long[] instants = new long[1024];
    private int size;

    PhaseInstants(long from, long to) {
        this.from = from;
        this.to = to;
    }

    void add(long intended) {
        count++;
        if (intended < from || intended >= to) {
            return;
        }
        if (size == instants.length) {
            instants = Arrays.copyOf(instants, size * 2);
        }
        instants[size++] = intended;
    }

    /** A uniform sample of the gaps between consecutive instants of the window. */
    double[] gapSample() {
        long[] sorted = Arrays.copyOf(instants, size);
        Arrays.sort(sorted);
        GapSample sample = new GapSample(new SplittableRandom(size));
        for (int i = 1; i < size; i++) {
            sample.add(sorted[i] - sorted[i - 1]);
        }
        return sample.values();
    }
}
