package io.queuelab.core.run;

import io.queuelab.core.inprocess.MM1Backend;
import io.queuelab.core.summary.RunSummary;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The instrument against ground truth: an emulated M/M/1 server (mu = 1000/s) driven by Poisson
 * arrivals at 500/s must show Exp(mu - lambda) response times, through the synchronous and the
 * asynchronous pipeline alike. The two runs go side by side to halve the wall time.
 *
 * <p>Why 1000/s and not the 200/s this test used (230 s of CI): the response times divided by their
 * mean 1/(mu - lambda) have a distribution, and a correlation from one request to the next, that
 * depend on rho = lambda/mu alone, so the relative error of the estimated mean and p99 depends on
 * rho and the number of requests only. The same rho (0.5) and the same 21,000 requests give the
 * tolerances below the same power (sd 2.2 % of the mean, 4.6 % of the p99, by simulation) in 42 s
 * instead of 210 s. The absolute scale shrinks fivefold (a 2 ms mean): the emulated server spins its
 * departures onto their instants ({@link MM1Backend}), since a timed wake-up's lateness would be a
 * few percent of that mean (an earlier try at 1000/s, without it, was reverted); the
 * client's own hand-off is the instrument's and stays in.
 */
class MM1PipelineTest {
    private static final double MU = 1000;
    private static final double LAMBDA = 500;

    @TempDir
    Path dir;

    @Test
    void openLoopResponseTimesAreThoseOfMM1() throws Exception {
        Duration duration = Duration.ofSeconds(42); // >= 20,000 requests (expected 21,000)
        HostSteal steal = HostSteal.start();
        CompletableFuture<RunResult> sync = CompletableFuture.supplyAsync(() -> call(() ->
                PipelineRuns.run(PipelineRuns.config(PipelineRuns.poisson(LAMBDA, duration), 32, 10_000, dir.resolve("sync")), MM1Backend.sync(MU, 1))));
        CompletableFuture<RunResult> async = CompletableFuture.supplyAsync(() -> call(() ->
                PipelineRuns.run(PipelineRuns.config(PipelineRuns.poisson(LAMBDA, duration), 1, 10_000, dir.resolve("async")), MM1Backend.async(MU, 2))));
        RunResult[] results = {sync.get(), async.get()};
        double stolen = steal.share();
        try {
            checkMM1(results);
        } catch (AssertionError e) {
            // the response times include every pause of the machine, as they must; a host that paused it for more than
            // STEAL_LIMIT of its cpu time moved them by more than the tolerances, and then the test says so, not that the
            // instrument is late
            org.junit.jupiter.api.Assumptions.assumeTrue(stolen <= STEAL_LIMIT, String.format(java.util.Locale.ROOT,
                    "the host took %.1f %% of the machine's cpu time (steal, /proc/stat) during the runs, above %.0f %%: %s",
                    100 * stolen, 100 * STEAL_LIMIT, e.getMessage()));
            throw e;
        }
    }

    /** The host's share of the cpu time (steal) above which a miss is the host's, not the instrument's. */
    static final double STEAL_LIMIT = 0.01;

    private static void checkMM1(RunResult[] results) throws java.io.IOException {
        for (RunResult result : results) {
            RunSummary s = RunSummary.of(result.directory());
            System.out.printf("%s: mean %.3f ms, p99 %.3f ms, n %d, %s%n", result.directory().path().getFileName(),
                    s.all.response.getMean() / 1e6, s.all.response.getValueAtPercentile(99) / 1e6,
                    s.all.response.getTotalCount(), result.selfCheck().verdict());
        }
        for (RunResult result : results) {
            RunSummary s = RunSummary.of(result.directory());
            Histogram r = s.all.response;
            String run = result.directory().path().getFileName().toString();
            assertTrue(r.getTotalCount() >= 20_000, run + ": " + r.getTotalCount() + " requests");
            assertEquals(result.totals().scheduled(), result.totals().ok(), run + ": every request ok");
            double expectedMean = 1e9 / (MU - LAMBDA);
            double expectedP99 = Math.log(100) * 1e9 / (MU - LAMBDA);
            assertEquals(expectedMean, r.getMean(), 0.10 * expectedMean, run + " mean response");
            assertEquals(expectedP99, r.getValueAtPercentile(99), 0.15 * expectedP99, run + " p99 response");
            // the arrivals were right (count and KS test) and nothing was dropped; the 1 ms lag limit
            // is the machine's business on a shared 2-core VM, not this test's
            assertTrue(result.selfCheck().failures().stream().noneMatch(f -> f.contains("scheduled") || f.contains("gaps")
                    || f.contains("dropped") || f.contains("balance")), run + ": " + result.selfCheck().verdict());
        }
    }

    @Test
    void closedLoopOfEightSaturatesTheServer() throws Exception {
        // 4,000 completions of a saturated server, as at 200/s over 20 s: a Poisson count with sd 1.6 %
        RunResult result = PipelineRuns.run(PipelineRuns.config(PipelineRuns.closed(8, Duration.ofSeconds(4)), 1, 100, dir.resolve("closed")),
                MM1Backend.sync(MU, 3));
        RunSummary s = RunSummary.of(result.directory());
        double throughput = s.throughput();
        assertEquals(MU, throughput, 0.05 * MU, "throughput of a saturated M/M/1 is mu");
        double expectedMean = 8 / MU * 1e9; // Little: N = X R with X = mu
        assertEquals(expectedMean, s.all.response.getMean(), 0.10 * expectedMean, "mean response N/mu");
        assertEquals(0, s.count("dropped"));
        assertTrue(result.totals().balanced());
        assertEquals(result.totals().scheduled(), s.records);
        assertTrue(s.outcomes.keySet().stream().allMatch(o -> o.equals("ok") || o.equals("unfinished")), s.outcomes.toString());
        assertTrue(s.count("unfinished") <= 8);
    }

    interface Call<T> {
        T call() throws Exception;
    }

    static <T> T call(Call<T> c) {
        try {
            return c.call();
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
}
