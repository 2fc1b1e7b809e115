package io.queuelab.reports.data;

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

class ResourceTableTest {
    @TempDir
    Path tmp;

    /** 11 samples 1 s apart; the server uses {@code scale} times what the baseline run does in every column. */
    private Path run(String name, double scale, boolean serverBytes) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve(name));
        StringBuilder csv = new StringBuilder(HostResourceSampler.HEADER + "\n");
        StringBuilder status = new StringBuilder("epoch_ns,Com_insert,Bytes_received,Bytes_sent\n");
        for (int i = 0; i <= 10; i++) {
            long t = 1_000_000_000_000L + i * 1_000_000_000L;
            csv.append(t).append(",client,1,").append(i * 100_000_000L).append(",100000000,0,0,0,0,,1\n");
            csv.append(t).append(",server,2,").append((long) (i * 10_000_000L * scale)).append(',').append((long) (200e6 * scale))
                    .append(",0,").append((long) (i * 1000 * scale)).append(",5,5,").append((long) (1e6 + i * 1e5 * scale)).append(",1\n");
            status.append(t).append(",0,").append((long) (i * 500 * scale)).append(',').append((long) (i * 500 * scale)).append('\n');
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
        assertArrayEquals(new double[] {0, 100}, table.scores(), 1e-9);
        String text = table.render();
        assertTrue(text.contains("individual / bulk: server CPU 4.0x, disk I/O 4.0x, disk footprint 4.0x, network 4.0x"), text);
    }

    @Test
    void withoutServerCountersTheNetworkIsTheNamespacesAndSaysSo() throws IOException {
        ResourceTable table = ResourceTable.of(List.of(run("influx", 1, false)));
        assertEquals(0, table.rows().get(0).netBytesPerSecond(), 1e-9);
        assertTrue(table.render().contains("network namespace"));
    }

    @Test
    void aRunWithoutHostResourcesIsRefused() throws IOException {
        Path bare = Files.createDirectories(tmp.resolve("bare"));
        assertTrue(assertThrows(IOException.class, () -> ResourceTable.of(List.of(bare))).getMessage().contains("--telemetry-interval"));
    }
}
