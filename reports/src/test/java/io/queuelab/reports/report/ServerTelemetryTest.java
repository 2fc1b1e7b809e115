package io.queuelab.reports.report;

import io.queuelab.fit.SimRuns;
import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.runs.ServerTelemetry;
import io.queuelab.sim.ArrivalProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Server telemetry is read on the request log's clock and drawn on the run's response-time timeline. */
class ServerTelemetryTest {
    static final long ANCHOR = 1_763_900_000_000_000_000L;

    @TempDir
    Path tmp;

    private Path run(String name) throws IOException {
        Path dir = tmp.resolve(name);
        SimRuns.writeFor(dir, SimRuns.modifiedMm1(0.01, 0.001), ArrivalProcess.open(50), 20, 3);
        SimRuns.relabelAsMeasured(dir, ANCHOR);
        return dir;
    }

    @Test
    void innodbCountersAreOnTheLogsClockAndFlushedPagesBecomeARate() throws IOException {
        Path dir = run("jdbc");
        StringBuilder csv = new StringBuilder("epoch_ns,Innodb_buffer_pool_pages_dirty,Innodb_buffer_pool_pages_flushed,Questions\n");
        for (int i = 0; i <= 20; i++) {
            csv.append(ANCHOR + 500_000_000L + i * 1_000_000_000L).append(',').append(100 + i).append(',').append(50 * i).append(",7\n");
        }
        Files.writeString(dir.resolve("server-status.csv"), csv);
        RunData data = RunData.read(dir);
        ServerTelemetry telemetry = ServerTelemetry.of(data).orElseThrow();
        double[][] dirty = telemetry.series().get("dirty pages");
        assertEquals(21, dirty[0].length);
        assertEquals(0.5, dirty[0][0], 1e-9);
        assertEquals(20.5, dirty[0][20], 1e-9);
        assertEquals(120, dirty[1][20]);
        double[][] flushed = telemetry.series().get("pages flushed/s");
        assertEquals(20, flushed[0].length);
        for (double rate : flushed[1]) {
            assertEquals(50, rate, 1e-9);
        }

        XYChart chart = Charts.responseOverTime(data, null, java.util.Optional.of(telemetry));
        XYSeries series = chart.getSeriesMap().get("dirty pages");
        assertEquals(1, series.getYAxisGroup(), "right-hand axis");
        assertArrayEquals(dirty[0], series.getXData(), 1e-9);
        // the requests' instants share the clock: the run's 20 s overlap the telemetry's 0.5 ... 20.5 s
        double[] requests = chart.getSeriesMap().values().iterator().next().getXData();
        assertTrue(requests[0] < 1 && requests[requests.length - 1] > 19, "requests from " + requests[0]);

        Path html = Report.write(List.of(dir), tmp.resolve("r.html"));
        assertTrue(Files.readString(html).contains("Server telemetry (InnoDB pages) on the right axis, same clock: dirty pages,"
                + " pages flushed/s."));
    }

    @Test
    void cassandraFlushesAndCompactionsAreSummedOverTheNodes() throws IOException {
        Path dir = run("cassandra");
        StringBuilder csv = new StringBuilder("epoch_ns,node,pool,active,pending,completed,blocked\n");
        int[][] flushesDone = {{0, 1, 1, 2}, {0, 0, 1, 1}};
        int[][] compacting = {{1, 0, 0, 1}, {0, 0, 1, 1}};
        for (int t = 0; t < 4; t++) {
            for (int node = 0; node < 2; node++) {
                long epoch = ANCHOR + t * 2_000_000_000L;
                csv.append(epoch).append(",n").append(node).append(",MemtableFlushWriter,0,0,").append(flushesDone[node][t]).append(",0\n");
                csv.append(epoch).append(",n").append(node).append(",CompactionExecutor,").append(compacting[node][t]).append(",0,9,0\n");
                csv.append(epoch).append(",n").append(node).append(",ReadStage,3,0,100,0\n");
            }
        }
        Files.writeString(dir.resolve("cassandra-thread-pools.csv"), csv);
        ServerTelemetry telemetry = ServerTelemetry.of(RunData.read(dir)).orElseThrow();
        assertArrayEquals(new double[] {2, 4, 6}, telemetry.series().get("memtable flushes/s")[0], 1e-9);
        assertArrayEquals(new double[] {0.5, 0.5, 0.5}, telemetry.series().get("memtable flushes/s")[1], 1e-9);
        assertArrayEquals(new double[] {1, 0, 1, 2}, telemetry.series().get("compactions running")[1], 1e-9);
    }

    @Test
    void hostResourcesGiveEachProcesssCpuOnTheTimelineAndTheSeedsTableInTheReport() throws IOException {
        Path dir = run("resources");
        StringBuilder csv = new StringBuilder(io.queuelab.core.telemetry.HostResourceSampler.HEADER + "\n");
        for (int i = 0; i <= 10; i++) {
            long epoch = ANCHOR + 1_000_000_000L + i * 2_000_000_000L;
            // server: half a core, 1 MB/s written, 100 kB more data each sample; client: a tenth of a core, no data directory
            csv.append(epoch).append(",client,11,").append(i * 200_000_000L).append(",50000000,,0,500,500,,30000\n");
            csv.append(epoch).append(",server,22,").append(i * 1_000_000_000L).append(',').append(100_000_000 + i).append(",0,")
                    .append(i * 2_000_000L).append(",500,500,").append(1_000_000 + i * 100_000).append(",40000\n");
        }
        csv.append(ANCHOR + 30_000_000_000L).append(",server,22,99999999999,5,0,7"); // torn by a crash: left out
        Files.writeString(dir.resolve("host-resources.csv"), csv);
        io.queuelab.core.telemetry.ResourceUse use = io.queuelab.core.telemetry.ResourceUse.read(dir).orElseThrow();
        var server = use.processes().get("server");
        assertEquals(50, server.cpuPercent(), 1e-9);
        assertEquals(1_000_000, server.writeBytesPerSecond(), 1e-9);
        assertEquals(1_000_000, server.dataDirGrowthBytes(), 1e-9);
        assertEquals(100_000_010, server.maxRssBytes(), 1e-9);
        assertEquals(0, server.netBytesPerSecond(), 1e-9);
        assertTrue(Double.isNaN(use.processes().get("client").dataDirGrowthBytes()));
        assertEquals(10, use.processes().get("client").cpuPercent(), 1e-9);

        XYChart chart = Charts.responseOverTime(RunData.read(dir), null, java.util.Optional.empty(), java.util.Optional.of(use));
        XYSeries cpu = chart.getSeriesMap().get("server CPU %");
        assertEquals(1, cpu.getYAxisGroup(), "right-hand axis when there is no server telemetry");
        assertEquals(3.0, cpu.getXData()[0], 1e-9, "on the log's clock: the second sample, 3 s after the anchor");
        assertEquals(50, cpu.getYData()[0], 1e-9);

        // the server counted 3,000 bytes a second, 750 of them the telemetry session's own: 2.25 kB/s with its clients
        StringBuilder status = new StringBuilder("epoch_ns,Bytes_received,Bytes_sent,sampler_bytes_received,sampler_bytes_sent\n");
        for (int i = 0; i <= 10; i++) {
            status.append(ANCHOR + 1_000_000_000L + i * 2_000_000_000L).append(',').append(i * 2000).append(',').append(i * 4000)
                    .append(',').append(i * 100).append(',').append(i * 1400).append('\n');
        }
        Files.writeString(dir.resolve("server-status.csv"), status);
        String html = Files.readString(Report.write(List.of(dir), tmp.resolve("r.html")));
        assertTrue(html.contains("Host resources") && html.contains("server (pid 22)"), "the resource table");
        assertTrue(html.contains("server&#39;s traffic with its clients (kB/s)") || html.contains("server's traffic with its clients (kB/s)"),
                "the server's own traffic beside the namespace's");
        assertTrue(html.contains(">2.250<"), "3 kB/s less the telemetry's 0.75");
        assertTrue(html.contains("CPU of client, server (host resources, % of one core)"), "the timeline's caption");
    }

    @Test
    void aRunWithoutTelemetryHasNone() throws IOException {
        assertTrue(ServerTelemetry.of(RunData.read(run("none"))).isEmpty());
    }
}
