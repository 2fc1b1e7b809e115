package io.queuelab.core.manifest;

/**
 * The arrival process of a simulated run ({@code model.workload}): model-sim's {@code ArrivalProcess}
 * as its manifest keeps it; which fields are set depends on {@code mode}.
 *
 * @param mode              {@code open}, {@code closed} or {@code trace}
 * @param lambda            open: the Poisson arrival rate, per s
 * @param jobs              closed: the jobs kept in the system
 * @param thinkTime         closed: the think time between a job's requests
 * @param arrivals          trace: the arrivals replayed
 * @param firstArrivalNanos trace: the first arrival, ns of the traced run
 * @param lastArrivalNanos  trace: the last arrival
 * @param rate              trace: the mean arrival rate, per s
 */
public record ArrivalProcessSpec(String mode, Double lambda, Integer jobs, DistributionSpec thinkTime, Long arrivals,
                                 Long firstArrivalNanos, Long lastArrivalNanos, Double rate) {
    public boolean closed() {
        return "closed".equals(mode);
    }
}
