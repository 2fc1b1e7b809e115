package io.queuelab.reports.report;

import io.queuelab.core.clock.ClockProbe;
import io.queuelab.core.clock.ClockReferenceServer;
import io.queuelab.core.inprocess.NoopBackend;
import io.queuelab.core.merge.RunMerge;
import io.queuelab.core.run.LoadRun;
import io.queuelab.core.run.RunConfig;
import io.queuelab.core.run.RunResult;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;
import io.queuelab.core.telemetry.NodeTelemetry;
import io.queuelab.core.telemetry.ResourceUse;
import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.runs.ServerTelemetry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The report of a merged run of two real in-process generator nodes, whose clock reference runs
 * 5 s ahead of their own clocks: each node's host telemetry is drawn on the response-time
 * timeline, on the requests' clock.
 */
class MergedRunTelemetryTest {
    @TempDir
    Path tmp;

    @Test
    void eachNodesClientAndHostCpuAreOnTheMergedRunsTimeline() throws Exception {
        long offset = 5_000_000_000L;
        Path merged;
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
                Path dir = tmp.resolve("node-" + i);
                dirs.add(dir);
                RunConfig config = new RunConfig(plan.forNode(2), 2, 100_000, 64, RunConfig.nodeSeed(3, i), i, 2, startAt,
                        Duration.ZERO, Duration.ofSeconds(5), dir, address);
                var telemetry = NodeTelemetry.companion(i, io.queuelab.core.run.RunCompanion.NONE, List::of, Duration.ofMillis(100));
                runs.add(pool.submit(() -> LoadRun.execute(config, NoopBackend.sync(), Map.of(), null, telemetry)));
            }
            for (Future<RunResult> run : runs) {
                run.get();
            }
            pool.shutdown();
            merged = RunMerge.merge(dirs, tmp.resolve("merged")).directory().path();
        }

        RunData data = RunData.read(merged);
        XYChart chart = Charts.responseOverTime(data, null, ServerTelemetry.of(data), ResourceUse.read(merged));
        double[] requests = chart.getSeriesMap().values().iterator().next().getXData();
        double first = Arrays.stream(requests).min().orElseThrow(), last = Arrays.stream(requests).max().orElseThrow();
        for (String process : List.of("node0.client", "node1.client", "node0.host", "node1.host")) {
            XYSeries cpu = chart.getSeriesMap().get(process + " CPU %");
            assertTrue(cpu != null && cpu.getXData().length >= 5, process + ": " + chart.getSeriesMap().keySet());
            // sampled from before the schedule's start to after its end, on the requests' clock: unshifted,
            // the samples would sit 5 s before the requests
            double from = Arrays.stream(cpu.getXData()).min().orElseThrow(), to = Arrays.stream(cpu.getXData()).max().orElseThrow();
            assertTrue(from < first + 0.3 && to > last - 0.3 && from > first - 2 && to < last + 2,
                    process + " sampled " + from + " .. " + to + " s, requests " + first + " .. " + last + " s");
        }
        String html = Files.readString(Report.write(List.of(merged), tmp.resolve("r.html")));
        assertTrue(html.contains("CPU of node0.client, node0.host, node1.client, node1.host"), "the caption names every node's");
    }
}
