package io.queuelab.sim;

import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.ModelInfo;
import io.queuelab.core.manifest.ModelParameters;
import io.queuelab.core.manifest.ArrivalProcessSpec;
import io.queuelab.core.manifest.SimulationOutcome;

import java.util.LinkedHashMap;
import java.util.Map;

/** What a simulated run directory's manifest says about the model ({@link ModelInfo}) and the outcome ({@link SimulationOutcome}). */
final class SimulatedManifest {
    /** Flush events of replication 0 of a DPB run: start and end (ns after simulated time 0), pages. */
    static final String FLUSH_FILE = "flushes.tsv";

    private SimulatedManifest() {
    }

    /**
     * The simulation's configuration, for the "model" section.
     *
     * @param precision       null for a fixed replication count
     * @param maxReplications null without a precision
     * @param durationSeconds null when bounded by customers
     * @param customers       null when bounded by time
     */
    record Config(long seed, int replications, Double precision, Integer maxReplications, Map<String, Object> workload,
                  String mode, Double durationSeconds, Long customers, String warmupRemoval, double confidence, double latency) {
    }

    /** The "model" section: the model name, every parameter (the latency outside the server among them) and the simulation's configuration. */
    static void describe(Manifest manifest, Model model, Config config) {
        Map<String, Object> parameters = new LinkedHashMap<>(model.parameters());
        if (config.latency() > 0) {
            parameters.put("latencySeconds", config.latency());
        }
        manifest.model(new ModelInfo(model.name(), Manifest.section(parameters, ModelParameters.class), config.seed(),
                config.replications(), config.precision(), config.maxReplications(),
                Manifest.section(config.workload(), ArrivalProcessSpec.class), config.mode(),
                config.durationSeconds(), config.customers(), config.warmupRemoval(), config.confidence(), 0,
                "ns after simulated time 0 (the log's anchor is 0)", fields(model.engine()),
                model.engine().flushes() ? FLUSH_FILE : null));
    }

    /** Which instant each field of a log record stands for under the model's engine. */
    private static Map<String, String> fields(Engine engine) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("intended", "arrival (issue instant in a closed workload)");
        f.put("dequeued", engine.sentMeans());
        f.put("sent", engine.sentMeans());
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
        Map<String, SimulationOutcome.Interval> quantiles = new LinkedHashMap<>();
        for (double q : new double[] {0.5, 0.9, 0.99, 0.999}) {
            quantiles.put("p" + percentLabel(q), interval(result.quantile(q)));
        }
        manifest.simulation(new SimulationOutcome(result.replications().size(), result.customers(), result.dropped(),
                result.confidence(), interval(result.meanResponse()), quantiles, interval(result.throughput()),
                interval(result.meanPopulation()), result.flushPeriod().map(SimulatedManifest::interval).orElse(null),
                result.flushDuration().map(SimulatedManifest::interval).orElse(null),
                result.replications().stream().map(r -> new SimulationOutcome.WarmupCut(r.index(), r.warmupCustomers(),
                        Math.round(r.warmupEnd() * 1e9))).toList()));
    }

    static String percentLabel(double q) {
        return java.math.BigDecimal.valueOf(q * 100).stripTrailingZeros().toPlainString();
    }

    private static SimulationOutcome.Interval interval(Estimate e) {
        return new SimulationOutcome.Interval(finiteOrNull(e.value()), finiteOrNull(e.halfWidth()), e.samples());
    }

    private static Double finiteOrNull(double x) {
        return Double.isFinite(x) ? x : null;
    }
}
