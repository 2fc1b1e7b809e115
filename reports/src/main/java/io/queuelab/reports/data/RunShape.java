package io.queuelab.reports.data;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * The workload a run was made with: open (Poisson or trace, at an arrival rate) or closed (N
 * requests kept in the system). Read from the manifest (generator-core's {@code config.loop} and
 * phases, model-sim's {@code model.workload}); a run whose
 * manifest says nothing (a CSV log) is taken as open at its measured arrival rate.
 */
public record RunShape(boolean closed, double level) {
    private static final List<String> SECTIONS = List.of("/model/workload", "/workload", "/schedule", "/load", "/config/workload");

    public static RunShape of(RunData run) {
        JsonNode config = run.manifest().path("config");
        if (config.path("loop").isTextual()) {
            return measured(run, config);
        }
        for (String pointer : SECTIONS) {
            JsonNode section = run.manifest().at(pointer);
            if (!section.isObject()) {
                continue;
            }
            String mode = section.path("mode").asText(section.path("kind").asText(""));
            if (mode.equalsIgnoreCase("closed")) {
                double jobs = first(section, "jobs", "concurrency", "n");
                return new RunShape(true, Double.isNaN(jobs) ? Math.round(run.meanInFlight()) : jobs);
            }
            if (!mode.isEmpty()) {
                return new RunShape(false, run.arrivalRate());
            }
        }
        return new RunShape(false, run.arrivalRate());
    }

    /**
     * A run of generator-core: {@code config.loop} is open or closed; N is the concurrency of the
     * last phase that is not a warm-up.
     */
    private static RunShape measured(RunData run, JsonNode config) {
        if (!config.path("loop").asText().equals("closed")) {
            return new RunShape(false, run.arrivalRate());
        }
        double jobs = Double.NaN;
        for (JsonNode phase : config.path("phases")) {
            if (!phase.path("warmup").asBoolean(false) && phase.path("concurrency").isNumber()) {
                jobs = phase.path("concurrency").asDouble();
            }
        }
        return new RunShape(true, Double.isNaN(jobs) ? Math.round(run.meanInFlight()) : jobs);
    }

    private static double first(JsonNode node, String... names) {
        for (String name : names) {
            if (node.path(name).isNumber()) {
                return node.path(name).asDouble();
            }
        }
        return Double.NaN;
    }

    public boolean open() {
        return !closed;
    }

    /** N of a closed run. */
    public int jobs() {
        return (int) Math.round(level);
    }

    @Override
    public String toString() {
        return closed ? "closed N=" + jobs() : String.format(java.util.Locale.ROOT, "open %.4g/s", level);
    }
}
