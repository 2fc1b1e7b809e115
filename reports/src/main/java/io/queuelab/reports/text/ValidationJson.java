package io.queuelab.reports.text;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.queuelab.core.log.AtomicFile;
import io.queuelab.fit.CandidateFit;
import io.queuelab.fit.HeldOutValidation.ModelOutcome;
import io.queuelab.fit.HeldOutValidation.Result;
import io.queuelab.fit.Parameter;
import io.queuelab.fit.RepeatedRuns;
import io.queuelab.fit.RunPrediction;
import io.queuelab.fit.runs.ServerWork;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON rendering of a held-out validation, {@code validate --json}: every field is documented
 * in docs/experiments.md ("validate --json"); a figure that is not finite (a saturated prediction's)
 * is null, never a number.
 */
public final class ValidationJson {
    private ValidationJson() {
    }

    private static Map<String, Object> trip(io.queuelab.fit.ClientTime.Trip t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("run", t.run());
        m.put("seconds", t.seconds());
        m.put("meanResponse", t.response());
        m.put("p50", t.p50());
        m.put("p99", t.p99());
        m.put("serverCpuPerStatement", Double.isNaN(t.serverCpu()) ? null : t.serverCpu());
        return m;
    }

    /** Writes the JSON {@code validate --json} documents (docs/experiments.md), atomically. */
    public static void write(Result result, Path file) throws IOException {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("selected", result.selected());
        root.put("leftOut", result.leftOut());
        root.put("notes", result.notes());
        root.put("fitServer", server(result.fitServer().medians()));
        // the client time measured apart (null without round trips): each trip's run, response and server cpu, seconds
        root.put("clientTime", result.clientTime().map(t -> Map.of("open", trip(t.open()), "closed", trip(t.closed()))).orElse(null));
        List<Object> models = new ArrayList<>();
        for (ModelOutcome o : result.models()) {
            CandidateFit f = o.fit();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", f.name());
            m.put("identified", f.identified());
            m.put("fits", f.fit().fits());
            m.put("lackOfFit", !f.identified() ? f.fit().identification().summary()
                    : f.fit().lackOfFit() == null || f.fit().fits() ? null : f.fit().lackOfFit().reason());
            Map<String, Object> parameters = new LinkedHashMap<>();
            for (Parameter p : f.fit().parameters()) {
                parameters.put(p.name(), finite(p.value()));
            }
            m.put("parameters", parameters);
            List<Object> predictions = new ArrayList<>();
            for (RunPrediction r : o.predictions()) {
                Map<String, Object> p = new LinkedHashMap<>();
                p.put("run", r.run());
                p.put("rate", finite(r.closed() ? r.measuredThroughput() : r.level()));
                if (r.closed()) {
                    p.put("jobs", (int) r.level());
                }
                p.put("measured", quantiles(r.measuredMean(), r.measuredP50(), r.measuredP99()));
                p.put("predicted", quantiles(r.predictedMean(), r.predictedP50(), r.predictedP99()));
                p.put("saturation", r.saturation());
                if (r.closed()) {
                    // X(N) beside R(N): a reader can check Little's law, X(N) x R(N) = N with no think time
                    Map<String, Object> x = new LinkedHashMap<>();
                    x.put("measured_per_s", finite(r.measuredThroughput()));
                    x.put("predicted_per_s", finite(r.predictedThroughput()));
                    p.put("throughput", x);
                }
                p.put("ks", finite(r.ks()));
                p.put("ksYardstick", finite(r.ksYardstick()));
                p.put("withinYardstick", r.withinYardstick());
                p.put("server", server(r.server()));
                p.put("fitServerAtItsLoad", server(result.fitServer().at(r)));
                if (r.atOwnServer() != null) {
                    RunPrediction.AtOwnServer own = r.atOwnServer();
                    Map<String, Object> at = new LinkedHashMap<>();
                    at.put("demandFactor", finite(own.factor()));
                    at.put("predicted", quantiles(own.mean(), own.p50(), own.p99()));
                    at.put("throughput", finite(own.throughput()));
                    p.put("atOwnServer", at);
                }
                if (r.replay() != null) {
                    RunPrediction.ServerReplay replay = r.replay();
                    Map<String, Object> at = new LinkedHashMap<>();
                    at.put("minFactor", finite(replay.minFactor()));
                    at.put("maxFactor", finite(replay.maxFactor()));
                    at.put("predicted", quantiles(replay.mean(), replay.p50(), replay.p99()));
                    at.put("ks", finite(replay.ks()));
                    p.put("serverReplay", at);
                }
                if (r.commits() != null) {
                    // the model's group commit against the server's own count over the run
                    Map<String, Object> c = new LinkedHashMap<>();
                    c.put("predicted", finite(r.commits().predicted()));
                    c.put("counted", finite(r.commits().counted()));
                    p.put("commitsPerFlush", c);
                }
                predictions.add(p);
            }
            m.put("predictions", predictions);
            List<Object> judged = new ArrayList<>();
            for (RepeatedRuns.Group g : o.predictions().isEmpty() ? List.<RepeatedRuns.Group>of() : result.repeats()) {
                RepeatedRuns.Verdict v = g.judge(o.predictions());
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("load", g.load());
                r.put("predicted", quantiles(v.mean(), v.p50(), v.p99()));
                r.put("ksToRuns", finite(v.ks()));
                r.put("meanWithin", v.meanWithin());
                r.put("p50Within", v.p50Within());
                r.put("p99Within", v.p99Within());
                r.put("ksWithin", v.ksWithin());
                judged.add(r);
            }
            m.put("repeats", judged);
            models.add(m);
        }
        root.put("models", models);
        List<Object> repeats = new ArrayList<>();
        for (RepeatedRuns.Group g : result.repeats()) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("load", g.load());
            r.put("runs", g.names());
            r.put("pooled", quantiles(g.pooledMean(), g.pooledP50(), g.pooledP99()));
            r.put("range", quantiles(g.meanRange(), g.p50Range(), g.p99Range()));
            r.put("ksBetweenRuns", finite(g.ksBetween()));
            repeats.add(r);
        }
        root.put("repeats", repeats);
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        AtomicFile.replace(file, tmp -> json.writeValue(tmp.toFile(), root));
    }

    private static Map<String, Object> server(ServerWork w) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cpuUnitNanos", finite(w.cpuUnitNanos()));
        m.put("cpuSecondsPerRequest", finite(w.cpuSecondsPerRequest()));
        return m;
    }

    private static Map<String, Object> quantiles(double mean, double p50, double p99) {
        Map<String, Object> q = new LinkedHashMap<>();
        q.put("mean_s", finite(mean));
        q.put("p50_s", finite(p50));
        q.put("p99_s", finite(p99));
        return q;
    }

    private static Double finite(double x) {
        return Double.isFinite(x) ? x : null;
    }
}
