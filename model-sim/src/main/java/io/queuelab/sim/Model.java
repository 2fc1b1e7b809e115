package io.queuelab.sim;

import java.util.Map;

/**
 * A queueing model the simulator runs. Each model is an immutable record of its parameters;
 * {@link #name()} is the name used on the command line and in manifests.
 */
public sealed interface Model permits ServiceTimeModel, DirtyPageBufferModel {

    /** The command-line name: mm1, mm1-ps, mm1-ld or dpb. */
    String name();

    /**
     * The engine that simulates this model: each model says how its server works, so the
     * simulation never chooses by the model's type.
     */
    Engine engine();

    /** Every parameter, for the manifest's "model" section. */
    Map<String, Object> parameters();

    /**
     * The mean work a request brings to the server, in seconds (for the DPB model: E[T_proc] +
     * E[T_dp], the server time one request costs including its share of a flush).
     */
    double serverDemand();

    /** Mean delay outside the server per request (the DPB network delay; 0 otherwise). */
    default double delay() {
        return 0;
    }

    /** Utilization of the server under open arrivals at {@code lambda} per second. */
    default double utilization(double lambda) {
        return lambda * serverDemand();
    }

    /**
     * Whether an open model at {@code lambda} has a stationary regime. Models that refuse
     * requests beyond a capacity are always stable.
     */
    default boolean stableAt(double lambda) {
        return utilization(lambda) < 1;
    }
}
