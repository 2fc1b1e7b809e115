package io.queuelab.sim;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A queueing model with its parameters set, as a fit returns it: a constant {@code latency}
 * outside any queue (seconds; the modified M/M/1's l) followed by the {@code queue} that model-sim
 * simulates. It predicts the response-time distribution of a run at any arrival rate or
 * population by simulation, so every model, whatever its closed forms, is judged the same way.
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
     * The predicted run at {@code workload}: {@code customers} answered requests after warm-up,
     * over {@code replications} independent replications (which run in parallel).
     */
    public Prediction predict(ArrivalProcess workload, long customers, int replications, long seed) throws IOException {
        return prediction(Simulation.of(queue, workload).customers(Math.max(1, customers / replications))
                .replications(replications).seed(seed).run());
    }

    /**
     * A run of a fixed length replayed: {@code replications} independent replications of
     * {@code seconds} of {@code workload} each, from an empty system, counting only the requests
     * that arrive at {@code measureFrom} or later (a measured run's warm-up loads the system but is
     * not measured); no warm-up is cut otherwise. The timeline is finite, so a load beyond the
     * model's capacity is replayed too (its queue grows while it lasts).
     */
    public Prediction predictOver(ArrivalProcess workload, double seconds, double measureFrom, int replications, long seed) throws IOException {
        return prediction(Simulation.of(queue, workload).duration(seconds).measureFrom(measureFrom).removeWarmup(false)
                .replications(replications).seed(seed).run());
    }

    /** A simulation's outcome as this model predicts it: response times and mean shifted by the latency. */
    private Prediction prediction(SimulationResult r) {
        return new Prediction(shifted(r.responseTimes()), r.meanResponse().value() + latency, r.meanResponse().halfWidth(),
                r.throughput().value());
    }

    /**
     * Independent replications of {@code sampleSize} customers each (the simulation-noise
     * yardstick of a measured sample of that size), response times shifted by the latency.
     */
    public List<Histogram> replications(ArrivalProcess workload, long sampleSize, int count, long seed) throws IOException {
        List<Histogram> out = new ArrayList<>();
        for (ReplicationResult r : Simulation.of(queue, workload).customers(sampleSize).replications(count).seed(seed).run().replications()) {
            out.add(shifted(r.responseTimes()));
        }
        return out;
    }

    private Histogram shifted(Histogram h) {
        if (latency == 0) {
            return h;
        }
        long shift = Math.round(latency * 1e9);
        Histogram out = new Histogram(3);
        for (HistogramIterationValue v : h.recordedValues()) {
            // saturating: a model without a steady state in practice (mm1-ld's service time at its capacity can pass
            // Long.MAX_VALUE ns, which the histogram holds as that) must not wrap to a negative time
            long value = v.getValueIteratedTo();
            out.recordValueWithCount(value > Long.MAX_VALUE - shift ? Long.MAX_VALUE : value + shift, v.getCountAtValueIteratedTo());
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
     */
    public record Prediction(Histogram responseNanos, double meanResponse, double meanHalfWidth, double throughput) {
        /** The q-quantile (0..1) of the response time, seconds. */
        public double quantile(double q) {
            return responseNanos.getValueAtPercentile(q * 100) / 1e9;
        }
    }
}
