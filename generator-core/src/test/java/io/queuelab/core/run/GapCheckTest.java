package io.queuelab.core.run;

import io.queuelab.core.testing.TimingSensitive;

import io.queuelab.core.backend.AsyncBackend;
import io.queuelab.core.backend.AsyncSession;
import io.queuelab.core.backend.OperationMix;
import io.queuelab.core.inprocess.NoopBackend;
import io.queuelab.core.log.LogFormat;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;
import io.queuelab.core.schedule.PoissonSchedule;
import org.apache.commons.math3.analysis.solvers.UnivariateSolverUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The self-check's test of the realized gaps ({@link SelfCheck#ksLimit}) both ways: its stated
 * level and power on gap samples whose distance from Exp(rate) is known, and a run whose
 * dispatcher is known to be late fails it while a run at the same rate on the same path passes.
 */
@TimingSensitive
class GapCheckTest {
    private static final double RATE = 2000;
    private static final int N = 5000;
    private static final int SAMPLES = 100;
    private static final int SEEDS = 300;

    @TempDir
    Path dir;

    /**
     * Gaps drawn from Exp(k x rate), a schedule running k times too fast, are at KS distance
     * exactly max_x |exp(-rate x) - exp(-k rate x)| from Exp(rate), reached inside the range, so a
     * sample's D scatters around it both ways (unlike gaps cut at a floor, whose D can never fall
     * below their distance). At the tolerance the check may fail at most 1 % of samples (its
     * level); at the stated detected distance it must fail at least 99 % (its power). Fixed seeds:
     * the counts are deterministic; 5 of 100 leaves room for the samples' own spread
     * (Binomial(100, 0.01) exceeds 5 with probability 0.0006, Binomial(100, 0.99) falls below 95
     * with probability 0.0005).
     */
    @Test
    void atTheToleranceTheCheckFailsAtMostItsLevelAndAtTheDetectedDistanceAtLeastItsPower() {
        int level = failures(SelfCheck.KS_TOLERANCE);
        assertTrue(level <= 5, () -> "level: " + level + " of " + SAMPLES);
        int detected = failures(SelfCheck.ksDetectedDistance(N));
        assertTrue(detected >= 95, () -> "power: " + detected + " of " + SAMPLES);
        // Both are bounds (the triangle inequality), loose for a distance reached at one point: there
        // a sample's D scatters about +-0.007 (sqrt(F (1 - F) / N)) around it, above it a little more
        // often (D is a supremum). So the check itself flips at its limit: gaps exactly at the limit
        // fail in most samples, not all (76 of these 100; 11 at 0.01 below, 100 at 0.01 above).
        int atLimit = failures(SelfCheck.ksLimit(N));
        assertTrue(atLimit >= 50 && atLimit <= 95, () -> "at the limit: " + atLimit + " of " + SAMPLES);
        assertEquals(0.0415, SelfCheck.ksLimit(GapSample.CAPACITY), 0.0005, "the limit the Javadoc states");
        assertEquals(0.053, SelfCheck.ksDetectedDistance(GapSample.CAPACITY), 0.0005, "the power the Javadoc states");
    }

    /** The KS distance of Exp(k) from Exp(1), k > 1: at x = ln k / (k - 1). */
    private static double scaleDistance(double k) {
        double x = Math.log(k) / (k - 1);
        return Math.exp(-x) - Math.exp(-k * x);
    }

    private static int failures(double distance) {
        double k = UnivariateSolverUtils.solve(f -> scaleDistance(f) - distance, 1 + 1e-9, 3, 1e-12);
        Phase phase = Phase.open("main", Duration.ofSeconds(1), RATE, false);
        int failed = 0;
        for (int s = 0; s < SAMPLES; s++) {
            SplittableRandom random = new SplittableRandom(1000 + s);
            double[] gaps = new double[N];
            for (int i = 0; i < N; i++) {
                gaps[i] = -Math.log(1 - random.nextDouble()) / (k * RATE);
            }
            List<String> failures = new ArrayList<>();
            SelfCheck.openPhase(phase, LoadPlan.Arrivals.POISSON, 1, (long) RATE, RATE, gaps, "gaps", failures);
            failed += failures.size();
        }
        return failed;
    }

    /**
     * Both sides on the path a run takes, over {@value #SEEDS} seeds: the generator's own Poisson
     * schedule, its arrivals logged through {@link ArrivalRecorder} (which puts them in time
     * order and samples the gaps) and judged by the phase check.
     * <ul>
     *   <li>Dispatched on time, the stream passes: its true distance is 0, so it fails with
     *       probability far below the level (the tolerance covers 0.03 of distance); at most 1 % of
     *       the seeds may fail (Binomial(300, 0.01) exceeds 9 with probability 0.001).</li>
     *   <li>Dispatched by a server of the arrivals that takes c per dispatch (d_i = max(t_i,
     *       d_(i-1) + c): a dispatcher blocked on each send, carrying its lateness on), no gap is
     *       below c, so the gap CDF at c is 0 against Exp's 1 - exp(-rate c): the distance is at
     *       least that. With c set so that it equals the stated detected distance
     *       ({@link SelfCheck#ksDetectedDistance}), the check must fail with probability at least
     *       0.99: at least 97 % of the seeds (Binomial(300, 0.99) falls below 291 with probability
     *       0.0004).</li>
     * </ul>
     */
    @Test
    void aPoissonStreamOnTimePassesAndOneDelayedByTheStatedDistanceFailsAtTheStatedRate() {
        double detected = SelfCheck.ksDetectedDistance(N);
        long c = (long) Math.ceil(-Math.log(1 - detected) / RATE * 1e9);
        int onTimeFailed = 0;
        int delayedFailed = 0;
        for (int s = 0; s < SEEDS; s++) {
            onTimeFailed += streamFailures(s, 0);
            delayedFailed += streamFailures(s, c);
        }
        assertTrue(onTimeFailed <= SEEDS / 100, "level: " + onTimeFailed + " of " + SEEDS + " on-time streams failed");
        assertTrue(delayedFailed >= 0.97 * SEEDS, "power: " + delayedFailed + " of " + SEEDS + " streams delayed by "
                + c + " ns a dispatch (distance " + detected + ") failed");
    }

    /** 1 when the seeded stream of N + 1 arrivals, each dispatch costing {@code costNanos}, fails the gap check. */
    private static int streamFailures(int seed, long costNanos) {
        PoissonSchedule schedule = new PoissonSchedule(RATE, new SplittableRandom(5000 + seed));
        ArrivalRecorder recorder = new ArrivalRecorder(1, seed);
        double t = 0;
        long free = Long.MIN_VALUE;
        for (int seq = 0; seq <= N; seq++) {
            t = schedule.nextOffsetNanos(); // absolute offsets from the phase start
            Request r = new Request(0, 0, 0, (long) t, seq);
            r.dispatched = Math.max(r.intended, free);
            free = r.dispatched + costNanos;
            recorder.logged(r, LogFormat.OK);
        }
        recorder.finish();
        double[] gaps = recorder.gapSample(0);
        assertEquals(N, gaps.length);
        List<String> failures = new ArrayList<>();
        Phase phase = Phase.open("main", Duration.ofNanos((long) (N / RATE * 1e9)), RATE, false);
        SelfCheck.openPhase(phase, LoadPlan.Arrivals.POISSON, 1, N, RATE, gaps, "gaps", failures);
        return failures.isEmpty() ? 0 : 1;
    }

    /**
     * An asynchronous backend whose send blocks the dispatcher for 150 us (at 2,000/s, 30 % of a
     * mean gap): no two arrivals leave closer than that, the realized gaps lose the 26 % of
     * Exp(rate) below 150 us, and the verdict names the gap test.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aDispatcherThatIsBlockedOnEverySendFailsTheGapTest() throws Exception {
        SelfCheck check = run(blockingAsync(150_000), "late");
        SelfCheck.PhaseCheck main = check.phases().get(0);
        assertTrue(main.ksD() > SelfCheck.ksLimit(main.ksSampleSize()), main::toString);
        assertTrue(check.failures().stream().anyMatch(f -> f.startsWith("phase main: realized inter-arrival gaps are not Exp(")
                && f.contains("KS D=")), check::verdict);
        assertTrue(check.verdict().startsWith("the generator did not keep up"), check.verdict());
    }

    /**
     * The same rate, path and run length without the block: the gaps pass. The dispatcher sends to
     * a backend that completes at once, so its gaps are those of the schedule unless the machine
     * held its thread back for a good share of a mean gap (500 us), which the check is there to
     * report. Judged by {@link QuietMachine}'s rule: a miss while the host and other processes took
     * at most 2 % of the machine's cpu time (read from the kernel, apart from the run) fails at once,
     * as the blocked dispatcher above does in every attempt; only a miss on a machine busy with other
     * work is run again, and three such misses are a skip that says so (.ci/skips lists it). Before:
     * one pass in three attempts, whatever the machine, with the skip decided by a wake-up probe
     * taken after each run in the run's own JVM.
     */
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void aDispatcherThatIsNotBlockedPassesItAtTheSameRate() throws Exception {
        QuietMachine.check("an unblocked dispatcher at 2,000/s passes the gap test", 3, attempt -> {
            SelfCheck check = run(NoopBackend.async(), "healthy-" + attempt);
            SelfCheck.PhaseCheck main = check.phases().get(0);
            if (main.ksD() <= SelfCheck.ksLimit(main.ksSampleSize()) && check.failures().stream().noneMatch(f -> f.contains("KS D="))) {
                return List.of();
            }
            return List.of(String.format(java.util.Locale.ROOT, "KS D=%.4f (limit %.4f), hand-off p99 %d us", main.ksD(),
                    SelfCheck.ksLimit(main.ksSampleSize()), main.clientDelayP99Nanos() / 1000));
        });
    }

    private SelfCheck run(AsyncBackend backend, String name) throws Exception {
        LoadPlan plan = PipelineRuns.poisson(RATE, Duration.ofSeconds(3));
        RunResult result = PipelineRuns.run(PipelineRuns.config(plan, 1, 1000, dir.resolve(name)), backend);
        assertTrue(result.selfCheck().phases().get(0).ksSampleSize() > 5000, "a 3 s phase at 2,000/s");
        return result.selfCheck();
    }

    /** Completes each request at once, after holding the calling (dispatch) thread for {@code nanos}. */
    private static AsyncBackend blockingAsync(long nanos) {
        return new AsyncBackend() {
            @Override
            public AsyncSession openSession(long seed) {
                return (operation, completion) -> {
                    long until = System.nanoTime() + nanos;
                    while (System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                    completion.succeeded();
                };
            }

            @Override
            public OperationMix operations() {
                return OperationMix.single("blocking");
            }

            @Override
            public Map<String, Object> describe() {
                return Map.of("name", "blocking-async");
            }

            @Override
            public void close() {
            }
        };
    }
}
