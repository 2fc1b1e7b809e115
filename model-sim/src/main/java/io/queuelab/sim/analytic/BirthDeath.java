package io.queuelab.sim.analytic;

/**
 * The stationary solution of a finite birth-death chain on states 0..K (requests present):
 * pi_n proportional to the product of birth[i-1]/death[i] for i = 1..n. Computed in logarithms, so
 * large K and extreme rates do not overflow.
 */
public final class BirthDeath {
    private final double[] pi;
    private final double[] birth;
    private final double[] death;

    /**
     * @param birth birth[n] = arrival rate in state n, n = 0..K-1
     * @param death death[n] = departure rate in state n, n = 1..K (death[0] is ignored)
     */
    public BirthDeath(double[] birth, double[] death) {
        int k = birth.length;
        if (death.length != k + 1) {
            throw new IllegalArgumentException("need K birth rates and K+1 death rates (death[0] unused)");
        }
        this.birth = birth.clone();
        this.death = death.clone();
        double[] logWeight = new double[k + 1];
        double max = 0;
        for (int n = 1; n <= k; n++) {
            logWeight[n] = logWeight[n - 1] + Math.log(birth[n - 1]) - Math.log(death[n]);
            max = Math.max(max, logWeight[n]);
        }
        pi = new double[k + 1];
        double total = 0;
        for (int n = 0; n <= k; n++) {
            pi[n] = Math.exp(logWeight[n] - max);
            total += pi[n];
        }
        for (int n = 0; n <= k; n++) {
            pi[n] /= total;
        }
    }

    /**
     * The load-dependent M/M/1 of seed 001 with capacity K: births at lambda below K, deaths at
     * (1/x) / (1+p)^(n-1) with n present (processor sharing on a server slowed by (1+p)^(n-1)).
     */
    public static BirthDeath loadDependent(double lambda, double meanService, double p, int capacity) {
        double[] birth = new double[capacity];
        double[] death = new double[capacity + 1];
        java.util.Arrays.fill(birth, lambda);
        for (int n = 1; n <= capacity; n++) {
            death[n] = Math.pow(1 + p, -(n - 1)) / meanService;
        }
        return new BirthDeath(birth, death);
    }

    /** P(n requests present). */
    public double probability(int n) {
        return pi[n];
    }

    public int capacity() {
        return pi.length - 1;
    }

    public double meanPopulation() {
        double l = 0;
        for (int n = 1; n < pi.length; n++) {
            l += n * pi[n];
        }
        return l;
    }

    /** Departure rate (= accepted arrival rate). */
    public double throughput() {
        double x = 0;
        for (int n = 1; n < pi.length; n++) {
            x += pi[n] * death[n];
        }
        return x;
    }

    /** Mean response time of accepted requests, by Little's law. */
    public double meanResponse() {
        return meanPopulation() / throughput();
    }

    /** The fraction of arrivals refused when births are Poisson at a constant rate (PASTA): pi_K. */
    public double blockingProbability() {
        return pi[pi.length - 1];
    }
}
