package io.queuelab.sim.analytic;

/**
 * Asymptotic bounds of a closed system of N jobs on one server with mean demand {@code demand}
 * per request, a mean delay {@code delay} outside the server that is part of the response time
 * (the DPB network delay), and a mean think time {@code think} that is not:
 * X(N) <= min(N / (demand + delay + think), 1 / demand) and R(N) >= max(demand + delay, N demand - think).
 */
public record ClosedBounds(double demand, double delay, double think) {
    public ClosedBounds {
        if (!(demand > 0) || delay < 0 || think < 0) {
            throw new IllegalArgumentException("demand must be positive, delay and think time non-negative");
        }
    }

    /** Upper bound of the throughput with N jobs, per second. */
    public double throughputBound(int jobs) {
        return Math.min(jobs / (demand + delay + think), 1 / demand);
    }

    /** Lower bound of the mean response time with N jobs, seconds. */
    public double responseBound(int jobs) {
        return Math.max(demand + delay, jobs * demand - think);
    }

    /** N*, where the two throughput asymptotes cross. */
    public double saturationPoint() {
        return (demand + delay + think) / demand;
    }
}
