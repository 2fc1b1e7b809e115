package io.queuelab.fit.runs;

/**
 * An evenly thinned sample of (completion instant, response time) points for plotting, at most
 * {@link #MAX_POINTS} long: every k-th successful request is kept, and k doubles when it fills.
 */
public final class ResponseSample {
    public static final int MAX_POINTS = 20_000;

    private final double[] atSeconds = new double[MAX_POINTS];
    private final double[] responseSeconds = new double[MAX_POINTS];
    private int size;
    private long stride = 1;
    private long seen;

    void offer(long completedNanos, long responseNanos) {
        if (seen++ % stride != 0) {
            return;
        }
        if (size == MAX_POINTS) {
            for (int i = 0; i < MAX_POINTS / 2; i++) {
                atSeconds[i] = atSeconds[2 * i];
                responseSeconds[i] = responseSeconds[2 * i];
            }
            size = MAX_POINTS / 2;
            stride *= 2;
            if ((seen - 1) % stride != 0) {
                return;
            }
        }
        atSeconds[size] = completedNanos / 1e9;
        responseSeconds[size] = responseNanos / 1e9;
        size++;
    }

    public int size() {
        return size;
    }

    public double[] atSeconds() {
        return java.util.Arrays.copyOf(atSeconds, size);
    }

    public double[] responseSeconds() {
        return java.util.Arrays.copyOf(responseSeconds, size);
    }
}
