package io.queuelab.core.manifest;

import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The manifest's {@code config} section: the load plan a measured run followed and the
 * generator's bounds. Rates and job counts are the node's own (in a merged run, all nodes'
 * together). Durations are in seconds.
 *
 * @param loop                 {@code open} or {@code closed}
 * @param arrivals             {@code poisson} or {@code constant} (an open loop's gaps)
 * @param meanThinkTimeSeconds a closed loop's mean think time between a job's requests (0 for none)
 * @param requestsPerJob       a closed run's finite work per job; null when jobs run until the phase ends
 * @param phases               the phases in order
 * @param workers              synchronous worker threads of an open run
 * @param queueBound           capacity of the request queue
 * @param inFlightBound        most requests in flight at once on an asynchronous backend
 * @param seed                 the node's seed; null in a merged run (each node's is in {@code merge.nodes})
 * @param startAt              the wall-clock instant (ISO-8601) the schedule was told to start at, or that the
 *                             clock reference named once every node was ready ({@code --start-at ready});
 *                             null for "now"
 */
public record LoadConfig(String loop, String arrivals, double meanThinkTimeSeconds, Long requestsPerJob,
                         List<PhaseConfig> phases, int workers, int queueBound, int inFlightBound, Long seed,
                         double reportIntervalSeconds, double drainTimeoutSeconds, String startAt) {
    public LoadConfig {
        phases = phases == null ? List.of() : List.copyOf(phases);
    }

    /** The configuration of a run of {@code plan}. */
    public static LoadConfig of(LoadPlan plan, int workers, int queueBound, int inFlightBound, Long seed,
                                double reportIntervalSeconds, double drainTimeoutSeconds, String startAt) {
        return new LoadConfig(plan.closedLoop() ? "closed" : "open", plan.arrivals().name().toLowerCase(Locale.ROOT),
                plan.meanThinkTime().toNanos() / 1e9, plan.finiteWork() ? plan.requestsPerJob() : null,
                plan.phases().stream().map(PhaseConfig::of).toList(), workers, queueBound, inFlightBound, seed,
                reportIntervalSeconds, drainTimeoutSeconds, startAt);
    }

    /** This configuration with the start instant the clock reference named ({@code --start-at ready}). */
    public LoadConfig withStartAt(String instant) {
        return new LoadConfig(loop, arrivals, meanThinkTimeSeconds, requestsPerJob, phases, workers, queueBound, inFlightBound,
                seed, reportIntervalSeconds, drainTimeoutSeconds, instant);
    }

    public boolean closedLoop() {
        return "closed".equals(loop);
    }

    /**
     * The open loop's arrival process; Poisson when the manifest names none.
     *
     * @throws IllegalArgumentException naming the value, when it is not an arrival process of this queuelab
     */
    public LoadPlan.Arrivals arrivalProcess() {
        if (arrivals == null) {
            return LoadPlan.Arrivals.POISSON;
        }
        for (LoadPlan.Arrivals a : LoadPlan.Arrivals.values()) {
            if (a.name().equalsIgnoreCase(arrivals)) {
                return a;
            }
        }
        throw new IllegalArgumentException("its manifest's config.arrivals is '" + arrivals + "', not "
                + String.join(" or ", Arrays.stream(LoadPlan.Arrivals.values())
                        .map(a -> a.name().toLowerCase(Locale.ROOT)).toList()));
    }

    /** The same configuration with other phases (a merge's totals) and no seed or start instant. */
    public LoadConfig merged(List<PhaseConfig> mergedPhases) {
        return new LoadConfig(loop, arrivals, meanThinkTimeSeconds, requestsPerJob, mergedPhases, workers, queueBound,
                inFlightBound, null, reportIntervalSeconds, drainTimeoutSeconds, null);
    }

    /**
     * One phase.
     *
     * @param concurrency jobs kept in the system (closed loop); null in an open run
     * @param rate        arrivals per second (open loop); null in a closed run
     * @param warmup      the phase's requests are flagged as warm-up and left out of summaries
     */
    public record PhaseConfig(String name, double durationSeconds, Integer concurrency, Double rate, boolean warmup) {
        public static PhaseConfig of(Phase p) {
            return new PhaseConfig(p.name(), p.duration().toNanos() / 1e9, p.closedLoop() ? p.concurrency() : null,
                    p.closedLoop() ? null : p.rate(), p.warmup());
        }

        public boolean closedLoop() {
            return concurrency != null;
        }

        public java.time.Duration duration() {
            return java.time.Duration.ofNanos(Math.round(durationSeconds * 1e9));
        }
    }
}
