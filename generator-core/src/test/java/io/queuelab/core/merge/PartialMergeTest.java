package io.queuelab.core.merge;

import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.MergeInfo;
import io.queuelab.core.summary.RunSummary;
import io.queuelab.core.summary.SummaryText;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;

import static io.queuelab.core.merge.NodeRuns.SECOND;
import static io.queuelab.core.merge.NodeRuns.START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A merge of the nodes that survived (the others declared missing with their causes), a drift that
 * was not measured, and the stall of one node while the others answered.
 */
class PartialMergeTest {
    @TempDir
    Path tmp;

    private static long[] every(long from, long to, long step) {
        return LongStream.iterate(from, t -> t < to, t -> t + step).toArray();
    }

    private Path node(int index, int count, long[] intended, long[] failed) throws Exception {
        NodeRuns n = new NodeRuns(index);
        n.count = count;
        n.intended = intended;
        n.failed = failed;
        n.offsetAtStart = 1_000L;
        return n.write(tmp.resolve("node-" + index));
    }

    @Test
    void theSurvivorsMergeIntoARunMarkedPartialWithTheMissingNodesAndTheirCauses() throws Exception {
        Path n0 = node(0, 3, every(START, START + SECOND, 10_000_000), new long[] {START + 5_000_000});
        Path n2 = node(2, 3, every(START + 1_000_000, START + SECOND, 20_000_000), new long[] {});
        Path out = tmp.resolve("merged");
        RunMerge.Result r = RunMerge.merge(List.of(n0, n2),
                List.of(new MergeInfo.MissingNode(1, "10.231.0.12", "killed by signal 9")), out);

        Manifest m = RunDirectory.open(out).manifest();
        MergeInfo merge = m.merge().orElseThrow();
        assertTrue(merge.partial());
        assertEquals(List.of(0, 2), merge.nodes().stream().map(MergeInfo.Node::index).toList());
        assertEquals(List.of(new MergeInfo.MissingNode(1, "10.231.0.12", "killed by signal 9")), merge.missing());
        assertEquals("partial: node 1 of 3 missing (killed by signal 9, on 10.231.0.12)", merge.partialText());
        assertEquals(3, m.node().orElseThrow().count(), "the run's node count, not the survivors'");
        // the totals are the survivors': 100 + 1 failed of node 0, 50 of node 2
        assertEquals(151, m.totals().orElseThrow().scheduled());
        assertEquals(150, m.totals().orElseThrow().ok());
        assertEquals(1, m.totals().orElseThrow().errors());
        assertEquals(151, r.records());
        assertEquals(151, RunSummary.of(RunDirectory.open(out)).records);
        assertEquals(200.0, m.config().orElseThrow().phases().get(0).rate(), "the rates of the nodes present");
        assertTrue(SummaryText.render(RunSummary.of(RunDirectory.open(out)), m)
                .contains("partial: node 1 of 3 missing (killed by signal 9, on 10.231.0.12)"));
    }

    @Test
    void aMissingNodeMustBeAbsentAndOfTheRun() throws Exception {
        Path n0 = node(0, 3, new long[] {START + 1}, new long[] {});
        Path n1 = node(1, 3, new long[] {START + 2}, new long[] {});
        Path out = tmp.resolve("merged");
        String present = assertThrows(IllegalArgumentException.class, () -> RunMerge.merge(List.of(n0, n1),
                List.of(new MergeInfo.MissingNode(1, null, "lost")), out)).getMessage();
        assertTrue(present.contains("node 1 is given as missing, but"), present);
        String outside = assertThrows(IllegalArgumentException.class, () -> RunMerge.merge(List.of(n0, n1),
                List.of(new MergeInfo.MissingNode(5, null, "lost")), out)).getMessage();
        assertEquals("missing node 5 is not a node of this run of 3", outside);
        String undeclared = assertThrows(IllegalArgumentException.class, () -> RunMerge.merge(List.of(n0, n1), out)).getMessage();
        assertTrue(undeclared.contains("node 2 of 3 is missing"), undeclared);
        assertFalse(Files.exists(out));
        // one survivor of three is still a run
        RunMerge.merge(List.of(n0), List.of(new MergeInfo.MissingNode(1, null, "lost"),
                new MergeInfo.MissingNode(2, null, "lost")), out);
        assertEquals(1, RunDirectory.open(out).manifest().totals().orElseThrow().scheduled());
    }

    @Test
    void aMissingEndMeasurementLeavesTheDriftUnknownNotZero() throws Exception {
        NodeRuns a = new NodeRuns(0);
        a.offsetAtStart = 1_000L;
        a.offsetAtEnd = 2_000L;
        NodeRuns b = new NodeRuns(1);
        b.offsetAtStart = 1_000L;
        Path out = tmp.resolve("merged");
        RunMerge.merge(List.of(a.write(tmp.resolve("a")), b.write(tmp.resolve("b"))), out);
        Manifest m = RunDirectory.open(out).manifest();
        List<MergeInfo.Node> nodes = m.merge().orElseThrow().nodes();
        assertEquals(1_000.0, nodes.get(0).clockDriftNanosPerSecond(), 1e-6);
        assertNull(nodes.get(1).clockDriftNanosPerSecond());
        String text = SummaryText.render(RunSummary.of(RunDirectory.open(out)), m);
        assertTrue(text.contains("drift 1.0 ppm"), text);
        assertTrue(text.contains("drift unknown"), text);
    }

    @Test
    void aNodeWhoseResponsesStopWhileTheOthersGoOnIsNamedWithTheInterval() throws Exception {
        long end = START + 4 * SECOND;
        NodeRuns stalled = new NodeRuns(1);
        stalled.durationSeconds = 4;
        stalled.intended = every(START, end, 10_000_000);
        stalled.stall = new long[] {START + SECOND, START + 3 * SECOND};
        NodeRuns fine = new NodeRuns(0);
        fine.durationSeconds = 4;
        fine.intended = every(START + 5_000_000, end, 10_000_000);
        RunMerge.Result r = RunMerge.merge(List.of(fine.write(tmp.resolve("0")), stalled.write(tmp.resolve("1"))),
                tmp.resolve("merged"));
        List<String> stalls = r.selfCheck().failures().stream().filter(f -> f.contains("stall")).toList();
        assertEquals(List.of("node 1: no response for 2.0 s (1.0 s to 3.0 s of the run) while the other nodes' responses "
                + "went on: a client-side or network stall of that node"), stalls);
        assertFalse(r.selfCheck().keptUp());

        // the same silence on every node is the server's: no node is named
        fine.stall = new long[] {START + SECOND, START + 3 * SECOND};
        RunMerge.Result both = RunMerge.merge(List.of(fine.write(tmp.resolve("0b")), stalled.write(tmp.resolve("1b"))),
                tmp.resolve("merged-both"));
        assertEquals(List.of(), both.selfCheck().failures().stream().filter(f -> f.contains("stall")).toList());

        // a node with nothing scheduled for 2 s is idle, not stalled
        NodeRuns idle = new NodeRuns(1);
        idle.durationSeconds = 4;
        idle.intended = LongStream.concat(LongStream.of(every(START, START + SECOND, 10_000_000)), LongStream.of(every(START + 3 * SECOND, end, 10_000_000)))
                .toArray();
        fine.stall = null;
        RunMerge.Result gap = RunMerge.merge(List.of(fine.write(tmp.resolve("0c")), idle.write(tmp.resolve("1c"))),
                tmp.resolve("merged-idle"));
        assertEquals(List.of(), gap.selfCheck().failures().stream().filter(f -> f.contains("stall")).toList());
    }

    @Test
    void aNodeWhoseLogEndsBeforeTheGapDidNotAnswerDuringIt() throws Exception {
        long end = START + 4 * SECOND;
        NodeRuns stalled = new NodeRuns(1);
        stalled.durationSeconds = 4;
        stalled.intended = every(START, end, 10_000_000);
        stalled.stall = new long[] {START + SECOND, START + 3 * SECOND};
        // node 0 answers for half a second, then is silent to the end of its log: it has no gap of
        // its own (a gap lies between two completions), yet it answered nothing during node 1's
        NodeRuns silent = new NodeRuns(0);
        silent.durationSeconds = 4;
        silent.intended = every(START + 5_000_000, START + SECOND / 2, 10_000_000);
        RunMerge.Result r = RunMerge.merge(List.of(silent.write(tmp.resolve("0")), stalled.write(tmp.resolve("1"))),
                tmp.resolve("merged"));
        assertEquals(List.of(), r.selfCheck().failures().stream().filter(f -> f.contains("stall")).toList());

        // the same from the other end: node 0's log starts after node 1's gap
        silent.intended = every(START + 3 * SECOND + 5_000_000, end, 10_000_000);
        RunMerge.Result late = RunMerge.merge(List.of(silent.write(tmp.resolve("0b")), stalled.write(tmp.resolve("1b"))),
                tmp.resolve("merged-late"));
        assertEquals(List.of(), late.selfCheck().failures().stream().filter(f -> f.contains("stall")).toList());

        // one completion of node 0 inside node 1's gap, then silence: node 0 answered, node 1 is named
        silent.intended = every(START + 5_000_000, START + SECOND + SECOND / 2, 10_000_000);
        RunMerge.Result answered = RunMerge.merge(List.of(silent.write(tmp.resolve("0c")), stalled.write(tmp.resolve("1c"))),
                tmp.resolve("merged-answered"));
        assertEquals(List.of("node 1: no response for 2.0 s (1.0 s to 3.0 s of the run) while the other nodes' responses "
                + "went on: a client-side or network stall of that node"),
                answered.selfCheck().failures().stream().filter(f -> f.contains("stall")).toList());
    }
}
