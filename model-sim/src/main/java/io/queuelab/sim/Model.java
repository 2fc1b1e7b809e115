package io.queuelab.sim;

import java.util.Map;

/**
 * A queueing model the simulator runs. Each model is an immutable record of its parameters;
 * {@link #name()} is the name used on the command line and in manifests, the name of its
 * {@link ModelKind} (which builds it back from {@link #parameters()}: {@link ModelKinds}).
 * A new model is one record implementing it and one line in {@link ModelKinds#ALL}; its
 * {@link #engine()} is one of this package's, so models live here.
 */
public interface Model {

    /** The command-line name, its kind's ({@link ModelKinds#names()}). */
    String name();

    /**
     * The engine that simulates this model: each model says how its server works, so the
     * simulation never chooses by the model's type.
     */
    Engine engine();

    /** Every parameter, for the manifest's "model" section, named as {@link ModelInputs} reads them back. */
    Map<String, Object> parameters();

    /**
     * The mean work a request brings to the server, in seconds (for the DPB model: E[T_proc] +
     * E[T_dp], the server time one request costs including its share of a flush).
     */
    double serverDemand();

    /**
     * This model replaying a measured run's server: every demand times {@code profile}'s factor at
     * the instant its request enters the server; empty for a model whose times are not all demands
     * (the DPB model's flushes are the storage's).
     */
    default java.util.Optional<Model> withDemandProfile(DemandProfile profile) {
        return java.util.Optional.empty();
    }

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
