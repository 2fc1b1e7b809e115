package io.queuelab.fit;

import io.queuelab.core.telemetry.HostResourceSampler;
import io.queuelab.fit.SimRuns;
import io.queuelab.fit.runs.RunData;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.ClientLimitedModel;
import io.queuelab.sim.DemandProfile;
import io.queuelab.sim.Distribution;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A held-out run whose server was slower in some seconds (ground truth: a one-core server shared by
 * 16 connections, demand 2 ms, whose demand is 1.35 times as long in 5 of the run's 12 seconds) and
 * fit runs of the steady server. Each run's {@code host-resources.csv} has the server's cpu as the
 * server spent it (its busy time, second by second, from the log: one core, no latency). The plain
 * prediction from the fit runs misses the slow run's mean by far; replaying the run's server second
 * by second from those counters gives it back, and the replay's factors show the slow seconds.
 */
class ServerReplayTest {
    static final int K = 16;
    static final long ANCHOR = 1_700_000_000_000_000_000L;
    static final double[] SLOW_SECONDS = {1, 1, 1.35, 1.35, 1, 1, 1.35, 1.35, 1.35, 1, 1, 1};

    @TempDir
    static Path dir;
    static HeldOutValidation.Result result;

    @BeforeAll
    static void validate() throws Exception {
        List<Path> fit = new ArrayList<>();
        long seed = 40;
        for (double rate : new double[] {100, 200, 300, 400}) {
            fit.add(run("fit-" + (int) rate, steady(), rate, seed++));
        }
        Path slow = run("slow-330", steady().withProfile(new DemandProfile(1, SLOW_SECONDS)), 330, seed++);
        // the server's sampling began 2 s into the measured run: no warm-up to replay, the rest replayed
        Path late = run("late-telemetry", steady().withProfile(new DemandProfile(1, SLOW_SECONDS)), 330, seed, 2);
        result = HeldOutValidation.run(fit, List.of(slow, late), List.of(new MeasuredDemandCandidate()), K, 1, 3);
        System.out.print(Outcomes.describe(result));
    }

    private static ClientLimitedModel steady() {
        return new ClientLimitedModel(Distribution.exponential(0.002), K, 1);
    }

    /** A 12 s simulated run relabelled as measured, with the server's cpu each second in host-resources.csv. */
    private static Path run(String name, ClientLimitedModel model, double rate, long seed) throws IOException {
        return run(name, model, rate, seed, 0);
    }

    /** As above, the server's cpu sampled from second {@code firstSample} on. */
    private static Path run(String name, ClientLimitedModel model, double rate, long seed, int firstSample) throws IOException {
        Path run = dir.resolve(name);
        SimRuns.writeFor(run, model, ArrivalProcess.open(rate), SLOW_SECONDS.length, seed);
        SimRuns.relabelAsMeasured(run, ANCHOR);
        ServiceIntervals intervals = ServiceIntervals.of(RunData.read(run));
        StringBuilder csv = new StringBuilder(HostResourceSampler.HEADER).append('\n');
        for (int second = firstSample; second <= SLOW_SECONDS.length + 1; second++) {
            long busy = busyUntil(intervals, second * 1_000_000_000L);
            csv.append(ANCHOR + second * 1_000_000_000L).append(",server,4242,").append(busy).append(",0,0,0,0,0,,0\n");
        }
        Files.writeString(run.resolve(HostResourceSampler.FILE_NAME), csv);
        return run;
    }

    /** The time before {@code t} (ns after the anchor) with a request inside: one core's cpu, no latency. */
    private static long busyUntil(ServiceIntervals intervals, long t) {
        long[][] spans = new long[intervals.size()][];
        for (int i = 0; i < spans.length; i++) {
            spans[i] = new long[] {intervals.sent()[i], intervals.completed()[i]};
        }
        Arrays.sort(spans, (a, b) -> Long.compare(a[0], b[0]));
        long busy = 0, start = Long.MIN_VALUE, end = Long.MIN_VALUE;
        for (long[] s : spans) {
            if (s[0] > end) {
                busy += Math.max(0, Math.min(end, t) - Math.min(start, t));
                start = s[0];
            }
            end = Math.max(end, s[1]);
            if (start == Long.MIN_VALUE) {
                start = s[0];
            }
        }
        return busy + Math.max(0, Math.min(end, t) - Math.min(start, t));
    }

    @Test
    void theReplayGivesBackTheSlowRunThatThePlainPredictionMisses() {
        RunPrediction p = result.model(MeasuredDemandCandidate.NAME).predictions().get(0);
        RunPrediction.ServerReplay replay = p.replay();
        assertNotNull(replay, "the run has the server's cpu by second");
        assertTrue(p.meanError() < -0.25, "the plain prediction misses the slow seconds: " + p.meanError());
        double replayError = (replay.mean() - p.measuredMean()) / p.measuredMean();
        // measured 11.4 ms, plain 5.6 ms (-51 %), replayed 12.5 ms (+9.5 %); p99 97 ms, replayed 116 ms
        assertTrue(Math.abs(replayError) < 0.15 && Math.abs(replayError) < Math.abs(p.meanError()) / 3,
                "replayed: " + String.valueOf(p.replay()));
        assertTrue(Math.abs((replay.p99() - p.measuredP99()) / p.measuredP99()) < 0.25, String.valueOf(p.replay()));
        assertTrue(replay.ks() < p.ks() / 3, "KS D replayed " + replay.ks() + ", plain " + p.ks());
    }

    @Test
    void aSamplingBegunAfterTheRunIsReplayedFromItsFirstSample() {
        RunPrediction p = result.model(MeasuredDemandCandidate.NAME).predictions().get(1);
        assertNotNull(p.replay(), "sampled from 2 s: ten seconds to replay");
        assertTrue(Math.abs((p.replay().mean() - p.measuredMean()) / p.measuredMean()) < Math.abs(p.meanError()),
                String.valueOf(p.replay()));
    }

    @Test
    void theReplaysFactorsShowTheSlowSeconds() {
        RunPrediction.ServerReplay replay = result.model(MeasuredDemandCandidate.NAME).predictions().get(0).replay();
        // the seconds at 1 and 1.35, against the fit runs' cpu per request at the run's load; a second's cpu over the
        // requests that completed in it strays from its demand by the work carried into the next (a queue at 0.9 busy)
        assertEquals(1.0, replay.minFactor(), 0.15, String.valueOf(result.model(MeasuredDemandCandidate.NAME).predictions().get(0).replay()));
        assertTrue(replay.maxFactor() > 1.25 && replay.maxFactor() < 1.7, "largest factor " + replay.maxFactor());
    }
}
