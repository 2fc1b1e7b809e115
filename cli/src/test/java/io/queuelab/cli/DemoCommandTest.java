package io.queuelab.cli;

import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.Placement;
import io.queuelab.core.process.CpuSet;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.summary.RunSummary;
import io.queuelab.core.testing.TimingSensitive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The main job end to end on the embedded MariaDB, small enough for CI, then runs and bad input
 * against it. Timing-sensitive: its held-out lead is judged against the measured runs, and a server
 * sharing the two cores with other tests measured a closed run of one job at 3 ms where it takes
 * 0.4 ms, and two runs of one load 3 times apart.
 */
@TimingSensitive
class DemoCommandTest {
    private static final String DB = Path.of("target", "demo-test-db").toAbsolutePath().toString();

    /**
     * The least bound on a held-out load's predicted mean, as a relative miss of the geometric mean
     * of its two runs: the bound is the runs' own difference (high / low - 1) where that is larger.
     * The model is fitted on four 3-s runs at 5-30 % of capacity and inherits their noise: on such
     * sweeps the selected model missed by 1-20 %, where every prediction doubled missed by 100 %
     * or more.
     */
    private static final double MEAN_FLOOR = 0.4;
    /**
     * The factor within which a held-out load's predicted p99 and a closed run's predicted X(N) must
     * lie of the measured: the p99 of 3-s runs differs by up to 2 between the repeats of a load, and
     * the closed runs have no repeat to measure a spread by.
     */
    private static final double P99_FACTOR = 3;

    @TempDir
    Path dir;

    /** Why the split was not checked; null when it was. */
    private String splitUnchecked;

    @Test
    void demoRunsEndToEndAndTheJdbcBackendAnswersBadInputInOneLine() throws Exception {
        CpuSet before = CpuSet.ofThisThread();
        Path demo = dir.resolve("demo");
        // the range aggregate at fractions of its probed capacity, the UPDATE sweep at fixed rates, both with a closed
        // sweep. The range sweep is the one held out: a cpu-bound statement whose response rises with the load, so
        // the fit runs identify models however noisy 3-s runs at 5-30 % of capacity are (five of ten on such a sweep);
        // UPDATE's falls with the load (shared log flushes), and only group-commit can be identified from it, not on
        // every sweep that short
        CliTestSupport.Result r = CliTestSupport.run("demo", "--embedded-dir", DB, "--tuples", "2000", "--query", "range",
                "--update-rates", "200,400", "--fractions", "0.05,0.1,0.15,0.2,0.25,0.3", "--probe-jobs", "4", "--probe-duration", "2s",
                "--closed", "1,2", "--duration", "3s", "--warmup", "1s", "--report-interval", "0", "--out", demo.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(before, CpuSet.ofThisThread(), "the demo gives its caller's cpus back");
        java.util.List<String> rangeRuns;
        try (var listing = Files.list(demo.resolve("range"))) {
            rangeRuns = listing.map(p -> "range/" + p.getFileName()).filter(p -> p.contains("rate-")).sorted().toList();
        }
        // six loads, the two held out run again
        assertEquals(8, rangeRuns.size(), rangeRuns.toString());
        assertTrue(r.out().contains("capacity probe: X_max = "), r.out());
        java.util.List<String> runs = new java.util.ArrayList<>(java.util.List.of("update/rate-200", "update/rate-400",
                "range/capacity-probe-closed-4", "range-closed/closed-1", "update-closed/closed-2",
                "range/round-trip-open", "range/round-trip-closed", "update/round-trip-open", "update/round-trip-closed"));
        runs.addAll(rangeRuns);
        for (String run : runs) {
            RunDirectory rd = RunDirectory.open(demo.resolve(run));
            Manifest m = rd.manifest();
            assertTrue(m.complete(), run);
            assertTrue(String.valueOf(m.backend().orElseThrow().server()).contains("MariaDB"), m.backend().toString());
            RunSummary s = RunSummary.of(rd);
            assertEquals(0, s.count("dropped") + s.records - s.count("ok"), run + " all ok: " + s.outcomes);
            assertTrue(Files.size(rd.path().resolve("server-status.csv")) > 0, "telemetry in " + run);
            String resources = Files.readString(rd.path().resolve("host-resources.csv"));
            assertTrue(resources.contains(",client,") && resources.contains(",server,"), "host resources of both in " + run);
            assertSplit(m.placement().orElseThrow(), before, run);
        }
        // beside each sweep its client's round trips, open (at the sweep's middle rate) and closed, whose client time the report's models take
        assertEquals(4, r.out().lines().filter(l -> l.startsWith("client time: ")).count(), r.out());
        assertEquals(java.util.List.of("round-trip"), RunDirectory.open(demo.resolve("update/round-trip-open")).manifest().backend()
                .orElseThrow().operations().stream().map(o -> o.name()).toList());
        assertEquals(400, RunDirectory.open(demo.resolve("update/round-trip-open")).manifest().config().orElseThrow().phases().get(0).rate(), 1e-9);
        assertTrue(Files.readString(demo.resolve("range-report.html")).contains("client time of open runs"),
                "the range report's models took the client time");
        assertTrue(r.out().contains("cpus: server "), r.out());
        assertTrue(r.out().contains("verdict:"), r.out());
        assertTrue(r.out().contains("report: "), r.out());
        // each report's lead follows its path: two UPDATE loads are too few to hold two out, and the demo says so
        assertTrue(r.out().matches("(?s).*report: [^\n]*update-report\\.html\nheld out: Needs measured open runs at .*"), r.out());
        String html = Files.readString(demo.resolve("update-report.html"));
        assertTrue(html.contains("<svg") && html.contains("update/rate-400"), "the report shows the runs and charts");
        assertTrue(html.contains("id=\"n-t\"") && html.contains("update-closed/closed-2"), "the closed sweep is in the report");
        assertTrue(Files.readString(demo.resolve("update").resolve("sweep.json")).contains("\"complete\" : true"));
        assertHeldOutLead(r.out());

        // the relation the demo loaded serves plain runs too
        Path run = dir.resolve("update-run");
        // --cpu-split none and an explicit SERVER/CLIENT (the reverse of auto's), each applied and recorded (issue 42 item 4)
        CliTestSupport.Result u = CliTestSupport.run("run", "--embedded-dir", DB, "--operation", "update", "--rate", "30",
                "--duration", "2s", "--report-interval", "0", "--cpu-split", "none", "--out", run.toString());
        assertEquals(0, u.exitCode(), u.err());
        assertEquals("update", RunSummary.of(RunDirectory.open(run)).byOperation.keySet().iterator().next());
        Placement shared = RunDirectory.open(run).manifest().placement().orElseThrow();
        assertEquals("none", shared.split(), shared.toString());
        assertEquals(null, shared.note(), shared.toString());
        assertEquals(before.toString(), shared.server().cpus(), shared.toString());
        assertEquals(before.toString(), shared.client().cpus(), shared.toString());
        assertEquals(before, CpuSet.ofThisThread(), "run gives its caller's cpus back");
        Path range = dir.resolve("range-run");
        String reversed = before.size() < 2 ? "none" : before.cpus().get(before.size() - 1) + "/" + before.cpus().get(0);
        CliTestSupport.Result g = CliTestSupport.run("run", "--embedded-dir", DB, "--operation", "range", "--rate", "30",
                "--duration", "2s", "--report-interval", "0", "--cpu-split", reversed, "--out", range.toString());
        assertEquals(0, g.exitCode(), g.err());
        RunSummary rangeSummary = RunSummary.of(RunDirectory.open(range));
        assertEquals(rangeSummary.records, rangeSummary.count("ok"), "every range aggregate answered: " + rangeSummary.outcomes);
        Placement explicit = RunDirectory.open(range).manifest().placement().orElseThrow();
        assertEquals(reversed, explicit.split(), explicit.toString());
        if (before.size() >= 2) {
            assertEquals(null, explicit.note(), explicit.toString());
            assertEquals(reversed, explicit.server().cpus() + "/" + explicit.client().cpus(), explicit.toString());
        }
        assertEquals(before, CpuSet.ofThisThread(), "run gives its caller's cpus back");

        Path badWorkload = Files.writeString(dir.resolve("bad.json"), "{ this is not json");
        String[][] cases = {
                {"run", "--jdbc-url", "jdbc:mysql://127.0.0.1:9/test", "--rate", "5", "--duration", "1s", "--out", dir.resolve("x").toString()},
                {"run", "--embedded-dir", DB, "--table", "no_such_table", "--rate", "5", "--duration", "1s", "--out", dir.resolve("x").toString()},
                {"run", "--embedded-dir", DB, "--workload", badWorkload.toString(), "--rate", "5", "--duration", "1s", "--out", dir.resolve("x").toString()},
                // the server queuelab starts has its cores from the split, not from a statement
                {"run", "--embedded-dir", DB, "--server-cores", "2", "--rate", "5", "--duration", "1s", "--out", dir.resolve("x").toString()},
        };
        CliTestSupport.assertEachIsRefused(cases);
        // a split that cannot be: refused before the server starts, in one line
        int absent = before.cpus().get(before.size() - 1) + 1;
        for (String split : new String[]{"0/" + absent, "0/0", "0/", "/0", "0-1", "x/1", "0/1/2"}) {
            CliTestSupport.Result bad = CliTestSupport.run("run", "--embedded-dir", DB, "--cpu-split", split, "--rate", "5",
                    "--duration", "1s", "--out", dir.resolve("x").toString());
            assertEquals(2, bad.exitCode(), split + ": " + bad.err());
            assertTrue(bad.err().strip().lines().count() == 1 && bad.err().contains("--cpu-split"), split + ": " + bad.err());
        }
        CliTestSupport.Result noServer = CliTestSupport.run("run", "--backend", "noop", "--cpu-split", "0/0", "--rate", "5",
                "--duration", "1s", "--out", dir.resolve("x").toString());
        assertTrue(noServer.exitCode() == 2 && noServer.err().contains("share cpu 0"), noServer.err());
        assertFalse(Files.exists(dir.resolve("x")), "refused runs leave no directory");
        org.junit.jupiter.api.Assumptions.assumeTrue(splitUnchecked == null, splitUnchecked);
    }

    /**
     * The range report's held-out lead on real runs (issue 42 item 3): a model selected, each held-out
     * load predicted, every closed prediction that is not saturated obeying Little's law (predicted
     * X(N) x predicted R(N) = N, no think time, to the printed digits), and the predictions within
     * the accuracy this sweep's own spread allows ({@link #MEAN_FLOOR}, {@link #P99_FACTOR}).
     */
    private static void assertHeldOutLead(String out) {
        java.util.regex.Matcher lead = java.util.regex.Pattern.compile("report: [^\n]*range-report\\.html\nselected model: [a-z0-9-]+, held-out"
                + " error").matcher(out);
        assertTrue(lead.find(), out);
        // the lead's indented lines after "selected model: ...", one per held-out run
        java.util.List<String> lines = out.substring(lead.start()).lines().skip(2).takeWhile(l -> l.startsWith("  ")).toList();
        java.util.regex.Pattern figures = java.util.regex.Pattern.compile("^  (\\S+) \\((N = (\\d+)|[0-9.e+]+/s)\\): mean ([0-9.e+]+) ms, predicted"
                + " ([0-9.e+]+) \\([-+0-9.]+ %\\); p99 ([0-9.e+]+) ms, predicted ([0-9.e+]+) \\(");
        java.util.regex.Pattern throughputs = java.util.regex.Pattern.compile("X\\(N\\) ([0-9.e+]+)/s, predicted ([0-9.e+]+)/s");
        // the held-out open loads by their first run's name: each was run twice, the server's own spread
        java.util.Map<String, java.util.List<double[]>> open = new java.util.TreeMap<>();
        java.util.List<double[]> closed = new java.util.ArrayList<>();
        for (String line : lines) {
            java.util.regex.Matcher m = figures.matcher(line);
            if (!m.find()) {
                assertTrue(line.contains("(N = ") && line.contains("saturated"), "an open prediction is a figure, a closed one a figure"
                        + " or a saturation: " + line);
                continue;
            }
            double mean = Double.parseDouble(m.group(4));
            double predictedMean = Double.parseDouble(m.group(5));
            double p99 = Double.parseDouble(m.group(6));
            double predictedP99 = Double.parseDouble(m.group(7));
            if (m.group(3) == null) {
                open.computeIfAbsent(m.group(1).replaceAll("-repeat-\\d+$", ""), k -> new java.util.ArrayList<>())
                        .add(new double[]{mean, predictedMean, p99, predictedP99});
                continue;
            }
            int jobs = Integer.parseInt(m.group(3));
            java.util.regex.Matcher x = throughputs.matcher(line);
            assertTrue(x.find(), "a closed prediction gives X(N): " + line);
            double throughput = Double.parseDouble(x.group(1));
            double predictedThroughput = Double.parseDouble(x.group(2));
            assertEquals(1, predictedThroughput * predictedMean / 1e3 / jobs, 0.01, "X(N) R(N) / N: " + line);
            closed.add(new double[]{jobs, throughput, predictedThroughput});
        }
        assertEquals(2, open.size(), "two held-out open loads: " + lines);
        assertTrue(open.values().stream().allMatch(runs -> runs.size() == 2), "each held-out load and its repeat predicted: " + lines);
        assertTrue(closed.size() >= 2, "the closed runs of 1 and 2 jobs are predicted: " + lines);

        // each load's predicted mean against its two runs' geometric mean, within their own spread (never less than
        // MEAN_FLOOR); its p99, whose tail is where the models miss (issue 39) and where 3-s runs differ most, within
        // a factor P99_FACTOR
        StringBuilder judged = new StringBuilder();
        for (var load : open.entrySet()) {
            java.util.List<double[]> runs = load.getValue();
            double[] a = runs.get(0), b = runs.get(1);
            double bound = Math.max(MEAN_FLOOR, Math.max(a[0], b[0]) / Math.min(a[0], b[0]) - 1);
            double measured = Math.sqrt(a[0] * b[0]);
            double measuredP99 = Math.sqrt(a[2] * b[2]);
            judged.append(String.format(java.util.Locale.ROOT, " %s's mean within %.0f %% of %.3g ms;", load.getKey(), 100 * bound, measured));
            for (double[] run : runs) {
                double miss = Math.max(run[1] / measured, measured / run[1]) - 1;
                assertTrue(miss <= bound, String.format(java.util.Locale.ROOT, "%s: the predicted mean %.3g ms misses the runs' %.3g ms (%.3g"
                        + " and %.3g) by %.0f %%, more than their spread allows, %.0f %%: %s", load.getKey(), run[1], measured, a[0], b[0],
                        100 * miss, 100 * bound, lines));
                double factor = Math.max(run[3] / measuredP99, measuredP99 / run[3]);
                assertTrue(factor <= P99_FACTOR, String.format(java.util.Locale.ROOT, "%s: the predicted p99 %.3g ms misses the runs' %.3g ms"
                        + " by a factor %.2f, more than %.1f: %s", load.getKey(), run[3], measuredP99, factor, P99_FACTOR, lines));
            }
        }
        System.out.printf(java.util.Locale.ROOT, "held-out lead judged:%s p99 and closed X(N) within a factor %.1f:%n%s%n", judged,
                P99_FACTOR, String.join("\n", lines));
        // a closed run has no repeat to measure a spread by, and the closed run of one job is where the models miss
        // most (issue 39: the demand is taken from open runs; X(1) predicted 44 % low beside the suite's other tests):
        // its X(N) is held within a factor P99_FACTOR, which a latency outside the cycle (X(N) 8 times too high
        // on the issue's sweep) or a cycle without the queue's demand breaks
        for (double[] c : closed) {
            double factor = Math.max(c[1] / c[2], c[2] / c[1]);
            assertTrue(factor <= P99_FACTOR, String.format(java.util.Locale.ROOT, "N = %.0f: the predicted X(N) %.4g/s misses the"
                    + " measured %.4g/s by a factor %.2f, more than %.1f: %s", c[0], c[2], c[1], factor, P99_FACTOR, lines));
        }
    }

    /**
     * The default split of {@code available}: the server on the first half (rounded up), the
     * generator on the rest, as the kernel reported them (every thread of the server: CpuPinning
     * records no note unless each one is on its cpus); on one cpu, shared and saying why. There
     * the split itself goes unchecked, and the test ends in a reported skip after all else is
     * asserted, never a silent pass.
     */
    private void assertSplit(Placement p, CpuSet available, String run) {
        assertEquals("auto", p.split(), run);
        if (available.size() < 2) {
            assertTrue(p.note() != null && p.note().startsWith("not pinned"), run + ": " + p);
            splitUnchecked = "one cpu (" + available + "): the server and the generator could not be split, so the split was not checked";
            return;
        }
        assertEquals(null, p.note(), run + ": " + p);
        int serverCores = (available.size() + 1) / 2;
        assertEquals(available.first(serverCores).toString(), p.server().cpus(), run + ": " + p);
        assertEquals(serverCores, p.server().cores(), run);
        assertEquals(available.minus(available.first(serverCores)).toString(), p.client().cpus(), run + ": " + p);
        assertTrue(p.separate(), run + ": " + p);
    }

    /**
     * The demo checks every option, and its planned length, before the server starts, a tuple is
     * loaded or a directory is made: --duration 0s once started MariaDB, loaded the relation and
     * ran a 7 s probe before "a phase needs a positive duration"; 50 repeats were accepted unsaid.
     */
    @Test
    void everyOptionIsCheckedAndTheLengthPlannedBeforeAnythingStarts() throws Exception {
        Path db = dir.resolve("db");
        Path out = dir.resolve("demo");
        String fifty = String.join(",", java.util.Collections.nCopies(50, "0.5"));
        String[][] cases = {
                {"--duration", "0s"},
                {"--probe-duration", "0s"},
                {"--probe-jobs", "0"},
                {"--closed", "1,x"},
                {"--repeat", fifty},
                {"--backend", "cassandra", "--duration", "0s"},
        };
        String[] said = {"queuelab: --duration must be positive", "queuelab: --probe-duration must be positive",
                "queuelab: --probe-jobs must be at least 1, got 0", "queuelab: --closed takes job counts like 1,4,16,64 or none, not '1,x'",
                "queuelab: the demo would take 30 min 38 s of runs (range: a capacity probe of 7 s, 56 open runs of 15 s each, one "
                        + "more for each capacity correction, 4 closed runs, the client's round trips, open and closed (6 s each); update: a"
                        + " capacity probe of 7 s, 56 open runs of 15 s each, one more for each capacity correction, 4 closed runs, the"
                        + " client's round trips, open and closed (6 s each); besides loading 100,000 tuples and the reports), more "
                        + "than --max-duration 30 min: shorten it (fewer repeats, fractions or levels, a shorter --duration) or give a "
                        + "larger --max-duration",
                "queuelab: --duration must be positive"};
        for (int i = 0; i < cases.length; i++) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("demo", "--embedded-dir", db.toString(),
                    "--cassandra-dir", dir.resolve("cassandra").toString(), "--out", out.toString()));
            args.addAll(java.util.List.of(cases[i]));
            CliTestSupport.assertRefusedAtOnce(args, said[i], db, out, dir.resolve("cassandra"));
        }
        // asked for: a larger bound lets the same 50 repeats through, their length said first (then a server that does not answer)
        CliTestSupport.Result asked = CliTestSupport.run("demo", "--jdbc-url", "jdbc:mysql://127.0.0.1:9/test", "--out", out.toString(),
                "--repeat", fifty, "--max-duration", "1h");
        assertEquals(2, asked.exitCode(), asked.err());
        assertTrue(asked.out().startsWith("plan: 30 min 38 s of runs (range: a capacity probe of 7 s, 56 open runs"), asked.out());
        assertFalse(Files.exists(out), "nothing created");
    }
}
