package io.queuelab.fit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dirty-page-buffer candidate judged by ground truth that shares no code with model-sim
 * ({@link DirtyPageBufferGroundTruth}, an event list of request objects), itself first checked
 * against exact results: a deterministic server's every response, the saturated throughput
 * 1 / (E[T_proc] + E[T_dp]) of a closed run of many jobs, and, with a buffer never filled, the
 * M/M/1 mean behind a network delay. Then the candidate, measured through validate's path as
 * seed 004 does it (open runs at 10 and 25/s, closed runs of 1 and 50 jobs of a Table 1 server),
 * predicts open loads it was not fitted to, below its lowest fit rate (5/s), inside (18/s) and at
 * 0.95 X_max (30.4/s), each mean and p99 within the bound {@link TruthAtLoad} derives from the
 * truth's own replications.
 */
class DpbGroundTruthTest {
    static final int REQUESTS = 20_000;
    static final int WARMUP = 500;
    static final int REPLICATIONS = 8;

    /** Table 1 of seed 004: T_nd 2.5 ms + Exp(0.49 ms), T_proc Exp(26.9 ms), DPB_max 111, T_dp Exp(4.33 ms). */
    static final DirtyPageBufferGroundTruth.Server TABLE_1 = new DirtyPageBufferGroundTruth.Server(
            r -> 0.0025 + DirtyPageBufferGroundTruth.exponential(r, 0.00049), r -> DirtyPageBufferGroundTruth.exponential(r, 0.0269), 111,
            r -> DirtyPageBufferGroundTruth.exponential(r, 0.00433));
    static final double X_MAX = 1 / (0.0269 + 0.00433);

    @Test
    void theEmulationMeetsExactResults() {
        // deterministic: 1 ms on the way, 2 ms of processing, a flush of 4 pages of 0.5 ms after every 4th; one job: the request
        // after a flush reaches the queue 1 ms into the 2 ms flush and waits out the other 1 ms
        var server = new DirtyPageBufferGroundTruth.Server(r -> 0.001, r -> 0.002, 4, r -> 0.0005);
        EmulatedRun one = DirtyPageBufferGroundTruth.closed(server, 1, 400, 1);
        for (int i = 0; i < one.requests(); i++) {
            double expected = i > 0 && i % 4 == 0 ? 0.004 : 0.003;
            assertEquals(expected, one.completed()[i] - one.intended()[i], 1e-12, "request " + i);
        }
        // 50 jobs keep the server busy: X = 1 / (E[T_proc] + E[T_dp])
        double[] x = IntStream.range(0, REPLICATIONS).mapToDouble(i -> DirtyPageBufferGroundTruth.closed(TABLE_1, 50, REQUESTS, 10 + i)
                .throughput(WARMUP)).toArray();
        TimeSlicedGroundTruthTest.assertWithinReplications(X_MAX, x, "saturated throughput");
        // a buffer never filled: M/M/1 behind the network delay, E[R] = E[T_nd] + x / (1 - rho) at rho = 0.7
        var noFlush = new DirtyPageBufferGroundTruth.Server(TABLE_1.networkDelay(), TABLE_1.processing(), Integer.MAX_VALUE,
                TABLE_1.dirtyPage());
        double[] means = IntStream.range(0, REPLICATIONS).mapToDouble(i -> DirtyPageBufferGroundTruth.open(noFlush, 0.7 / 0.0269,
                REQUESTS, 20 + i).meanResponse(WARMUP)).toArray();
        TimeSlicedGroundTruthTest.assertWithinReplications(0.0025 + 0.00049 + 0.0269 / 0.3, means, "M/M/1 behind the network delay");
    }

    @Test
    void heldOutPredictionsMeetTheTruthBelowInsideAndBeyondTheFittedRange(@TempDir Path dir) throws Exception {
        List<Path> fit = List.of(
                DirtyPageBufferGroundTruth.open(TABLE_1, 10, 15_000, 41).write(dir.resolve("open-10"), 10, 0, 1, 1, WARMUP, 41),
                DirtyPageBufferGroundTruth.open(TABLE_1, 25, 40_000, 42).write(dir.resolve("open-25"), 25, 0, 1, 1, WARMUP, 42),
                DirtyPageBufferGroundTruth.closed(TABLE_1, 1, 30_000, 43).write(dir.resolve("closed-1"), 0, 1, 1, 1, WARMUP, 43),
                DirtyPageBufferGroundTruth.closed(TABLE_1, 50, 40_000, 44).write(dir.resolve("closed-50"), 0, 50, 50, 1, WARMUP, 44));
        List<Path> held = new ArrayList<>();
        List<TruthAtLoad> truths = new ArrayList<>();
        // a held-out run and each replication of its load: longer at 0.95 X_max, where one run's mean strays the most
        for (double[] load : new double[][] {{5, REQUESTS}, {18, REQUESTS}, {0.95 * X_MAX, 5 * REQUESTS}}) {
            double rate = load[0];
            List<EmulatedRun> replications = new ArrayList<>();
            for (int i = 0; i < REPLICATIONS; i++) {
                replications.add(DirtyPageBufferGroundTruth.open(TABLE_1, rate, (int) load[1], Math.round(1000 * rate) + i));
            }
            held.add(replications.get(0).write(dir.resolve("held-" + rate), rate, 0, 1, 1, WARMUP, 0));
            truths.add(TruthAtLoad.of(String.format(Locale.ROOT, "%.1f/s", rate), replications, WARMUP));
        }
        HeldOutValidation.Result result = HeldOutValidation.run(fit, held, CandidateModels.STANDARD.named("dpb"), null, null, 1);
        System.out.print(Outcomes.describe(result));
        truths.forEach(t -> System.out.println("truth " + t.describe()));
        var dpb = result.model("dpb");
        assertTrue(dpb.fit().identified(), dpb.fit().fit().toString());
        for (int i = 0; i < truths.size(); i++) {
            truths.get(i).assertPredicted(dpb.predictions().get(i), "dpb");
        }
    }
}
