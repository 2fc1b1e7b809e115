package io.queuelab.sim;

import java.util.Map;

/**
 * The M/M/1 with load-dependent service of seed 001, section 3.2, served by processor sharing:
 * each arrival multiplies the remaining service of the requests in progress by (1+p), each
 * departure divides it by (1+p), so with n requests present the server works at 1/(1+p)^(n-1) of
 * its speed and a request's mean service time is x (1+p)^(n-1).
 *
 * <p>Because the slowdown grows geometrically, the open model with p > 0 has no stationary regime
 * on an unbounded buffer; the server therefore admits at most {@code capacity} requests (the
 * M/G/1/K*PS queue the load-dependent model comes from) and refuses arrivals beyond, which the
 * log records as dropped.
 */
public record LoadDependentModel(Distribution service, double p, int capacity) implements ServiceTimeModel {
    public static final ModelKind KIND = new ModelKind("mm1-ld", "one server slowing with the requests inside, at most capacity of them",
            java.util.List.of("service", "p"), java.util.List.of("capacity"), in -> new LoadDependentModel(in.distribution("service").orElseThrow(),
            in.number("p").orElseThrow(), in.count("capacity").orElse(LoadDependentModel.DEFAULT_CAPACITY)));

    /** The capacity used when none is given: large enough that p = 0 behaves as M/M/1 at rho below 0.95. */
    public static final int DEFAULT_CAPACITY = 1000;
    /** The largest capacity (the simulator keeps one rate per population size). */
    public static final int MAX_CAPACITY = 1_000_000;

    public LoadDependentModel {
        java.util.Objects.requireNonNull(service, "service");
        if (!(p >= 0 && p < 1)) {
            throw new IllegalArgumentException("load dependency p must be in [0, 1), got " + p);
        }
        if (capacity < 1 || capacity > MAX_CAPACITY) {
            throw new IllegalArgumentException("capacity must be between 1 and " + MAX_CAPACITY + ", got " + capacity);
        }
    }

    public static LoadDependentModel exponential(double meanService, double p, int capacity) {
        return new LoadDependentModel(Distribution.exponential(meanService), p, capacity);
    }

    /** The server's speed with n requests present: 1 / (1+p)^(n-1). */
    public double speed(int n) {
        return Math.pow(1 + p, -(n - 1));
    }

    @Override
    public Engine engine() {
        return Engine.processorSharing(service, capacity, this::speed);
    }

    @Override
    public String name() {
        return "mm1-ld";
    }

    @Override
    public Map<String, Object> parameters() {
        Map<String, Object> m = ServiceTimeModel.super.parameters();
        m.put("p", p);
        m.put("capacity", capacity);
        return m;
    }

    @Override
    public boolean stableAt(double lambda) {
        return true; // arrivals beyond the capacity are refused
    }
}
