package io.queuelab.reports.fit;

import io.queuelab.reports.data.RunData;

/**
 * One open-loop run reduced to what the M/M/1 fits need: its arrival rate (per second), mean
 * response time (seconds) and number of successful requests.
 */
public record Mm1Point(String name, double lambda, double meanResponse, long n) {

    public Mm1Point {
        if (!(lambda > 0) || !(meanResponse > 0) || n < 1) {
            throw new IllegalArgumentException("run " + name + " has no usable rate or mean response (lambda "
                    + lambda + ", mean " + meanResponse + ", n " + n + ")");
        }
    }

    /** The measured arrival rate and exact mean response time of a run. */
    public static Mm1Point of(RunData run) {
        return new Mm1Point(run.name(), run.arrivalRate(), run.meanResponseSeconds(), run.okCount());
    }
}
