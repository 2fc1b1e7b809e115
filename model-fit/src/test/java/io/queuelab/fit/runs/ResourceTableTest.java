package io.queuelab.fit.runs;

import io.queuelab.core.telemetry.HostResourceSampler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

public class ResourceTableTest {
    @TempDir
    Path tmp;

    /** 11 samples 1 s apart; the server uses {@code scale} times what the baseline run does in every column. */
    private Path run(String name, double scale, boolean serverBytes) throws IOException {
        return run(name, scale, serverBytes, 10, false);
    }

    /** As above over {@code seconds} + 1 samples; with {@code samplerBytes} the telemetry session sent 100 bytes a second of them. */
    private Path run(String name, double scale, boolean serverBytes, int seconds, boolean samplerBytes) throws IOException {
        return writeRun(tmp, name, scale, serverBytes, seconds, samplerBytes);
    }

    /** A run directory {@code parent/name} of host telemetry: the run above (the reports' figure test draws from it too). */
    public static Path writeRun(Path parent, String name, double scale, boolean serverBytes, int seconds, boolean samplerBytes)
            throws IOException {
        Path dir = Files.createDirectories(parent.resolve(name));
        StringBuilder csv = new StringBuilder(HostResourceSampler.HEADER + "\n");
        StringBuilder status = new StringBuilder("epoch_ns,Com_insert,Bytes_received,Bytes_sent"
                + (samplerBytes ? ",sampler_bytes_received,sampler_bytes_sent" : "") + "\n");
        for (int i = 0; i <= seconds; i++) {
            long t = 1_000_000_000_000L + i * 1_000_000_000L;
            csv.append(t).append(",client,1,").append(i * 100_000_000L).append(",100000000,0,0,0,0,,1\n");
            csv.append(t).append(",server,2,").append((long) (i * 10_000_000L * scale)).append(',').append((long) (200e6 * scale))
                    .append(",0,").append((long) (i * 1000 * scale)).append(",5,5,").append((long) (1e6 + i * 1e5 * scale)).append(",1\n");
            status.append(t).append(",0,").append((long) (i * 500 * scale)).append(',').append((long) (i * 500 * scale));
            if (samplerBytes) {
                status.append(',').append(i * 10).append(',').append(i * 90);
            }
            status.append('\n');
        }
        Files.writeString(dir.resolve(HostResourceSampler.FILE_NAME), csv);
        if (serverBytes) {
            Files.writeString(dir.resolve("server-status.csv"), status);
        }
        return dir;
    }

    @Test
    void theSeedsColumnsRatiosAndWeightedScore() throws IOException {
        ResourceTable table = ResourceTable.of(List.of(run("individual", 4, true), run("bulk", 1, true)));
        ResourceTable.Row individual = table.rows().get(0);
        assertEquals(4, individual.serverCpuPercent(), 1e-9);
        assertEquals(4000, individual.diskIoBytesPerSecond(), 1e-9);
        assertEquals(4e6, individual.diskGrowthBytes(), 1e-9);
        assertEquals(4000, individual.netBytesPerSecond(), 1e-9, "from the server's own byte counters");
        assertEquals(10, individual.clientCpuPercent(), 1e-9);
        // bulk: every server column a quarter of the maximum, client columns equal
        double bulkPoints = 0.25 * (2 + 0.25 + 2.5 + 0.5 + 1.5) + 2.5 + 0.25;
        assertArrayEquals(new double[] {9.5, bulkPoints}, table.points(), 1e-9);
        // the paper's scale: (most points possible, 9.5 without the difficulty column, - points) / 9.5 x 100
        assertArrayEquals(new double[] {0, 100 * (9.5 - bulkPoints) / 9.5}, table.scores(), 1e-9);
        assertEquals(4e6 * 360, individual.diskGrowthBytesPerHour(), 1e-3);
        String text = table.render();
        assertTrue(text.contains("individual / bulk: server CPU 4.0x, disk I/O 4.0x, disk footprint 4.0x, network 4.0x"), text);
    }

    @Test
    void thePapersTableIvGivesItsTableIiiScores() {
        // Table IV (RSS in MB, disk in MB for the hour) and the difficulty grades; Table III: 3, 73, 54, 70, 64
        double[][] iv = {{36.6, 201, 7, 7.8, 7396, 1270, 1.41, 5}, {0.6, 172, 2.2, 8, 378, 240, 0.37, 5},
                {3, 758, 6.6, 12, 117, 204, 0.78, 4}, {1, 209, 3, 12, 56, 86, 0.63, 4}, {15.4, 178, 4.9, 2, 81, 89, 0.87, 1}};
        List<ResourceTable.Row> rows = new java.util.ArrayList<>();
        for (double[] r : iv) {
            rows.add(new ResourceTable.Row("r", 3600, r[0], r[1], r[2], r[3], r[4], r[5], r[6], "paper", Double.NaN, (int) r[7]));
        }
        double[] paper = {3, 73, 54, 70, 64};
        double[] ours = new ResourceTable(rows).scores();
        for (int k = 0; k < paper.length; k++) {
            assertEquals(paper[k], ours[k], 2.0, "row " + k + ": " + java.util.Arrays.toString(ours));
        }
    }

    @Test
    void figures3And4AreTheRelativeColumnsAndTheWeightedComponents() throws IOException {
        ResourceTable table = ResourceTable.of(List.of(run("individual", 4, true), run("bulk", 1, true)),
                java.util.Map.of("individual", 5, "bulk", 3));
        double[][] relative = table.relativeToMax();
        assertArrayEquals(new double[] {1, 1, 1, 1, 1, 1, 1}, relative[0], 1e-9);
        assertArrayEquals(new double[] {0.25, 0.25, 1, 1, 0.25, 0.25, 0.25}, relative[1], 1e-9);
        double[][] components = table.components();
        assertArrayEquals(new double[] {2, 0.25, 2.5, 0.25, 2.5, 0.5, 1.5, 1.0}, components[0], 1e-9);
        assertEquals(0.6, components[1][7], 1e-9, "0.2 x grade 3");
        assertEquals(java.util.Arrays.stream(components[1]).sum(), table.points()[1], 1e-12);
    }

    @Test
    void runsOfDifferentLengthsCompareByRateAndPerHourAndAreFlagged() throws IOException {
        // issue 27: a 10-s and a 40-s run of the same load once showed 4x the disk growth for the longer one
        ResourceTable table = ResourceTable.of(List.of(run("short", 1, true, 10, false), run("long", 1, true, 40, false)));
        assertEquals(table.rows().get(0).diskGrowthBytesPerHour(), table.rows().get(1).diskGrowthBytesPerHour(), 1e-3);
        assertEquals(table.scores()[0], table.scores()[1], 1e-9);
        assertTrue(table.render().startsWith("runs of different lengths (short 10 s, long 40 s)"), table.render());
        assertTrue(!ResourceTable.of(List.of(run("a", 1, true), run("b", 2, true))).mixedLengths());
    }

    @Test
    void theTelemetrySessionsOwnBytesAreNotTheLoads() throws IOException {
        // the server counted 1000 bytes a second, 100 of them the sampler's own SHOW GLOBAL STATUS
        ResourceTable.Row r = ResourceTable.of(List.of(run("own", 1, true, 10, true))).rows().get(0);
        assertEquals(900, r.netBytesPerSecond(), 1e-9);
        assertTrue(r.netSource().contains("less the telemetry session's own"), r.netSource());
    }

    @Test
    void difficultyGradesAreThePapersOneToFive() throws IOException {
        Path a = run("a", 1, true);
        assertThrows(IllegalArgumentException.class, () -> ResourceTable.of(List.of(a), java.util.Map.of("a", 6)));
        assertThrows(IllegalArgumentException.class, () -> ResourceTable.of(List.of(a), java.util.Map.of("zzz", 2)));
        ResourceTable graded = ResourceTable.of(List.of(a), java.util.Map.of("a", 5));
        assertTrue(graded.graded());
        // one row: every column its own maximum, 9.5 + 0.2 x 5 of 10.5 possible
        assertEquals(0, graded.scores()[0], 1e-9);
    }

    @Test
    void withoutServerCountersTheNetworkIsTheNamespacesAndSaysSo() throws IOException {
        ResourceTable table = ResourceTable.of(List.of(run("influx", 1, false)));
        assertEquals(0, table.rows().get(0).netBytesPerSecond(), 1e-9);
        assertTrue(table.render().contains("network namespace"));
    }

    @Test
    void influxOverUdpCountsTheDatagramsBytesBesideTheHttpBodies() throws IOException {
        // 1000 bytes a second of HTTP bodies (the read-back queries), 76,000 of datagrams; an HTTP run's UDP columns are empty
        Path udp = run("udp", 1, false);
        Path http = run("http", 1, false);
        StringBuilder udpStats = new StringBuilder("epoch_ns,writeReqBytes,queryRespBytes,udpBytesRx\n");
        StringBuilder httpStats = new StringBuilder("epoch_ns,writeReqBytes,queryRespBytes,udpBytesRx\n");
        for (int i = 0; i <= 10; i++) {
            long t = 1_000_000_000_000L + i * 1_000_000_000L;
            udpStats.append(t).append(",0,").append(i * 1000).append(',').append(i * 76_000).append('\n');
            httpStats.append(t).append(',').append(i * 76_000).append(",0,\n");
        }
        Files.writeString(udp.resolve("influxdb-stats.csv"), udpStats);
        Files.writeString(http.resolve("influxdb-stats.csv"), httpStats);
        ResourceTable table = ResourceTable.of(List.of(udp, http));
        assertEquals(77_000, table.rows().get(0).netBytesPerSecond(), 1e-6);
        assertTrue(table.rows().get(0).netSource().contains("UDP bytesRx"), table.rows().get(0).netSource());
        assertEquals(76_000, table.rows().get(1).netBytesPerSecond(), 1e-6);
        assertTrue(!table.rows().get(1).netSource().contains("UDP"), table.rows().get(1).netSource());
    }

    @Test
    void aRunWithoutHostResourcesIsRefused() throws IOException {
        Path bare = Files.createDirectories(tmp.resolve("bare"));
        assertTrue(assertThrows(IOException.class, () -> ResourceTable.of(List.of(bare))).getMessage().contains("--telemetry-interval"));
    }
}
