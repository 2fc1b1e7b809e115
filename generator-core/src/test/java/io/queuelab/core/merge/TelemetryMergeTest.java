package io.queuelab.core.merge;

import io.queuelab.core.manifest.MergeInfo;
import io.queuelab.core.telemetry.HostResourceSampler;
import io.queuelab.core.telemetry.ResourceUse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static io.queuelab.core.merge.NodeRuns.ANCHOR;
import static io.queuelab.core.merge.NodeRuns.SECOND;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Telemetry files of hand-built node runs with known clock offsets and drift, merged. */
class TelemetryMergeTest {
    @TempDir
    Path tmp;

    private Path node(int index, Consumer<NodeRuns> setup, String hostResources, Map<String, String> serverFiles) throws Exception {
        NodeRuns n = new NodeRuns(index);
        setup.accept(n);
        Path dir = n.write(tmp.resolve("node-" + index));
        Files.writeString(dir.resolve(HostResourceSampler.FILE_NAME), HostResourceSampler.HEADER + "\n" + hostResources);
        for (Map.Entry<String, String> f : serverFiles.entrySet()) {
            Files.writeString(dir.resolve(f.getKey()), f.getValue());
        }
        return dir;
    }

    private static String row(long epoch, String role, long pid, long cpu) {
        return epoch + "," + role + "," + pid + "," + cpu + ",1000,,,5,6,,300\n";
    }

    @Test
    void everyNodesSamplesMoveOntoTheReferenceTimeLineAndTheServerIsCarriedOnce() throws Exception {
        // node 1's wall clock runs 3 s ahead of the reference and drifts 1 ms over the 1 s between its
        // clock measurements; node 0's agrees with the reference
        Path a = node(0, n -> n.offsetAtStart = 0L,
                row(ANCHOR + SECOND / 10, "client", 11, 10) + row(ANCHOR + SECOND / 10, "host", 0, 20)
                        + row(ANCHOR + SECOND / 10, "server", 99, 30) + row(ANCHOR + SECOND / 2, "client", 11, 40)
                        + "18000000005000", // a torn last line: the node stopped mid-write
                Map.of("server-status.csv", "epoch_ns,Innodb_buffer_pool_pages_dirty\n" + (ANCHOR + SECOND / 10) + ",7\n"));
        Path b = node(1, n -> {
            n.anchor = ANCHOR + 3 * SECOND;
            n.offsetAtStart = -3 * SECOND;
            n.offsetAtEnd = -3 * SECOND + 1_000_000;
        }, row(ANCHOR + 3 * SECOND, "client", 22, 50) + row(ANCHOR + 3 * SECOND + SECOND / 2, "host", 0, 60)
                        + row(ANCHOR + 3 * SECOND + SECOND / 2, "server", 98, 70),
                // a node that sampled the server against the rule
                Map.of("server-status.csv", "epoch_ns,Innodb_buffer_pool_pages_dirty\n" + (ANCHOR + 3 * SECOND) + ",8\n"));

        RunMerge.Result result = RunMerge.merge(List.of(b, a), tmp.resolve("merged"));
        Path merged = result.directory().path();

        List<String> rows = Files.readAllLines(merged.resolve(HostResourceSampler.FILE_NAME));
        assertEquals(HostResourceSampler.HEADER, rows.get(0));
        assertEquals(List.of(
                row(ANCHOR + SECOND / 10, "node0.client", 11, 10), row(ANCHOR + SECOND / 10, "node0.host", 0, 20),
                row(ANCHOR + SECOND / 10, "server", 99, 30), row(ANCHOR + SECOND / 2, "node0.client", 11, 40),
                // node log time 0: offset -3 s; log time 0.5 s: -3 s + 0.5 ms, as the records are moved
                row(ANCHOR, "node1.client", 22, 50), row(ANCHOR + SECOND / 2 + 500_000, "node1.host", 0, 60)),
                rows.subList(1, rows.size()).stream().map(r -> r + "\n").toList());
        assertEquals("epoch_ns,Innodb_buffer_pool_pages_dirty\n" + (ANCHOR + SECOND / 10) + ",7\n",
                Files.readString(merged.resolve("server-status.csv")), "node 0's server telemetry, once");

        ResourceUse use = ResourceUse.read(merged).orElseThrow();
        assertEquals(List.of("node0.client", "node0.host", "server", "node1.client", "node1.host"), List.copyOf(use.processes().keySet()));
        assertArrayEquals(new long[] {ANCHOR + SECOND / 10, ANCHOR + SECOND / 2}, use.processes().get("node0.client").epochNanos());

        MergeInfo merge = result.directory().manifest().merge().orElseThrow();
        assertEquals(0, merge.telemetry().serverSampledBy());
        assertEquals(List.of("host-resources.csv", "server-status.csv"), merge.telemetry().files());
        assertEquals(List.of("node 1: 1 server rows of host-resources.csv", "node 1: server-status.csv"),
                merge.telemetry().leftOut());
        assertEquals(3, merge.nodes().get(0).telemetry().hostResourceRows());
        assertEquals(2, merge.nodes().get(1).telemetry().hostResourceRows());
        assertTrue(merge.nodes().get(0).telemetry().sampledServer());
        assertFalse(merge.nodes().get(1).telemetry().sampledServer());
    }

    @Test
    void nodesWithoutTelemetryMergeWithoutTelemetryFiles() throws Exception {
        NodeRuns n0 = new NodeRuns(0), n1 = new NodeRuns(1);
        RunMerge.Result result = RunMerge.merge(List.of(n0.write(tmp.resolve("a")), n1.write(tmp.resolve("b"))), tmp.resolve("merged"));
        assertFalse(Files.exists(result.directory().path().resolve(HostResourceSampler.FILE_NAME)));
        assertEquals(0, result.directory().manifest().merge().orElseThrow().telemetry().files().size());
    }

    /**
     * A node's host-resources.csv with a hostile header (terminal escapes, bytes that are not UTF-8,
     * a 100,000-character line): the merge refuses it in one line naming the file, with the header
     * escaped and cut to {@value io.queuelab.core.log.InputErrors#MAX_QUOTE} characters.
     */
    @Test
    void aHostileHostResourcesHeaderIsQuotedEscapedAndCut() throws Exception {
        Path a = node(0, n -> n.offsetAtStart = 0L, row(ANCHOR + SECOND / 10, "client", 11, 10), Map.of());
        Path b = node(1, n -> n.offsetAtStart = 0L, "", Map.of());
        Path csv = b.resolve(HostResourceSampler.FILE_NAME);
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        bytes.writeBytes("epoch_ns,\u001b[2J\u001b[31mred\t,".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        bytes.writeBytes(new byte[] {(byte) 0xc3, (byte) 0x28});
        bytes.writeBytes(("y".repeat(100_000) + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        Files.write(csv, bytes.toByteArray());

        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RunMerge.merge(List.of(a, b), tmp.resolve("merged")));
        String m = e.getMessage();
        assertTrue(m.startsWith(csv + " is not a host-resources file of this version (header epoch_ns,\\x1b[2J\\x1b[31mred\\x09,"
                + "\\ufffd(yyy"), m);
        assertTrue(m.endsWith("... (100,025 characters in all))"), m);
        assertTrue(m.chars().noneMatch(c -> c < 0x20 || c == 0x7f || c == 0xfffd), "no control character or bad byte: " + m);
        assertTrue(m.length() < csv.toString().length() + 400, "cut: " + m.length() + " characters");
    }
}
