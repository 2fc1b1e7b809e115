package io.queuelab.reports.data;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * The workload a run was made with: open (Poisson or trace, at an arrival rate) or closed (N
 * requests kept in the system). Read from the manifest (model-sim's {@code model.workload}, or
 * a {@code workload}/{@code schedule}/{@code load} section of a measured run); a run whose
 * manifest says nothing (a CSV log) is taken as open at its measured arrival rate.
 */
public record RunShape(boolean closed, double level) {
    private static final List<String> SECTIONS = List.of("/model/workload", "/workload", "/schedule", "/load", "/config/workload");

    public static RunShape of(RunData run) {
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
