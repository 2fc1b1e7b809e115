package io.queuelab.core.merge;

import io.queuelab.core.testing.TimingSensitive;

import io.queuelab.core.clock.ClockOffset;
import io.queuelab.core.clock.ClockProbe;
import io.queuelab.core.clock.ClockReferenceServer;
import io.queuelab.core.inprocess.NoopBackend;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.run.LoadRun;
import io.queuelab.core.run.RunCompanion;
import io.queuelab.core.run.RunConfig;
import io.queuelab.core.run.RunResult;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;
import io.queuelab.core.summary.RunSummary;
import io.queuelab.core.telemetry.HostResourceSampler;
import io.queuelab.core.telemetry.NodeTelemetry;
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
import java.util.Set;
import java.util.TreeMap;
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
@TimingSensitive
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
        assertEquals(2_000.0, m.config().orElseThrow().phases().get(0).rate());
        assertEquals(2, m.merge().orElseThrow().nodes().size());
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

    @Test
    void eachNodeSamplesItsOwnHostNodeZeroTheServerAndTheMergeMovesEverySampleByTheNodesOffset() throws Exception {
        long offset = 5_000_000_000L; // the reference clock runs 5 s ahead of this machine's
        Process server = new ProcessBuilder("sleep", "30").start(); // a local "server" process to sample
        try (ClockReferenceServer reference = ClockReferenceServer.start(new InetSocketAddress("127.0.0.1", 0),
                () -> ClockProbe.wallClockNanos() + offset)) {
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", reference.port());
            Instant startAt = Instant.ofEpochSecond(0, ClockProbe.wallClockNanos() + offset).plusMillis(1500);
            LoadPlan plan = new LoadPlan(List.of(Phase.open("main", Duration.ofSeconds(1), 400, false)),
                    LoadPlan.Arrivals.POISSON, Duration.ZERO);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            List<Future<RunResult>> runs = new ArrayList<>();
            List<Path> dirs = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                Path dir = tmp.resolve("telemetry-node-" + i);
                dirs.add(dir);
                RunConfig config = new RunConfig(plan.forNode(2), 2, 100_000, 64, RunConfig.nodeSeed(7, i), i, 2, startAt,
                        Duration.ZERO, Duration.ofSeconds(5), dir, address);
                RunCompanion companion = NodeTelemetry.companion(i, RunCompanion.NONE,
                        () -> List.of(new HostResourceSampler.SampledProcess("server", server.pid(), null)), Duration.ofMillis(100));
                runs.add(pool.submit(() -> LoadRun.execute(config, NoopBackend.sync(), Map.of(), null, companion)));
            }
            for (Future<RunResult> run : runs) {
                run.get();
            }
            pool.shutdown();
            RunMerge.Result merged = RunMerge.merge(dirs, tmp.resolve("telemetry-merged"));

            Map<String, List<String[]>> byRole = rowsByRole(merged.directory().path());
            assertEquals(Set.of("node0.client", "node0.host", "node1.client", "node1.host", "server"), byRole.keySet());
            for (int i = 0; i < 2; i++) {
                Map<String, List<String[]>> own = rowsByRole(dirs.get(i));
                assertEquals(i == 0 ? Set.of("client", "host", "server") : Set.of("client", "host"), own.keySet(),
                        "node 0 alone samples the server");
                long bound = Manifest.read(dirs.get(i)).clock().orElseThrow().start().uncertaintyNanos();
                for (String role : List.of("client", "host")) {
                    List<String[]> before = own.get(role), after = byRole.get("node" + i + "." + role);
                    assertTrue(before.size() >= 5, () -> before.size() + " samples in a 1.5 s run at 100 ms");
                    assertEquals(before.size(), after.size());
                    for (int k = 0; k < before.size(); k++) {
                        long shift = Long.parseLong(after.get(k)[0]) - Long.parseLong(before.get(k)[0]);
                        // the measured offset is the known one within its bound, plus what the sample's wall clock and
                        // the log's monotonic line (both read at the run's anchor) may drift apart in 2 s: 100 us
                        assertTrue(Math.abs(shift - offset) <= bound + 100_000, "node " + i + " " + role + ": shifted by " + shift
                                + ", the node's clock measurements " + Manifest.read(dirs.get(i)).clock());
                        assertEquals(before.get(k)[3], after.get(k)[3], "the counters are carried as they were");
                    }
                }
            }
            assertEquals(rowsByRole(dirs.get(0)).get("server").size(), byRole.get("server").size(), "the server once, node 0's");
        } finally {
            server.destroy();
            server.waitFor();
        }
    }

    private static Map<String, List<String[]>> rowsByRole(Path run) throws IOException {
        Map<String, List<String[]>> rows = new TreeMap<>();
        List<String> lines = Files.readAllLines(run.resolve(HostResourceSampler.FILE_NAME));
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            rows.computeIfAbsent(f[1], k -> new ArrayList<>()).add(f);
        }
        return rows;
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
                assertTrue(run.get().directory().manifest().clock().orElseThrow().end().succeeded());
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
