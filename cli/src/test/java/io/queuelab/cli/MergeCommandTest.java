package io.queuelab.cli;

import io.queuelab.core.clock.ClockReferenceServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MergeCommandTest {
    @TempDir
    Path dir;

    @Test
    void nodesRunWithAClockReferenceMergeIntoOneRunThatSummaryReads() throws Exception {
        try (ClockReferenceServer reference = ClockReferenceServer.start(new InetSocketAddress("127.0.0.1", 0))) {
            String ref = "127.0.0.1:" + reference.port();
            // one after the other (this test's command line is not reentrant): the merge must report the skew
            for (int i = 0; i < 2; i++) {
                CliTestSupport.Result r = CliTestSupport.run("run", "--backend", "noop", "--rate", "400", "--duration", "1s",
                        "--node-index", String.valueOf(i), "--node-count", "2", "--clock-reference", ref,
                        "--report-interval", "0", "--telemetry-interval", "200ms", "--out", dir.resolve("node-" + i).toString());
                assertEquals(0, r.exitCode(), r.err());
            }
            Path merged = dir.resolve("merged");
            CliTestSupport.Result m = CliTestSupport.run("merge", "--out", merged.toString(),
                    dir.resolve("node-1").toString(), dir.resolve("node-0").toString());
            assertEquals(0, m.exitCode(), m.err());
            assertTrue(m.out().startsWith("merged 2 nodes into " + merged), m.out());
            assertTrue(m.out().contains("clock: reference " + ref + ", every offset within +-"), m.out());
            assertTrue(m.out().contains("the nodes' schedules started"), "run one after the other, they did not overlap: " + m.out());
            assertTrue(m.out().contains("telemetry: host-resources.csv\n"), "no server to sample on the noop backend: " + m.out());
            for (String process : List.of("node0.client", "node0.host", "node1.client", "node1.host")) {
                assertTrue(m.out().contains("  " + process + " "), "each node's resources: " + m.out());
            }

            CliTestSupport.Result summary = CliTestSupport.run("summary", merged.toString());
            assertEquals(0, summary.exitCode(), summary.err());
            assertTrue(summary.out().contains("target 400.00/s"), "the merged phase runs at the total rate: " + summary.out());
            assertTrue(summary.out().contains("nodes     2 merged; clock reference " + ref), summary.out());
            assertTrue(summary.out().contains("node 1 on "), summary.out());
        }
    }

    /**
     * A node whose log was damaged after its run: the merge says so in one line (exit 2), the merged
     * manifest keeps the damage among the self-check's failures and is not marked complete, and
     * summary says first that the merged run is incomplete. Before: exit 0 and a "complete" merge
     * whose totals contradicted its own log.
     */
    @Test
    void aDamagedNodeLogIsCarriedIntoTheMergeWhichStaysIncomplete() throws Exception {
        for (int i = 0; i < 2; i++) {
            assertEquals(0, CliTestSupport.run("run", "--backend", "noop", "--rate", "400", "--duration", "1s",
                    "--node-index", String.valueOf(i), "--node-count", "2", "--report-interval", "0",
                    "--out", dir.resolve("node-" + i).toString()).exitCode());
        }
        Path log = dir.resolve("node-1").resolve("requests.qlog");
        try (java.nio.channels.FileChannel c = java.nio.channels.FileChannel.open(log, java.nio.file.StandardOpenOption.WRITE)) {
            c.write(java.nio.ByteBuffer.wrap(new byte[32]), c.size() / 2);
        }
        Path merged = dir.resolve("merged");
        CliTestSupport.Result m = CliTestSupport.run("merge", "--out", merged.toString(),
                dir.resolve("node-0").toString(), dir.resolve("node-1").toString());
        assertEquals(2, m.exitCode(), m.out() + m.err());
        String err = m.err().strip();
        assertTrue(err.startsWith("queuelab: merged " + merged + " from damaged node logs, and left it marked incomplete: node 1 ("),
                err);
        assertFalse(err.contains("\n"), err);
        com.fasterxml.jackson.databind.JsonNode manifest = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(merged.resolve("manifest.json").toFile());
        assertFalse(manifest.path("complete").asBoolean(), manifest.toString());
        assertTrue(manifest.path("selfCheck").path("failures").toString().contains("the merged log lacks records: node 1 ("),
                manifest.path("selfCheck").toString());
        CliTestSupport.Result summary = CliTestSupport.run("summary", merged.toString());
        assertTrue(summary.out().startsWith("WARNING: "), summary.out());
        assertTrue(summary.out().contains("the merged log lacks records: node 1"), summary.out());
    }

    /** Issue 43: node 1 of a run with another seed among nodes 0 and 2. Before: exit 0, only the start skew in the verdict. */
    @Test
    void aNodeOfAnotherRunIsRefusedInOneLineNamingIt() throws Exception {
        for (String[] node : new String[][] {{"a0", "0", "1"}, {"b1", "1", "5"}, {"a2", "2", "1"}}) {
            CliTestSupport.Result r = CliTestSupport.run("run", "--backend", "noop", "--rate", "300", "--duration", "200ms",
                    "--node-index", node[1], "--node-count", "3", "--seed", node[2], "--report-interval", "0",
                    "--out", dir.resolve(node[0]).toString());
            assertEquals(0, r.exitCode(), r.err());
        }
        Path merged = dir.resolve("m2");
        CliTestSupport.Result m = CliTestSupport.run("merge", "--out", merged.toString(),
                dir.resolve("a0").toString(), dir.resolve("b1").toString(), dir.resolve("a2").toString());
        assertEquals(2, m.exitCode(), m.out() + m.err());
        assertEquals("queuelab: " + dir.resolve("b1") + " (node 1) is not of the same run as " + dir.resolve("a0") + " (node 0), "
                + dir.resolve("a2") + " (node 2): its base seed (--seed) 5, theirs 1 (merge the nodes of one run only)", m.err().strip());
        assertFalse(Files.exists(merged));
    }

    /**
     * {@code merge --missing INDEX@HOST=CAUSE} as the launcher writes it (issue 42 item 4): nodes 0 and 2
     * of 3 merge into a run that says, in the merge's output, its manifest and summary, which node is
     * missing, on which host and why; a missing node without its host, or one that is present, or a
     * spec that is not INDEX[@HOST]=CAUSE, each as the launcher would never write it.
     */
    @Test
    void aNodeDeclaredMissingLeavesAPartialMergeThatNamesItsHostAndCause() throws Exception {
        for (int i : new int[] {0, 2}) {
            assertEquals(0, CliTestSupport.run("run", "--backend", "noop", "--rate", "300", "--duration", "300ms",
                    "--node-index", String.valueOf(i), "--node-count", "3", "--report-interval", "0",
                    "--out", dir.resolve("node-" + i).toString()).exitCode());
        }
        String n0 = dir.resolve("node-0").toString();
        String n2 = dir.resolve("node-2").toString();
        Path merged = dir.resolve("partial");
        CliTestSupport.Result m = CliTestSupport.run("merge", "--missing", "1@client3=killed by signal 9", "--out", merged.toString(), n0, n2);
        assertEquals(0, m.exitCode(), m.err());
        assertTrue(m.out().startsWith("merged 2 nodes into " + merged), m.out());
        assertTrue(m.out().contains("\npartial: node 1 of 3 missing (killed by signal 9, on client3)\n"), m.out());
        com.fasterxml.jackson.databind.JsonNode missing = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(merged.resolve("manifest.json").toFile()).path("merge").path("missing");
        assertEquals(1, missing.size(), missing.toString());
        assertEquals(1, missing.get(0).path("index").asInt(), missing.toString());
        assertEquals("client3", missing.get(0).path("host").asText(), missing.toString());
        assertEquals("killed by signal 9", missing.get(0).path("cause").asText(), missing.toString());
        CliTestSupport.Result summary = CliTestSupport.run("summary", merged.toString());
        assertTrue(summary.out().startsWith("partial: node 1 of 3 missing (killed by signal 9, on client3)\n"), "said first: " + summary.out());

        // without a host, and a cause with '=' in it: the first '=' ends the index
        Path noHost = dir.resolve("partial-no-host");
        CliTestSupport.Result h = CliTestSupport.run("merge", "--missing", "1=lost: exit=3", "--out", noHost.toString(), n0, n2);
        assertEquals(0, h.exitCode(), h.err());
        assertTrue(h.out().contains("\npartial: node 1 of 3 missing (lost: exit=3)\n"), h.out());

        // a node left undeclared is refused; so is a present node declared missing, and a spec that is not one
        CliTestSupport.assertEachIsRefused(new String[][] {
                {"merge", "--out", dir.resolve("x").toString(), n0, n2},
                {"merge", "--missing", "2@client3=lost", "--missing", "1=lost", "--out", dir.resolve("x").toString(), n0, n2},
                {"merge", "--missing", "client3=lost", "--out", dir.resolve("x").toString(), n0, n2},
                {"merge", "--missing", "1@client3", "--out", dir.resolve("x").toString(), n0, n2},
        });
        assertEquals("queuelab: --missing 'client3=lost' is not INDEX[@HOST]=CAUSE, e.g. 2@client3=killed by signal 9",
                CliTestSupport.run("merge", "--missing", "client3=lost", "--out", dir.resolve("x").toString(), n0, n2).err().strip());
        assertFalse(Files.exists(dir.resolve("x")), "a refused merge writes nothing");
    }

    @Test
    void badInputGivesOneLineAndExitCode2() throws Exception {
        Path node = dir.resolve("node-0");
        assertEquals(0, CliTestSupport.run("run", "--backend", "noop", "--rate", "100", "--duration", "200ms",
                "--node-count", "2", "--report-interval", "0", "--out", node.toString()).exitCode());
        String[][] cases = {
                {"merge", "--out", dir.resolve("m").toString(), node.toString()},
                {"merge", "--out", dir.resolve("m").toString(), node.toString(), dir.resolve("missing").toString()},
                {"merge", "--out", dir.resolve("m").toString(), node.toString(), node.toString()},
                {"run", "--backend", "noop", "--rate", "5", "--clock-reference", "127.0.0.1:1", "--out", dir.resolve("a").toString()},
                {"run", "--backend", "noop", "--rate", "5", "--clock-reference", "host:port", "--out", dir.resolve("a").toString()},
                {"clock-server", "--listen", "127.0.0.1:99999"},
        };
        CliTestSupport.assertEachIsRefused(cases);
        assertFalse(Files.exists(dir.resolve("m")));
        assertFalse(Files.exists(dir.resolve("a")));
    }
}
