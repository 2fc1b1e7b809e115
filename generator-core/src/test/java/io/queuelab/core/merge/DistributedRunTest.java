package io.queuelab.core.merge;

import io.queuelab.core.clock.ClockOffset;
import io.queuelab.core.clock.ClockProbe;
import io.queuelab.core.clock.ClockReferenceServer;
import io.queuelab.core.inprocess.NoopBackend;
import io.queuelab.core.log.Manifest;
import io.queuelab.core.run.LoadRun;
import io.queuelab.core.run.RunConfig;
import io.queuelab.core.run.RunResult;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;
import io.queuelab.core.summary.RunSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two generator nodes in one process, as two client machines would run them: the same plan split
 * by --node-count, one start instant of a clock reference, then merged.
 */
class DistributedRunTest {
    private static final LoadPlan PLAN = new LoadPlan(List.of(Phase.open("main", Duration.ofSeconds(3), 2_000, false)),
            LoadPlan.Arrivals.POISSON, Duration.ZERO);

    @TempDir
    Path tmp;

    @Test
    void aProbeFindsAKnownOffsetWithinItsBound() throws Exception {
        long offset = 5_000_000_000L;
        try (ClockReferenceServer server = ClockReferenceServer.start(new InetSocketAddress("127.0.0.1", 0),
                () -> ClockProbe.wallClockNanos() + offset)) {
            ClockOffset measured = ClockProbe.measure(new InetSocketAddress("127.0.0.1", server.port()), ClockProbe::wallClockNanos);
            // the wall clock has microsecond resolution: allow that on top of the bound
            assertTrue(Math.abs(measured.offsetNanos() - offset) <= measured.uncertaintyNanos() + 2_000,
                    () -> measured + " vs " + offset);
            assertTrue(measured.uncertaintyNanos() < 50_000_000, () -> "loopback round trip: " + measured);
            assertEquals(ClockProbe.EXCHANGES, measured.exchanges());
        }
    }

    @Test
    void anUnreachableReferenceIsAOneLineErrorAndLeavesNoRunDirectory() throws Exception {
        int port;
        try (ClockReferenceServer closed = ClockReferenceServer.start(new InetSocketAddress("127.0.0.1", 0))) {
            port = closed.port();
        }
        Path out = tmp.resolve("node-0");
        IOException e = assertThrows(IOException.class, () -> LoadRun.execute(config(0, 1, out, 42,
                new InetSocketAddress("127.0.0.1", port), Instant.now().plusSeconds(1)), NoopBackend.sync(), Map.of(), null));
        assertTrue(e.getMessage().startsWith("cannot measure the clock against the reference at 127.0.0.1:" + port), e.getMessage());
        assertFalse(Files.exists(out));
    }

    @Test
    void twoNodesStartTogetherOnTheReferenceClockAndMergeIntoOneRun() throws Exception {
        RunMerge.Result merged = runTwoNodes(RunConfig.nodeSeed(42, 0), RunConfig.nodeSeed(42, 1), "independent");
        assertEquals(2, merged.nodes());
        assertTrue(merged.startSkewNanos() < 20_000_000, () -> "both nodes share this machine's clock: skew " + merged.startSkewNanos());
        assertTrue(merged.maxClockUncertaintyNanos() < 50_000_000);
        RunSummary summary = RunSummary.of(merged.directory());
        assertEquals(merged.records(), summary.records);
        assertEquals(merged.records(), summary.count("ok"));
        Manifest m = merged.directory().manifest();
        assertEquals(2_000.0, m.root().path("config").path("phases").path(0).path("rate").asDouble());
        assertEquals(2, m.root().path("merge").path("nodes").size());
        var phase = merged.selfCheck().phases().get(0);
        assertEquals(merged.records(), phase.scheduled());
        assertTrue(phase.ksD() < 0.05, () -> "two independent Poisson streams make one: " + phase);
        assertFalse(merged.selfCheck().failures().stream().anyMatch(f -> !f.startsWith("node ")),
                () -> "only a node's own (timing) check may fail on a shared machine: " + merged.selfCheck().failures());
    }

    @Test
    void nodesThatShareASeedAreCaughtByTheMergedArrivalTest() throws Exception {
        RunMerge.Result merged = runTwoNodes(42, 42, "same-seed");
        assertTrue(merged.selfCheck().failures().stream()
                        .anyMatch(f -> f.startsWith("phase main: scheduled gaps of all nodes together are not Exp(2000/s)")),
                merged.selfCheck().failures()::toString);
    }

    private RunMerge.Result runTwoNodes(long seed0, long seed1, String name) throws Exception {
        try (ClockReferenceServer reference = ClockReferenceServer.start(new InetSocketAddress("127.0.0.1", 0))) {
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", reference.port());
            Instant startAt = Instant.now().plusMillis(1500);
            ExecutorService nodes = Executors.newFixedThreadPool(2);
            List<Future<RunResult>> runs = new ArrayList<>();
            List<Path> dirs = new ArrayList<>();
            long[] seeds = {seed0, seed1};
            for (int i = 0; i < 2; i++) {
                Path dir = tmp.resolve(name + "-node-" + i);
                dirs.add(dir);
                RunConfig config = config(i, 2, dir, seeds[i], address, startAt);
                runs.add(nodes.submit(() -> LoadRun.execute(config, NoopBackend.sync(), Map.of(), null)));
            }
            for (Future<RunResult> run : runs) {
                assertTrue(run.get().directory().manifest().root().path("clock").path("end").has("offsetNanos"));
            }
            nodes.shutdown();
            return RunMerge.merge(dirs, tmp.resolve(name + "-merged"));
        }
    }

    private static RunConfig config(int index, int count, Path out, long seed, InetSocketAddress reference, Instant startAt) {
        return new RunConfig(PLAN.forNode(count), 4, 100_000, 64, seed, index, count, startAt, Duration.ZERO,
                Duration.ofSeconds(5), out, reference);
    }
}
