package io.queuelab.sim;

import java.util.Map;

/**
 * The client-limited processor-sharing model of a database run: Poisson (or closed) arrivals wait
 * in the client's FIFO queue for one of {@code connections} (K) connections; the requests holding
 * one share a server of {@code cores} (c) cores, each of n inside getting min(1, c/n) of a core;
 * {@link #service()} is the demand a request brings to one core. With K = c no request is ever
 * slowed by another inside, so the model is M/G/c FCFS (M/G/1 with K = c = 1).
 *
 * <p>With a {@code slice} (seconds, positive: the slices' mean length) the cores are not shared
 * evenly at every instant but time-sliced, as an operating system's scheduler does: each request
 * runs on a core for at most one slice and then queues again behind those that became ready
 * ({@link TimeSlicedServer}); a slice of 0 is the processor sharing above, its limit. Of each slice
 * {@code sliceFixed} seconds are fixed and the rest exponential (0: exponential slices; equal to
 * {@code slice}: fixed ones); a request that takes a connection goes ahead of the run queue with
 * probability {@code cutIn}.
 *
 * <p>With a {@link DemandProfile} every demand is multiplied by the profile's factor at the instant
 * its request takes a connection: a measured run's server replayed period by period.
 *
 * <p>Capacity: min(K, c) / E[demand] requests per second (with a profile, E[demand] times its mean
 * factor: over its periods on average; a period whose factor is above that may still overload), so
 * an open model is stable below it.
 */
public record ClientLimitedModel(Distribution service, int connections, int cores, double slice, double sliceFixed, double cutIn,
                                 DemandProfile profile) implements ServiceTimeModel {
    public static final ModelKind KIND = new ModelKind("client-ps", "a client queue, K connections, c cores shared by the requests inside",
            java.util.List.of("service", "connections", "cores"), java.util.List.of(), in -> new ClientLimitedModel(
            in.distribution("service").orElseThrow(), in.count("connections").orElseThrow(), in.count("cores").orElseThrow()));
    public static final ModelKind SLICED_KIND = new ModelKind("client-slice",
            "a client queue, K connections, c cores time-sliced in slices of a mean length", java.util.List.of("service", "connections",
            "cores", "sliceSeconds"), java.util.List.of("sliceFixedSeconds", "cutIn"), in -> new ClientLimitedModel(
            in.distribution("service").orElseThrow(), in.count("connections").orElseThrow(), in.count("cores").orElseThrow(),
            in.number("sliceSeconds").orElseThrow(), in.number("sliceFixedSeconds").orElse(0.0), in.number("cutIn").orElse(0.0), null));

    /** The most connections the simulator keeps a slot for. */
    public static final int MAX_CONNECTIONS = 1 << 20;

    public ClientLimitedModel {
        java.util.Objects.requireNonNull(service, "service");
        if (connections < 1 || connections > MAX_CONNECTIONS) {
            throw new IllegalArgumentException("connections must be between 1 and " + MAX_CONNECTIONS + ", got " + connections);
        }
        if (cores < 1) {
            throw new IllegalArgumentException("server cores must be at least 1, got " + cores);
        }
        if (!(slice >= 0) || Double.isInfinite(slice)) {
            throw new IllegalArgumentException("the cores' time slice must be a finite number of seconds, 0 or more, got " + slice);
        }
        if (!(sliceFixed >= 0 && sliceFixed <= slice)) {
            throw new IllegalArgumentException("the slice's fixed part must be between 0 and the slice (" + slice + " s), got " + sliceFixed);
        }
        if (!(cutIn >= 0 && cutIn < 1)) {
            throw new IllegalArgumentException("the cut-in probability must be at least 0 and below 1, got " + cutIn);
        }
        if (slice == 0 && cutIn > 0) {
            throw new IllegalArgumentException("a cut-in probability needs time-sliced cores (a slice above 0)");
        }
    }

    /** The model with demands as drawn and exponential slices, no request cutting in. */
    public ClientLimitedModel(Distribution service, int connections, int cores, double slice, DemandProfile profile) {
        this(service, connections, cores, slice, 0, 0, profile);
    }

    /** Time-sliced cores whose slices have a fixed part of {@code sliceFixed}, with {@code cutIn} of the requests cutting in. */
    public ClientLimitedModel(Distribution service, int connections, int cores, double slice, double sliceFixed, double cutIn) {
        this(service, connections, cores, slice, sliceFixed, cutIn, null);
    }

    /** Processor sharing: each of n requests inside gets min(1, c/n) of a core at every instant. */
    public ClientLimitedModel(Distribution service, int connections, int cores) {
        this(service, connections, cores, 0);
    }

    /** The model with demands as drawn (no {@link DemandProfile}). */
    public ClientLimitedModel(Distribution service, int connections, int cores, double slice) {
        this(service, connections, cores, slice, null);
    }

    /**
     * The same system replaying a measured run's server: every demand times {@code profile}'s factor
     * at the instant the request takes a connection. Not written to a simulated run's manifest: it
     * is for predicting a measured run at its own server, not for a run of its own.
     */
    public ClientLimitedModel withProfile(DemandProfile profile) {
        return new ClientLimitedModel(service, connections, cores, slice, sliceFixed, cutIn, java.util.Objects.requireNonNull(profile, "profile"));
    }

    @Override
    public java.util.Optional<Model> withDemandProfile(DemandProfile profile) {
        return java.util.Optional.of(withProfile(profile));
    }

    /** M/G/c FCFS: c connections to c cores. */
    public static ClientLimitedModel fcfs(Distribution service, int servers) {
        return new ClientLimitedModel(service, servers, servers);
    }

    /** The requests served at once at full speed: min(K, c). */
    public int parallelism() {
        return Math.min(connections, cores);
    }

    @Override
    public Engine engine() {
        // at most K requests hold a connection, so cores beyond K are never used: the same system on min(K, c) cores, whose
        // simulation does not scan idle cores (validate --server-cores 8192 with K = 16 ran for minutes)
        int used = parallelism();
        return slice > 0 ? Engine.timeSliced(service, connections, used, slice, sliceFixed, cutIn, profile)
                : Engine.clientLimited(service, connections, used, profile);
    }

    @Override
    public String name() {
        return slice > 0 ? "client-slice" : "client-ps";
    }

    @Override
    public Map<String, Object> parameters() {
        Map<String, Object> m = ServiceTimeModel.super.parameters();
        m.put("connections", connections);
        m.put("cores", cores);
        if (slice > 0) {
            m.put("sliceSeconds", slice);
        }
        if (sliceFixed > 0) {
            m.put("sliceFixedSeconds", sliceFixed);
        }
        if (cutIn > 0) {
            m.put("cutIn", cutIn);
        }
        return m;
    }

    /** The mean demand; with a profile, times its mean factor (over its periods on average). */
    @Override
    public double serverDemand() {
        return service.mean() * (profile == null ? 1 : profile.mean());
    }

    /** Utilization of the min(K, c) requests' worth of capacity (with a profile, at its mean factor). */
    @Override
    public double utilization(double lambda) {
        return lambda * serverDemand() / parallelism();
    }
}
