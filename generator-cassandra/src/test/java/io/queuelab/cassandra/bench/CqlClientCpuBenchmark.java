package io.queuelab.cassandra.bench;

import io.queuelab.cassandra.CqlBackend;
import io.queuelab.cassandra.CqlSettings;
import io.queuelab.cassandra.CqlSyncBackend;
import io.queuelab.cassandra.workload.CqlWorkload;
import io.queuelab.cassandra.workload.Scenario;
import io.queuelab.cassandra.workload.TimeSeriesSpec;
import io.queuelab.cassandra.workload.TimeSeriesWorkload;
import io.queuelab.cassandra.workload.WisconsinWorkload;
import io.queuelab.core.backend.Backend;
import io.queuelab.core.run.LoadRun;
import io.queuelab.core.run.RunConfig;
import io.queuelab.core.run.RunResult;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;
import io.queuelab.core.summary.RunSummary;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Client CPU per request of the asynchronous vs the synchronous CQL client at the same Poisson
 * rates, against a running cluster (scripts/bench-cassandra starts one). The CPU is the whole
 * generator process's (pipeline, driver, workload checks), as the pipeline's self-check measures it.
 *
 * <p>Arguments: contact points, workload ({@code kv} = Wisconsin point selects, or {@code ts-write}
 * = seed 003's write scenario), seconds per run, replication factor, then the rates per second.
 */
public final class CqlClientCpuBenchmark {
    private static final int CONCURRENCY = 64;
    private static final Duration WARM_UP = Duration.ofSeconds(30);

    private CqlClientCpuBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        CqlSettings settings = CqlSettings.local()
                .withContactPoints(CqlSettings.parseContactPoints(args[0]))
                .withRequestTimeout(Duration.ofSeconds(5));
        int rf = Integer.parseInt(args[3]);
        settings = settings.withKeyspace("bench_rf" + rf, rf);
        CqlWorkload workload = switch (args[1]) {
            case "kv" -> new WisconsinWorkload(10_000, Scenario.READ, 0.5);
            case "ts-write" -> new TimeSeriesWorkload(new TimeSeriesSpec(TimeSeriesSpec.Layout.TYPED, 1,
                    TimeSeriesSpec.IndexTechnique.SAME_TABLE, Scenario.WRITE, 0.25, 4, 100_000, 0, 1, 1, 1));
            default -> throw new IllegalArgumentException("workload kv or ts-write, was " + args[1]);
        };
        Duration duration = Duration.ofSeconds(Long.parseLong(args[2]));
        Path out = Files.createTempDirectory("bench-cassandra");
        System.out.printf(Locale.ROOT, "%-7s %8s %9s %9s %7s %9s %9s %9s %s%n", "client", "rate/s", "ok", "errors",
                "cpu_us", "p50_ms", "p99_ms", "lag99_us", "self-check");
        // a fresh node compiles, compacts and warms its caches for the first minute: not measured
        run(settings, workload, false, Double.parseDouble(args[4]), WARM_UP, out.resolve("warm-up"), "warm-up");
        for (int i = 4; i < args.length; i++) {
            double rate = Double.parseDouble(args[i]);
            for (boolean sync : new boolean[] {false, true}) {
                String client = sync ? "sync" : "async";
                run(settings, workload, sync, rate, duration, out.resolve(client + "-" + rate), client);
            }
        }
    }

    private static void run(CqlSettings settings, CqlWorkload workload, boolean sync, double rate, Duration duration,
                            Path directory, String label) throws Exception {
        Backend backend = sync ? CqlSyncBackend.open(settings, workload) : CqlBackend.open(settings, workload);
        LoadPlan plan = new LoadPlan(List.of(Phase.open("main", duration, rate, false)),
                LoadPlan.Arrivals.POISSON, Duration.ZERO);
        RunConfig config = new RunConfig(plan, CONCURRENCY, 1_000_000, CONCURRENCY, 42, 0, 1, null,
                Duration.ZERO, Duration.ofSeconds(30), directory);
        RunResult result;
        try (backend) {
            result = LoadRun.execute(config, backend, Map.of("backend", "cassandra"), null);
        }
        RunSummary summary = RunSummary.of(result.directory());
        System.out.printf(Locale.ROOT, "%-7s %8.0f %9d %9d %7.1f %9.2f %9.2f %9.0f %s%n",
                label, rate, result.totals().ok(), result.totals().errors(),
                result.selfCheck().cpuMicrosPerRequest(),
                summary.all.response.getValueAtPercentile(50) / 1e6,
                summary.all.response.getValueAtPercentile(99) / 1e6,
                result.selfCheck().lagP99Nanos() / 1e3,
                result.selfCheck().keptUp() ? "green" : String.join("; ", result.selfCheck().failures()));
    }
}
