package io.queuelab.core.backend;

import java.util.List;
import java.util.Objects;

/**
 * The named operations of a backend and the probability of each. Operation codes are the indices
 * of {@link #names()}; at most 127 operations, as the request log stores the code in one byte.
 */
public final class OperationMix {
    private final List<String> names;
    private final double[] cumulative;

    private OperationMix(List<String> names, double[] weights) {
        if (names.isEmpty() || names.size() != weights.length || names.size() > 127) {
            throw new IllegalArgumentException("an operation mix needs 1 to 127 named operations, one weight each");
        }
        this.names = List.copyOf(names);
        this.cumulative = new double[weights.length];
        double total = 0;
        for (int i = 0; i < weights.length; i++) {
            if (!(weights[i] >= 0) || Double.isInfinite(weights[i])) {
                throw new IllegalArgumentException("operation weight must be a finite number >= 0: " + weights[i]);
            }
            total += weights[i];
            cumulative[i] = total;
        }
        if (total <= 0) {
            throw new IllegalArgumentException("operation weights must not all be zero");
        }
        for (int i = 0; i < cumulative.length; i++) {
            cumulative[i] /= total;
        }
    }

    /** A mix of one operation. */
    public static OperationMix single(String name) {
        return new OperationMix(List.of(Objects.requireNonNull(name)), new double[] {1});
    }

    /** A mix of several operations with relative weights (they need not sum to one). */
    public static OperationMix weighted(List<String> names, double[] weights) {
        return new OperationMix(names, weights.clone());
    }

    public List<String> names() {
        return names;
    }

    public int size() {
        return names.size();
    }

    /** The probability of operation {@code code}. */
    public double probability(int code) {
        return cumulative[code] - (code == 0 ? 0 : cumulative[code - 1]);
    }

    /** The operation drawn by a uniform variate {@code u} in [0, 1). */
    public int pick(double u) {
        for (int i = 0; i < cumulative.length - 1; i++) {
            if (u < cumulative[i]) {
                return i;
            }
        }
        return cumulative.length - 1;
    }
}
