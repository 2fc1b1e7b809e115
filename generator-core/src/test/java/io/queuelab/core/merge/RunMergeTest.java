package io.queuelab.core.merge;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.summary.RunSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Consumer;

import static io.queuelab.core.merge.NodeRuns.ANCHOR;
import static io.queuelab.core.merge.NodeRuns.SECOND;
import static io.queuelab.core.merge.NodeRuns.START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunMergeTest {
    @TempDir
    Path tmp;

    private Path node(int index, Consumer<NodeRuns> setup) throws IOException {
        NodeRuns n = new NodeRuns(index);
        setup.accept(n);
        return n.write(tmp.resolve("node-" + index));
    }

    /** intended instant (on the merged time line) of each record, by node. */
    private static Map<Integer, List<Long>> intendedByNode(Path merged) throws IOException {
        Map<Integer, List<Long>> byNode = new TreeMap<>();
        try (RequestLogReader r = RequestLogReader.open(merged.resolve(LogFormat.FILE_NAME))) {
            while (r.next()) {
                byNode.computeIfAbsent(r.node(), k -> new ArrayList<>()).add(r.intended());
            }
        }
        return byNode;
    }

    @Test
    void measuredClockOffsetsPutEveryNodeOnTheReferenceTimeLine() throws Exception {
        // node 1's wall clock runs 3 s ahead of the reference: its anchor reads 3 s late, its offset is -3 s;
        // both started their schedules at the same reference instant
        Path a = node(0, n -> n.offsetAtStart = 0L);
        Path b = node(1, n -> {
            n.anchor = ANCHOR + 3 * SECOND;
            n.offsetAtStart = -3 * SECOND;
            n.intended = new long[] {START + 2_000_000};
        });
        RunMerge.Result result = RunMerge.merge(List.of(b, a), tmp.resolve("merged"));
        assertEquals(2, result.records());
        assertEquals("10.0.0.1:7471", result.clockReference());
        assertEquals(0, result.startSkewNanos());
        assertEquals(Map.of(0, List.of(START + 1_000_000), 1, List.of(START + 2_000_000)), intendedByNode(result.directory().path()));
        Manifest m = result.directory().manifest();
        assertTrue(m.complete());
        assertEquals(ANCHOR, m.start().orElseThrow().anchorEpochNanos());
        assertEquals(200.0, m.config().orElseThrow().phases().get(0).rate(), "rates add up");
        assertTrue(m.node().orElseThrow().mergedRun());
        assertFalse(result.selfCheck().failures().stream().anyMatch(f -> f.contains("apart")), result.selfCheck().failures()::toString);
    }

    @Test
    void withoutAReferenceTheWallClocksAreTakenAsTheyWereAndTheSkewFailsTheCheck() throws Exception {
        Path a = node(0, n -> { });
        Path b = node(1, n -> n.anchor = ANCHOR + 3 * SECOND);
        RunMerge.Result result = RunMerge.merge(List.of(a, b), tmp.resolve("merged"));
        assertEquals(null, result.clockReference());
        assertEquals(3 * SECOND, result.startSkewNanos());
        assertEquals(List.of(START + 1_000_000 + 3 * SECOND), intendedByNode(result.directory().path()).get(1));
        assertTrue(result.selfCheck().failures().contains(
                "the nodes' schedules started 3000.0 ms apart, more than 1 % of the shortest phase"), result.selfCheck().failures()::toString);
        assertFalse(result.selfCheck().keptUp());
    }

    @Test
    void driftBetweenTheStartAndEndMeasurementsIsInterpolated() throws Exception {
        Path a = node(0, n -> n.offsetAtStart = 0L);
        Path b = node(1, n -> {
            n.offsetAtStart = 0L;
            n.offsetAtEnd = 1_000_000L; // 1 ms over the 1 s between the measurements: 1000 ppm
            n.intended = new long[] {SECOND / 2};
        });
        RunMerge.Result result = RunMerge.merge(List.of(a, b), tmp.resolve("merged"));
        long completed;
        try (RequestLogReader r = RequestLogReader.open(result.directory().log())) {
            long[] seen = new long[2];
            while (r.next()) {
                if (r.node() == 1) {
                    seen[0] = r.intended();
                    seen[1] = r.completed();
                }
            }
            assertEquals(SECOND / 2 + 500_000, seen[0]);
            completed = seen[1];
        }
        assertEquals(SECOND / 2 + 1_000_000 + 501_000, completed);
    }

    @Test
    void operationsAndErrorClassesAreMatchedByNameAndTotalsAddUp() throws Exception {
        Path a = node(0, n -> {
            n.errorClass = "server_timeout";
            n.failed = new long[] {START + 5_000_000};
        });
        Path b = node(1, n -> {
            n.operations = List.of("update", "select"); // code 0 is "update" in this node's log
            n.errorClass = "unavailable";
            n.failed = new long[] {START + 6_000_000, START + 7_000_000};
            n.failures = List.of("schedule lag p99 3ms exceeds 1ms");
        });
        RunMerge.Result result = RunMerge.merge(List.of(a, b), tmp.resolve("merged"));
        RunSummary s = RunSummary.of(result.directory());
        assertEquals(5, s.records);
        assertEquals(1, s.count("server_timeout"));
        assertEquals(2, s.count("unavailable"));
        assertEquals(1, s.byOperation.get("select").response.getTotalCount());
        assertEquals(1, s.byOperation.get("update").response.getTotalCount());
        Manifest m = result.directory().manifest();
        assertEquals(5, m.totals().orElseThrow().scheduled());
        assertEquals(2, m.totals().orElseThrow().errorsByClass().get("unavailable"));
        assertEquals(10_000, m.selfCheck().orElseThrow().lagP99Nanos(), "the worst node's lag");
        assertTrue(result.selfCheck().failures().contains("node 1: schedule lag p99 3ms exceeds 1ms"));
        List<String> errors = Files.readAllLines(result.directory().errors());
        assertEquals(List.of("node\tintended_ns\tworker\toperation\tclass\tmessage",
                "0\t" + (START + 5_000_000) + "\t0\t0\tserver_timeout\tno answer in 2s",
                "1\t" + (START + 6_000_000) + "\t0\t0\tunavailable\tno answer in 2s"), errors);
    }

    @Test
    void theSuperposedScheduleIsTestedAgainstTheTotalRate() throws Exception {
        double rate = 5_000;
        long[] independent0 = poisson(rate, 1);
        long[] independent1 = poisson(rate, 2);
        RunMerge.Result good = RunMerge.merge(List.of(
                node(0, n -> { n.rate = rate; n.intended = independent0; }),
                node(1, n -> { n.rate = rate; n.intended = independent1; })), tmp.resolve("merged"));
        assertTrue(good.selfCheck().failures().isEmpty(), good.selfCheck().failures()::toString);
        assertTrue(good.selfCheck().phases().get(0).ksD() < 0.05);

        // two nodes that forgot --node-index run the same seed: their schedules coincide
        Path same0 = tmp.resolve("same");
        Files.createDirectories(same0);
        NodeRuns n0 = new NodeRuns(0);
        n0.rate = rate;
        n0.intended = independent0;
        NodeRuns n1 = new NodeRuns(1);
        n1.rate = rate;
        n1.intended = independent0;
        RunMerge.Result bad = RunMerge.merge(List.of(n0.write(same0.resolve("0")), n1.write(same0.resolve("1"))),
                tmp.resolve("merged-same"));
        assertTrue(bad.selfCheck().failures().stream().anyMatch(f -> f.startsWith(
                "phase main: scheduled gaps of all nodes together are not Exp(1.000e+04/s)")), bad.selfCheck().failures()::toString);
    }

    private static long[] poisson(double rate, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Long> times = new ArrayList<>();
        double t = 0;
        while ((t += -Math.log(1 - random.nextDouble()) / rate) < 1) {
            times.add(START + (long) (t * 1e9));
        }
        return times.stream().mapToLong(Long::longValue).toArray();
    }

    @Test
    void inputsThatAreNotOneRunAreRefusedBeforeAnythingIsWritten() throws Exception {
        Path out = tmp.resolve("merged");
        Path a = node(0, n -> n.count = 3);
        Path b = node(1, n -> n.count = 3);
        assertRefused("node 2 of 3 is missing (give one run directory per node, or --missing for a partial merge)", out, a, b);
        Path twice = tmp.resolve("twice");
        NodeRuns dup = new NodeRuns(1);
        dup.count = 3;
        assertRefused("node 1 appears twice", out, a, b, dup.write(twice));
        assertRefused("give the run directories of at least two nodes, got 1", out, a);

        Path c0 = new NodeRuns(0).write(tmp.resolve("c0"));
        NodeRuns c1 = new NodeRuns(1);
        c1.complete = false;
        assertRefused("did not finish (its manifest is not complete): nothing to merge", out, c0, c1.write(tmp.resolve("c1")));
        NodeRuns longer = new NodeRuns(1);
        longer.durationSeconds = 2;
        assertRefused("have different phases", out, c0, longer.write(tmp.resolve("longer")));
        NodeRuns clocked = new NodeRuns(1);
        clocked.offsetAtStart = 0L;
        assertRefused("node 1 measured its clock against 10.0.0.1:7471, node 0 against no reference: run every node "
                + "with the same --clock-reference", out, c0, clocked.write(tmp.resolve("clocked")));
        NodeRuns bursty = new NodeRuns(1);
        bursty.arrivals = "bursty";
        assertRefused(tmp.resolve("bursty") + ": its manifest's config.arrivals is 'bursty', not poisson or constant", out, c0,
                bursty.write(tmp.resolve("bursty")));
        assertThrows(IOException.class, () -> RunMerge.merge(List.of(c0, tmp.resolve("nowhere")), out));
        assertFalse(Files.exists(out), "a refused merge writes nothing");
    }

    /**
     * Issue 43: node 1 of another run (its own start instant and seed) among nodes 0 and 2 of one run.
     * Before: merged, with only the start skew in the verdict.
     */
    @Test
    void aNodeOfAnotherRunIsRefusedByName() throws Exception {
        Path out = tmp.resolve("merged");
        Consumer<NodeRuns> runA = n -> { n.count = 3; n.startAt = "2026-11-22T12:00:00Z"; n.baseSeed = 1L; };
        Path a0 = node(0, runA);
        Path a2 = node(2, runA);
        NodeRuns b = new NodeRuns(1);
        b.count = 3;
        b.startAt = "2026-11-22T12:00:09Z";
        b.baseSeed = 7L;
        Path b1 = b.write(tmp.resolve("b1"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RunMerge.merge(List.of(a0, b1, a2), out));
        assertEquals(b1 + " (node 1) is not of the same run as " + a0 + " (node 0), " + a2 + " (node 2): its start instant"
                + " (--start-at) 2026-11-22T12:00:09Z, theirs 2026-11-22T12:00:00Z; its base seed (--seed) 7, theirs 1"
                + " (merge the nodes of one run only)", e.getMessage());
        assertFalse(Files.exists(out), "a refused merge writes nothing");

        NodeRuns faster = new NodeRuns(1);
        runA.accept(faster);
        faster.rate = 250;
        Path f1 = faster.write(tmp.resolve("f1"));
        e = assertThrows(IllegalArgumentException.class, () -> RunMerge.merge(List.of(a0, f1, a2), out));
        assertTrue(e.getMessage().startsWith(f1 + " (node 1) is not of the same run as "), e.getMessage());
        assertTrue(e.getMessage().contains(": its plan main 250.0/s, theirs main 100.0/s"), e.getMessage());

        NodeRuns same = new NodeRuns(1);
        runA.accept(same);
        assertEquals(3, RunMerge.merge(List.of(a0, same.write(tmp.resolve("a1")), a2), out).nodes(), "one run's nodes merge");
    }

    private static void assertRefused(String message, Path out, Path... runs) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RunMerge.merge(List.of(runs), out));
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertFalse(Files.exists(out));
    }

    @Test
    void aMergedRunIsNotMergedAgain() throws Exception {
        Path a = node(0, n -> { });
        Path b = node(1, n -> { });
        RunDirectory merged = RunMerge.merge(List.of(a, b), tmp.resolve("merged")).directory();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RunMerge.merge(List.of(merged.path(), b), tmp.resolve("again")));
        assertTrue(e.getMessage().contains("is not one node's run"), e.getMessage());
    }
}
