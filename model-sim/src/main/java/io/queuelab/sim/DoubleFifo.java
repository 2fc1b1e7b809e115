package io.queuelab.sim;

/**
 * A first-in first-out queue of doubles in a ring that doubles when full: the client's queue of
 * arrival instants, and the run queue of slot numbers (ints, exact in a double), of the shared
 * servers. No boxing, so a simulation allocates only when a queue grows.
 *
 * <p>The ring's length is a power of two, so a position wraps by a mask: {@code %} by a length
 * the compiler cannot see is an integer division (tens of cycles) on every add and poll, and the
 * shared servers add and poll several times a request.
 */
final class DoubleFifo {
    private double[] values = new double[64];
    private int mask = values.length - 1;
    private int head;
    private int count;

    void add(double v) {
        if (count == values.length) {
            grow();
        }
        values[(head + count) & mask] = v;
        count++;
    }

    /** Puts {@code v} ahead of every value in the queue (a request that cuts in). */
    void addFirst(double v) {
        if (count == values.length) {
            grow();
        }
        head = (head - 1) & mask;
        values[head] = v;
        count++;
    }

    /** Out of add, which the servers' loops then take in: see {@link SharedServer}'s note on inlining. */
    private void grow() {
        double[] grown = new double[2 * values.length];
        for (int i = 0; i < count; i++) {
            grown[i] = values[(head + i) & mask];
        }
        values = grown;
        mask = grown.length - 1;
        head = 0;
    }

    /** The oldest value, removed; the queue must not be empty. */
    double poll() {
        double v = values[head];
        head = (head + 1) & mask;
        count--;
        return v;
    }

    boolean isEmpty() {
        return count == 0;
    }

    int size() {
        return count;
    }
}
