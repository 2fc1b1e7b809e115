package io.queuelab.core.manifest;

import java.util.Map;

/**
 * The manifest's {@code model} section, in a simulated run: the model, its parameters and the
 * simulation's configuration (model-sim writes it).
 *
 * @param name            the model ({@code mm1}, {@code mm1-ps}, {@code mm1-ld}, {@code dpb})
 * @param parameters      every parameter of the model
 * @param seed            the simulation's seed
 * @param replications    replications asked for
 * @param precision       the relative half-width that stops adding replications; null for a fixed count
 * @param maxReplications the most replications with a precision; null without one
 * @param workload        the arrival process
 * @param mode            the workload's mode again
 * @param durationSeconds the simulated time each replication observes; null when bounded by customers
 * @param customers       the customers each replication serves; null when bounded by time
 * @param warmupRemoval   {@code MSER-5} or {@code none}
 * @param confidence      the confidence level of the intervals (e.g. 0.95)
 * @param logReplication  the replication whose sample path is the run's log (0)
 * @param timeAxis        what the log's times count from
 * @param fields          which instant each field of a log record stands for in this model
 * @param flushLog        the flush-event file of a dpb run; null otherwise
 */
public record ModelInfo(String name, ModelParameters parameters, Long seed, Integer replications, Double precision,
                        Integer maxReplications, ArrivalProcessSpec workload, String mode, Double durationSeconds, Long customers,
                        String warmupRemoval, Double confidence, Integer logReplication, String timeAxis,
                        Map<String, String> fields, String flushLog) {
}
