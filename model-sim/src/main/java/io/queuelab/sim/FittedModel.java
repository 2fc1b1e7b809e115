package io.queuelab.sim;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A queueing model with its parameters set, as a fit returns it: a constant {@code latency}
 * outside any queue (seconds; the modified M/M/1's l) on the way to the {@code queue} that
 * model-sim simulates. It predicts the response-time distribution of a run at any arrival rate or
 * population by simulation, so every model, whatever its closed forms, is judged the same way.
 *
 * <p>This is the one way a fitted model is simulated: every prediction, replay and yardstick
 * replication goes through {@link #simulation}, which runs the latency as a stage of the request's
 * path ({@link Simulation#latency}), not as a shift of the results. A closed job's cycle is then
 * think time, latency, queue, and a closed prediction obeys Little's law X(N) x (R(N) + Z) = N.
 *
 * <p>Guarantees: a prediction depends only on the workload, the number of customers and the
 * seed (model-sim's guarantee); every response time it returns includes the latency.
 */
public record FittedModel(String name, Model queue, double latency) {
    public FittedModel {
        java.util.Objects.requireNonNull(queue, "queue");
        if (!(latency >= 0) || !Double.isFinite(latency)) {
            throw new IllegalArgumentException("latency must be a finite non-negative number of seconds, got " + latency);
        }
    }

    /** Whether an open workload at {@code lambda} has a steady state in this model. */
    public boolean stableAt(double lambda) {
        return queue.stableAt(lambda);
    }

    /**
     * The open arrival rate (per second) at which the queue is fully utilized, its capacity: the
     * rate at which {@link Model#utilization} reaches 1 (infinite for a queue without one).
     */
    public double capacity() {
        double perRequest = queue.utilization(1);
        return perRequest > 0 ? 1 / perRequest : Double.POSITIVE_INFINITY;
    }

    /** The simulation of {@code workload} by this model, the latency a stage of every request's path; configure and run it. */
    public Simulation simulation(ArrivalProcess workload) {
        return Simulation.of(queue, workload).latency(latency);
    }

    /**
     * The predicted run at {@code workload}: {@code customers} answered requests after warm-up,
     * over {@code replications} independent replications (which run in parallel).
     */
    public Prediction predict(ArrivalProcess workload, long customers, int replications, long seed) throws IOException {
        return Prediction.of(simulation(workload).customers(Math.max(1, customers / replications))
                .replications(replications).seed(seed).run(), queue);
    }

    /**
     * A run of a fixed length replayed: {@code replications} independent replications of
     * {@code seconds} of {@code workload} each, from an empty system, counting only the requests
     * that arrive at {@code measureFrom} or later (a measured run's warm-up loads the system but is
     * not measured); no warm-up is cut otherwise. The timeline is finite, so a load beyond the
     * model's capacity is replayed too (its queue grows while it lasts).
     */
    public Prediction predictOver(ArrivalProcess workload, double seconds, double measureFrom, int replications, long seed) throws IOException {
        return Prediction.of(simulation(workload).duration(seconds).measureFrom(measureFrom).removeWarmup(false)
                .replications(replications).seed(seed).run(), queue);
    }

    /**
     * Independent replications of {@code sampleSize} customers each (the simulation-noise
     * yardstick of a measured sample of that size).
     */
    public List<Histogram> replications(ArrivalProcess workload, long sampleSize, int count, long seed) throws IOException {
        List<Histogram> out = new ArrayList<>();
        for (ReplicationResult r : simulation(workload).customers(sampleSize).replications(count).seed(seed).run().replications()) {
            out.add(r.responseTimes());
        }
        return out;
    }

    /**
     * A predicted run.
     *
     * @param responseNanos response times, ns
     * @param meanResponse  exact mean response time, s
     * @param meanHalfWidth the half width of the mean's 95 % confidence interval over the replications, s
     *                      (NaN with one replication)
     * @param throughput    answered requests per second
     * @param dropped       requests the model refused (a server at its capacity of requests present)
     * @param answered      requests answered
     * @param commitsPerFlush the commits one log flush carried on average (the group-commit model, to set beside the
     *                      server's commits per fsync); NaN for a model whose flushes carry no commits
     */
    public record Prediction(Histogram responseNanos, double meanResponse, double meanHalfWidth, double throughput, long dropped,
                             long answered, double commitsPerFlush) {
        static Prediction of(SimulationResult r, Model queue) {
            double commits = queue.engine().flushesCarryCommits() ? r.flushSize().map(Estimate::value).orElse(Double.NaN) : Double.NaN;
            return new Prediction(r.responseTimes(), r.meanResponse().value(), r.meanResponse().halfWidth(), r.throughput().value(),
                    r.dropped(), r.customers(), commits);
        }

        /** The q-quantile (0..1) of the response time, seconds. */
        public double quantile(double q) {
            return responseNanos.getValueAtPercentile(q * 100) / 1e9;
        }
    }
}
