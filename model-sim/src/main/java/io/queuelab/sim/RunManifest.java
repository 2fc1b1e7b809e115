package io.queuelab.sim;

import io.queuelab.core.log.Manifest;

import java.util.LinkedHashMap;
import java.util.Map;

/** What a simulated run directory's manifest says about the model and the outcome. */
final class RunManifest {
    /** Flush events of replication 0 of a DPB run: start and end (ns after simulated time 0), pages. */
    static final String FLUSH_FILE = "flushes.tsv";

    private RunManifest() {
    }

    /** The "model" section: the model name, every parameter and the simulation's configuration. */
    static void describe(Manifest manifest, Model model, Map<String, Object> config) {
        Map<String, Object> section = new LinkedHashMap<>();
        section.put("name", model.name());
        section.put("parameters", model.parameters());
        section.putAll(config);
        section.put("logReplication", 0);
        section.put("timeAxis", "ns after simulated time 0 (the log's anchor is 0)");
        section.put("fields", fields(model));
        if (model instanceof DirtyPageBufferModel) {
            section.put("flushLog", FLUSH_FILE);
        }
        manifest.put("model", section);
    }

    /** Which instant each field of a log record stands for in this model. */
    private static Map<String, String> fields(Model model) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("intended", "arrival (issue instant in a closed workload)");
        if (model instanceof DirtyPageBufferModel) {
            f.put("dequeued", "arrival at the job queue (after the network delay)");
            f.put("sent", "arrival at the job queue (after the network delay)");
        } else if (model instanceof MM1Model) {
            f.put("dequeued", "service start");
            f.put("sent", "service start");
        } else {
            f.put("dequeued", "arrival (processor sharing serves at once)");
            f.put("sent", "arrival (processor sharing serves at once)");
        }
        f.put("completed", "departure");
        f.put("node", "0");
        f.put("worker", "server index (0)");
        f.put("operation", "0 (request)");
        f.put("outcome", "ok, or dropped when the load-dependent server is at capacity");
        f.put("flags", "warmup (1) on the requests MSER-5 deleted as warm-up; see simulation.warmup");
        return f;
    }

    /** The "simulation" section: the estimates, written before the manifest is marked complete. */
    static void summarize(Manifest manifest, SimulationResult result) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("replicationsRun", result.replications().size());
        s.put("customers", result.customers());
        s.put("dropped", result.dropped());
        s.put("confidence", result.confidence());
        s.put("meanResponseSeconds", estimate(result.meanResponse()));
        Map<String, Object> quantiles = new LinkedHashMap<>();
        for (double q : new double[] {0.5, 0.9, 0.99, 0.999}) {
            quantiles.put("p" + percentLabel(q), estimate(result.quantile(q)));
        }
        s.put("responseQuantilesSeconds", quantiles);
        s.put("throughputPerSecond", estimate(result.throughput()));
        s.put("meanPopulation", estimate(result.meanPopulation()));
        result.flushPeriod().ifPresent(e -> s.put("flushPeriodSeconds", estimate(e)));
        result.flushDuration().ifPresent(e -> s.put("flushDurationSeconds", estimate(e)));
        s.put("warmup", result.replications().stream().map(r -> Map.of(
                "replication", r.index(), "deletedCustomers", r.warmupCustomers(),
                "endNanos", Math.round(r.warmupEnd() * 1e9))).toList());
        manifest.put("simulation", s);
    }

    static String percentLabel(double q) {
        String p = java.math.BigDecimal.valueOf(q * 100).stripTrailingZeros().toPlainString();
        return p;
    }

    private static Map<String, Object> estimate(Estimate e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("value", finiteOrNull(e.value()));
        m.put("halfWidth", finiteOrNull(e.halfWidth()));
        m.put("samples", e.samples());
        return m;
    }

    private static Double finiteOrNull(double x) {
        return Double.isFinite(x) ? x : null;
    }
}
