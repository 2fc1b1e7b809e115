package io.queuelab.sim;

import java.util.Arrays;

/**
 * A binary min-heap of (key, value) pairs of doubles on two primitive arrays: the simulator's
 * event list. O(log n) push and pop, no allocation per event; grows only with the number of
 * entries present at once.
 */
final class DoubleHeap {
    private double[] keys = new double[64];
    private double[] values = new double[64];
    private int size;

    DoubleHeap() {
        keys[0] = Double.POSITIVE_INFINITY; // empty: see minKey
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /**
     * The smallest key, or +infinity when empty: the first key is kept at +infinity while the heap is empty, so this is
     * a load, not a branch on whether a server is empty (a coin toss at every event of a busy server).
     */
    double minKey() {
        return keys[0];
    }

    /** The value of the smallest key (undefined when empty). */
    double minValue() {
        return values[0];
    }

    void push(double key, double value) {
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, 2 * size);
            values = Arrays.copyOf(values, 2 * size);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (keys[parent] <= key) {
                break;
            }
            keys[i] = keys[parent];
            values[i] = values[parent];
            i = parent;
        }
        keys[i] = key;
        values[i] = value;
    }

    /** Removes the entry with the smallest key. */
    void pop() {
        int n = --size;
        if (n == 0) {
            keys[0] = Double.POSITIVE_INFINITY;
            return;
        }
        double key = keys[n];
        double value = values[n];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= n) {
                break;
            }
            if (child + 1 < n && keys[child + 1] < keys[child]) {
                child++;
            }
            if (keys[child] >= key) {
                break;
            }
            keys[i] = keys[child];
            values[i] = values[child];
            i = child;
        }
        keys[i] = key;
        values[i] = value;
    }
}
