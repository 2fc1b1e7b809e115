package io.queuelab.core.run;

import io.queuelab.core.backend.Backend;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Shorthands for the pipeline tests. */
final class PipelineRuns {
    private PipelineRuns() {
    }

    static LoadPlan poisson(double rate, Duration duration) {
        return new LoadPlan(List.of(Phase.open("main", duration, rate, false)), LoadPlan.Arrivals.POISSON, Duration.ZERO);
    }

    static LoadPlan closed(int n, Duration duration) {
        return new LoadPlan(List.of(Phase.closed("main", duration, n, false)), LoadPlan.Arrivals.POISSON, Duration.ZERO);
    }

    static RunConfig config(LoadPlan plan, int workers, int queueBound, Path out) {
        return new RunConfig(plan, workers, queueBound, 1000, 12345, 0, 1, null, Duration.ZERO, Duration.ofSeconds(10), out);
    }

    static RunResult run(RunConfig config, Backend backend) throws Exception {
        try (backend) {
            return LoadRun.execute(config, backend, Map.of("backend", "test"), null);
        }
    }
}
