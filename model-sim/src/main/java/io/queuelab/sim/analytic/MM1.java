package io.queuelab.sim.analytic;

import org.apache.commons.math3.distribution.ExponentialDistribution;

/**
 * Closed forms of the M/M/1 queue at arrival rate {@code lambda} and mean service {@code x}
 * (seconds): the FCFS sojourn time is exponential with rate mu - lambda; the processor-sharing
 * mean sojourn time is the same x / (1 - rho).
 */
public record MM1(double lambda, double meanService) {
    public MM1 {
        if (!(lambda > 0 && meanService > 0)) {
            throw new IllegalArgumentException("lambda and mean service must be positive");
        }
        if (lambda * meanService >= 1) {
            throw new IllegalArgumentException("unstable: utilization " + lambda * meanService + " >= 1");
        }
    }

    public double utilization() {
        return lambda * meanService;
    }

    /** E[R] = x / (1 - rho), FCFS and processor sharing alike. */
    public double meanResponse() {
        return meanService / (1 - utilization());
    }

    /** Mean number in the system, rho / (1 - rho). */
    public double meanPopulation() {
        return utilization() / (1 - utilization());
    }

    /** P(R <= t) of the FCFS sojourn time. */
    public double responseCdf(double t) {
        return sojourn().cumulativeProbability(t);
    }

    /** The q-quantile (0..1) of the FCFS sojourn time, seconds. */
    public double responseQuantile(double q) {
        return sojourn().inverseCumulativeProbability(q);
    }

    /** The processor-sharing mean sojourn time (equal to FCFS's for M/M/1). */
    public double processorSharingMeanResponse() {
        return meanResponse();
    }

    private ExponentialDistribution sojourn() {
        return new ExponentialDistribution(null, meanResponse());
    }
}
