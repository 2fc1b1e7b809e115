package io.queuelab.fit;

import io.queuelab.core.manifest.BackendInfo;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.runs.RunShape;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The time a request spends outside the server's work, measured where nothing else is in it: runs
 * of a statement that does no work on the server (operation {@value #OPERATION}, {@code SELECT 1}),
 * whose mean response time less the server's own cpu per statement (its process's cpu counters over
 * the run) is the driver, the network both ways, the wake-ups of the threads and cpus on the way and
 * the client's hand-off. Every other statement's response holds the same, confounded there with the
 * server's work, a log flush or a queue; the models that split a response into the server's part and
 * a latency beside it (client-ps-cpu, client-slice, group-commit) take it from here instead of from
 * that split.
 *
 * <p>It is measured twice because it differs by the way the load is applied (2026-11-29, the
 * embedded MariaDB on one core, the generator on the other): a closed round trip of one job, each
 * statement sent as the last returns, took 38 us (p50); Poisson arrivals at 100, 1,000 and 5,000/s
 * took 306, 214 and 196 us, whether or not the server had just answered the one before. So the
 * {@link #open} trip is the latency of open runs, the {@link #closed} one of closed runs; one given
 * alone stands for both (and says so).
 *
 * <p>Guarantee: each trip's {@link Trip#seconds} is finite and 0 or more. Without the server's cpu
 * counters the whole round trip is taken (an upper bound by the server's least work, said by
 * {@link Trip#describe}).
 */
public record ClientTime(Trip open, Trip closed) {
    /** The operation of a round-trip run (generator-jdbc's {@code Workload.ROUND_TRIP}). */
    public static final String OPERATION = "round-trip";

    public ClientTime {
        java.util.Objects.requireNonNull(open, "open");
        java.util.Objects.requireNonNull(closed, "closed");
    }

    /**
     * One round-trip run.
     *
     * @param run        the run's name
     * @param closedLoop whether its load was closed (jobs), else open (arrivals)
     * @param response   its mean response time, seconds
     * @param p50        its median response time, seconds
     * @param p99        its 99th percentile, seconds
     * @param serverCpu  the server's cpu per statement, seconds (NaN: not sampled)
     * @param seconds    the time outside the server's work: response less serverCpu, floored at 0
     */
    public record Trip(String run, boolean closedLoop, double response, double p50, double p99, double serverCpu, double seconds) {
        /** The trip {@code run} measured; empty when it is no round trip or answered nothing. */
        public static Optional<Trip> of(RunData run) throws IOException {
            if (!isRoundTrip(run) || run.okCount() == 0) {
                return Optional.empty();
            }
            double response = run.meanResponseSeconds();
            double cpu = run.serverWork().cpuSecondsPerRequest();
            double outside = cpu > 0 ? response - cpu : response;
            return Optional.of(new Trip(run.name(), RunShape.of(run).closed(), response, run.quantileSeconds(0.5),
                    run.quantileSeconds(0.99), cpu > 0 ? cpu : Double.NaN, Math.max(0, outside)));
        }

        /** "0.0240 ms (the closed round trip rt1: mean 0.0496 ms, p50 ..., p99 ...; less the server's cpu, 0.0256 ms a statement)". */
        public String describe() {
            return String.format(Locale.ROOT, "%.4f ms (the %s round trip %s: mean %.4f ms, p50 %.4f, p99 %.4f; %s)", seconds * 1e3,
                    closedLoop ? "closed" : "open", run, response * 1e3, p50 * 1e3, p99 * 1e3, Double.isNaN(serverCpu)
                            ? "the server's cpu not sampled: the whole round trip, its least work included"
                            : String.format(Locale.ROOT, "less the server's cpu, %.4f ms a statement", serverCpu * 1e3));
        }
    }

    /** Whether {@code run}'s manifest names the round trip as its one operation. */
    public static boolean isRoundTrip(RunData run) {
        List<BackendInfo.Operation> operations = run.manifest().flatMap(Manifest::backend).map(BackendInfo::operations).orElse(List.of());
        return operations.size() == 1 && operations.get(0).name().equals(OPERATION);
    }

    /** The latency of a run of this shape: the open trip's for an open run, the closed one's for a closed run. */
    public double seconds(boolean closedLoop) {
        return (closedLoop ? closed : open).seconds();
    }

    /** {@code runs} without their round trips (nothing of a run is read). */
    public static List<RunData> withoutRoundTrips(List<RunData> runs) {
        return runs.stream().filter(r -> !isRoundTrip(r)).toList();
    }

    /** {@code runs} without their round trips, those round trips, and their client time (at most one open and one closed). */
    public record Split(List<RunData> runs, List<RunData> roundTrips, Optional<ClientTime> clientTime) {
        public static Split of(List<RunData> runs) throws IOException {
            List<RunData> trips = runs.stream().filter(ClientTime::isRoundTrip).toList();
            Trip open = null, closed = null;
            for (RunData r : trips) {
                Trip trip = Trip.of(r).orElseThrow(() -> new IllegalArgumentException("the round-trip run " + r.name()
                        + " has no successful request: no client time"));
                Trip before = trip.closedLoop() ? closed : open;
                if (before != null) {
                    throw new IllegalArgumentException("two " + (trip.closedLoop() ? "closed" : "open") + " round-trip runs given ("
                            + before.run() + ", " + r.name() + "): the client time of each kind of load is measured by one");
                }
                if (trip.closedLoop()) {
                    closed = trip;
                } else {
                    open = trip;
                }
            }
            Optional<ClientTime> time = open == null && closed == null ? Optional.empty()
                    : Optional.of(new ClientTime(open != null ? open : closed, closed != null ? closed : open));
            return new Split(withoutRoundTrips(runs), trips, time);
        }
    }

    /** The line validate and the report print: both trips, and which models take them. */
    public String describeUse() {
        String trips = open == closed
                ? "client time " + open.describe() + ", of open and closed runs alike (one round trip given)"
                : "client time of open runs " + open.describe() + ", of closed runs " + closed.describe();
        return trips + ": the latency beside the server of client-ps-cpu, client-slice and group-commit (their fits say"
                + " \"latency: the client time\"), measured apart from the responses they are fitted to";
    }

    /** The run names, for a fit's method line. */
    public String runs() {
        return open == closed ? open.run() : open.run() + " and " + closed.run();
    }
}
