package io.queuelab.sim.analytic;

/**
 * Exact mean value analysis of N jobs cycling through one exponential FCFS server with mean
 * demand {@code demand} and a delay stage of mean {@code delay} (any distribution) that is part of
 * the response time and never queues: the modified M/M/1 of seed 001 under a closed workload with
 * no think time. Product form holds, so the recursion R_q(n) = demand (1 + Q(n-1)),
 * X(n) = n / (R_q(n) + delay), Q(n) = X(n) R_q(n) is exact.
 */
public record ClosedMva(double demand, double delay) {
    public ClosedMva {
        if (!(demand > 0) || !(delay >= 0)) {
            throw new IllegalArgumentException("demand must be positive and delay non-negative, got " + demand + ", " + delay);
        }
    }

    /** Mean response time (s) with 1 ... maxJobs jobs: element n - 1 is N = n. */
    public double[] responseTimes(int maxJobs) {
        double[] response = new double[maxJobs];
        double queue = 0;
        for (int n = 1; n <= maxJobs; n++) {
            double atServer = demand * (1 + queue);
            response[n - 1] = atServer + delay;
            queue = n / response[n - 1] * atServer;
        }
        return response;
    }

    /** Throughput (1/s) with 1 ... maxJobs jobs, by Little's law on the response times. */
    public double[] throughputs(int maxJobs) {
        double[] response = responseTimes(maxJobs);
        double[] throughput = new double[maxJobs];
        for (int n = 1; n <= maxJobs; n++) {
            throughput[n - 1] = n / response[n - 1];
        }
        return throughput;
    }
}
