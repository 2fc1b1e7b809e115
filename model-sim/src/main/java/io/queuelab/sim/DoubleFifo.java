package io.queuelab.sim;

/**
 * A first-in first-out queue of doubles in a ring that doubles when full: the client's queue of
 * arrival instants, and the run queue of slot numbers (ints, exact in a double), of the shared
 * servers. No boxing, so a simulation allocates only when a queue grows.
 */
final class DoubleFifo {
    private double[] values = new double[64];
    private int head;
    private int count;

    void add(double v) {
        if (count == values.length) {
            double[] grown = new double[2 * values.length];
            for (int i = 0; i < count; i++) {
                grown[i] = values[(head + i) % values.length];
            }
            values = grown;
            head = 0;
        }
        values[(head + count) % values.length] = v;
        count++;
    }

    /** The oldest value, removed; the queue must not be empty. */
    double poll() {
        double v = values[head];
        head = (head + 1) % values.length;
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
