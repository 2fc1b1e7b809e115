package io.queuelab.sim;

import java.util.Arrays;

/**
 * The rate r(n) at which each of n requests inside a shared server progresses, and its inverse,
 * by n: computed once per population instead of dividing on every event (a virtual-time server
 * divides two or three times an event otherwise: r = c/n, V += dt r, t = (tag - V) / r). r(0) is
 * 0 and its inverse +infinity, so an empty server advances no virtual time and has no departure.
 *
 * <p>A bounded server's table is filled at once; an unbounded one's (M/M/1-PS) grows with the
 * largest population it meets.
 */
final class ShareRates {
    private final java.util.function.IntToDoubleFunction rateOf; // r(n), n >= 1
    private double[] rate;
    private double[] inverse;

    /** Each of n requests at min(1, cores/n) of a core, for n up to {@code bound} at first (more as it meets them). */
    static ShareRates ofCores(int cores, int bound) {
        return new ShareRates(n -> n <= cores ? 1.0 : (double) cores / n, bound);
    }

    /** Each of n requests at {@code perRequest(n)}, for n up to {@code bound}. */
    ShareRates(java.util.function.IntToDoubleFunction perRequest, int bound) {
        this.rateOf = perRequest;
        int length = Math.max(2, Math.min(bound, 1 << 10) + 1);
        rate = new double[0];
        inverse = new double[0];
        grow(length);
    }

    /** r(n): what each of n requests inside progresses in a second. */
    double rate(int n) {
        if (n >= rate.length) {
            grow(Math.max(n + 1, 2 * rate.length));
        }
        return rate[n];
    }

    /** 1 / r(n): the seconds a request inside needs for one second of its demand. */
    double inverse(int n) {
        if (n >= inverse.length) {
            grow(Math.max(n + 1, 2 * inverse.length));
        }
        return inverse[n];
    }

    private void grow(int length) {
        int from = rate.length;
        rate = Arrays.copyOf(rate, length);
        inverse = Arrays.copyOf(inverse, length);
        for (int n = from; n < length; n++) {
            rate[n] = n == 0 ? 0 : rateOf.applyAsDouble(n);
            inverse[n] = n == 0 ? Double.POSITIVE_INFINITY : 1 / rate[n];
        }
    }
}
