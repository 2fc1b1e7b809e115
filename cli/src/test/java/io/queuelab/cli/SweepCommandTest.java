package io.queuelab.cli;

import io.queuelab.core.testing.TimingSensitive;

import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.summary.RunSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@TimingSensitive
class SweepCommandTest {
    @TempDir
    Path dir;

    @Test
    void measuredOpenSweepLeavesOneCompleteRunPerRate() throws Exception {
        Path sweep = dir.resolve("open");
        CliTestSupport.Result r = CliTestSupport.run("sweep", "--backend", "mm1", "--mu", "1000", "--rates", "50,150",
                "--duration", "2s", "--warmup", "500ms", "--report-interval", "0", "--out", sweep.toString());
        assertEquals(0, r.exitCode(), r.err());
        String json = Files.readString(sweep.resolve("sweep.json"));
        assertTrue(json.contains("\"complete\" : true") && json.contains("rate-50") && json.contains("rate-150"), json);
        RunSummary low = RunSummary.of(RunDirectory.open(sweep.resolve("rate-50")));
        RunSummary high = RunSummary.of(RunDirectory.open(sweep.resolve("rate-150")));
        assertEquals(100, low.all.response.getTotalCount(), 4 * Math.sqrt(100));
        assertEquals(300, high.all.response.getTotalCount(), 4 * Math.sqrt(300));
        assertTrue(Manifest.read(sweep.resolve("rate-150")).complete());
        // each run draws its own parameters: an UPDATE load repeating the last run's values would change no row
        long lowSeed = Manifest.read(sweep.resolve("rate-50")).config().orElseThrow().seed();
        long highSeed = Manifest.read(sweep.resolve("rate-150")).config().orElseThrow().seed();
        assertTrue(lowSeed != highSeed && lowSeed != 1 && highSeed != 1, "seeds of the two runs (--seed 1): " + lowSeed + ", " + highSeed);
    }

    @Test
    void capacityModeProbesTheServerThenRunsAtFractionsOfItsThroughput() throws Exception {
        Path sweep = dir.resolve("capacity");
        CliTestSupport.Result r = CliTestSupport.run("sweep", "--backend", "mm1", "--mu", "400", "--fractions", "0.25,0.5",
                "--repeat", "0.5,0.5", "--probe-jobs", "16", "--probe-duration", "3s", "--duration", "2s", "--warmup", "500ms", "--report-interval", "0",
                "--out", sweep.toString());
        assertEquals(0, r.exitCode(), r.err());
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("X_max = ([0-9.]+)").matcher(r.out());
        assertTrue(m.find(), r.out());
        double capacity = Double.parseDouble(m.group(1));
        // 16 jobs keep the server busy: its throughput is its service rate
        assertEquals(400, capacity, 400 * 0.1, r.out());
        String json = Files.readString(sweep.resolve("sweep.json"));
        assertTrue(json.contains("\"complete\" : true"), json);
        // the runs as the sweep lists them (the printed X_max is rounded, the rates are not)
        com.fasterxml.jackson.databind.JsonNode runs = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json).path("runs");
        assertEquals(4, runs.size(), json);
        double[] fractions = {0.25, 0.5, 0.5, 0.5};
        for (int i = 0; i < fractions.length; i++) {
            double rate = runs.get(i).path("rate").asDouble();
            String run = runs.get(i).path("dir").asText();
            assertEquals(fractions[i] * capacity, rate, 0.01 * fractions[i] * capacity, run + " in " + json);
            RunSummary s = RunSummary.of(RunDirectory.open(sweep.resolve(run)));
            assertEquals(rate * 2, s.all.response.getTotalCount(), 5 * Math.sqrt(rate * 2), run);
        }
        // the repeats, after the sweep: each its own directory and seed, the same rate
        assertEquals(runs.get(1).path("dir").asText() + "-repeat-1", runs.get(2).path("dir").asText(), json);
        assertEquals(runs.get(1).path("dir").asText() + "-repeat-2", runs.get(3).path("dir").asText(), json);
        assertEquals(runs.get(1).path("rate").asDouble(), runs.get(3).path("rate").asDouble(), json);
        assertNotEquals(Manifest.read(sweep.resolve(runs.get(1).path("dir").asText())).config().orElseThrow().seed(),
                Manifest.read(sweep.resolve(runs.get(2).path("dir").asText())).config().orElseThrow().seed(), "a repeat draws its own arrivals");
        assertTrue(Manifest.read(sweep.resolve("capacity-probe-closed-16")).complete(), "the probe is kept in the sweep");
        assertFalse(Files.exists(dir.resolve("capacity.capacity-probe-closed-16")));
    }

    /**
     * The warm-up before a probe: a server whose JIT compilers are read is warm after two rounds in
     * a row with them at most 5 % busy (here, scripted: busy a third of each of the first three
     * rounds, then idle), whatever its throughput; one whose compilers cannot be read, after two
     * rounds in a row within 10 % of each other's throughput (a steady in-process server).
     */
    @Test
    void aServerIsWarmWhenItsCompilersFallQuietOrItsThroughputHolds() throws Exception {
        GeneratorOptions generator = picocli.CommandLine.populateCommand(new GeneratorOptions(), "--report-interval", "0");
        java.time.Duration round = java.time.Duration.ofMillis(500);
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        // read once before the first round and once after each: rounds 1-3 each add a third of 1.5 s (round and warm-up)
        java.util.function.LongSupplier compilers = () -> Math.min(reads.getAndIncrement(), 3) * 500_000_000L;
        java.io.StringWriter compiled = new java.io.StringWriter();
        try (var server = io.queuelab.core.inprocess.MM1Backend.sync(400, 1)) {
            CapacitySweep.warmUp(dir.resolve("warm-jit"), 4, round, compilers, generator, server, java.util.Map.of(),
                    new java.io.PrintWriter(compiled, true));
        }
        assertTrue(compiled.toString().contains("warm after 5 rounds"), compiled.toString());
        assertTrue(Files.isDirectory(dir.resolve("warm-jit/round-5")) && !Files.exists(dir.resolve("warm-jit/round-6")), compiled.toString());
        java.io.StringWriter steady = new java.io.StringWriter();
        try (var server = io.queuelab.core.inprocess.MM1Backend.sync(400, 1)) {
            CapacitySweep.warmUp(dir.resolve("warm-steady"), 4, java.time.Duration.ofSeconds(1), null, generator, server,
                    java.util.Map.of(), new java.io.PrintWriter(steady, true));
        }
        assertTrue(steady.toString().matches("(?s).*warm after \\d+ rounds.*") && !steady.toString().contains("warm after 1 rounds"),
                steady.toString());
    }

    /**
     * A probe that overstates the capacity the open runs find: the probe measures a 400/s server,
     * the sweep runs on one of 200/s. The 0.7 run (280/s) finds it saturated; the sweep lowers
     * X_max to what that run completed and runs 0.7 again at the corrected capacity; the repeat
     * repeats that steady run, not the saturated one.
     */
    @Test
    void aRunThatFindsTheServerSaturatedCorrectsTheCapacityAndRunsItsFractionAgain() throws Exception {
        Path sweep = dir.resolve("corrected");
        GeneratorOptions generator = picocli.CommandLine.populateCommand(new GeneratorOptions(), "--report-interval", "0");
        java.io.StringWriter text = new java.io.StringWriter();
        java.io.PrintWriter out = new java.io.PrintWriter(text, true);
        java.time.Duration duration = java.time.Duration.ofMillis(1500);
        java.time.Duration warmup = java.time.Duration.ofMillis(300);
        CapacitySweep.Probe probe;
        try (var fast = io.queuelab.core.inprocess.MM1Backend.sync(400, 1)) {
            probe = CapacitySweep.probe(sweep, 16, java.time.Duration.ofMillis(1500), warmup, generator, fast,
                    io.queuelab.core.run.RunCompanion.NONE, java.util.Map.of(), out);
        }
        assertEquals(400, probe.maxThroughput(), 60, text.toString());
        try (var slow = io.queuelab.core.inprocess.MM1Backend.sync(200, 2)) {
            SweepCommand.run(sweep, probe.levels(java.util.List.of(0.3, 0.7), new CapacitySweep.Repeats(false, java.util.List.of(0.7)), out),
                    duration, warmup, false, generator, slow, io.queuelab.core.run.RunCompanion.NONE, java.util.Map.of(), out);
        }
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(sweep.resolve("sweep.json").toFile());
        com.fasterxml.jackson.databind.JsonNode runs = json.path("runs");
        assertEquals(4, runs.size(), json.toString());
        double saturatedRate = runs.get(1).path("rate").asDouble();
        assertEquals(0.7 * probe.maxThroughput(), saturatedRate, 0.1, json.toString());
        var check = Manifest.read(sweep.resolve(runs.get(1).path("dir").asText())).selfCheck().orElseThrow();
        assertTrue(check.serverSaturation().isPresent(), check.verdict());
        com.fasterxml.jackson.databind.JsonNode correction = json.path("settings").path("capacity").path("corrections").get(0);
        assertEquals(runs.get(1).path("dir").asText(), correction.path("run").asText(), json.toString());
        double corrected = correction.path("completed").asDouble();
        assertEquals(200, corrected, 200 * 0.2, json.toString());
        assertEquals(corrected, json.path("settings").path("capacity").path("capacity").asDouble(), 1e-9, json.toString());
        // 0.7 again, at the corrected capacity: a steady run this time
        assertEquals(0.7 * corrected, runs.get(2).path("rate").asDouble(), 0.1, json.toString());
        assertTrue(Manifest.read(sweep.resolve(runs.get(2).path("dir").asText())).selfCheck().orElseThrow().serverSaturation().isEmpty());
        assertEquals(runs.get(2).path("dir").asText() + "-repeat-1", runs.get(3).path("dir").asText(), json.toString());
        assertTrue(text.toString().contains("capacity corrected: " + runs.get(1).path("dir").asText() + " found the server saturated"),
                text.toString());
    }

    @Test
    void simulatedClosedSweepMatchesTheDirtyPageBufferModel() throws Exception {
        Path sweep = dir.resolve("sim");
        CliTestSupport.Result r = CliTestSupport.run("sweep", "--simulate", "--model", "dpb", "--closed", "1,10",
                "--duration", "400s", "--warmup", "0", "--out", sweep.toString());
        assertEquals(0, r.exitCode(), r.err());
        Manifest m = Manifest.read(sweep.resolve("closed-10"));
        assertEquals("simulated", m.kind());
        assertTrue(m.complete());
        // Table 1 saturates at 1 / (E[T_proc] + E[T_dp]) = 32.0/s
        RunSummary s = RunSummary.of(RunDirectory.open(sweep.resolve("closed-10")));
        assertEquals(32.0, s.throughput(), 32.0 * 0.05, "simulated N=10 throughput");
    }

    /**
     * The summary of a rate sweep of a client-limited system (8 connections, 2 cores, a demand of
     * 0.5 ms + Exp(1.5 ms)) judges the models of its open runs: the client-limited one is
     * identified and fits, the modified M/M/1 is identified and does not fit.
     */
    @Test
    void theSummaryOfARateSweepSaysWhichModelsFit() {
        Path sweep = dir.resolve("client-ps");
        CliTestSupport.Result r = CliTestSupport.run("sweep", "--simulate", "--model", "client-ps", "--service", "shexp:0.0005,0.0015",
                "--connections", "8", "--server-cores", "2", "--rates", "100,300,500,700,900", "--duration", "20s", "--warmup", "0",
                "--out", sweep.toString());
        assertEquals(0, r.exitCode(), r.err());
        r = CliTestSupport.run("summary", sweep.toString());
        assertEquals(0, r.exitCode(), r.err());
        String out = r.out();
        assertTrue(out.contains("models of the open runs"), out);
        // client-ps made these runs, so its fit is identified, passes the residual test, and its response-time CDF is within
        // simulation noise at most of the 5 runs; not always at all 5 ("fits"): each is judged against the 95th percentile
        // of the model's own replications, so 5 judgements miss one now and then. Measured with --seed 1 to 20 (the
        // sampler of 2026-11-28): "fits" on 17 seeds, the CDF beyond at 1 run on 2 seeds and at 2 runs on 1 (seed 1, this
        // one); the residual test passed on all 20 (p >= 0.14); mm1 did not fit on all 20. Runs made by the time-sliced
        // server instead (client-slice, 10 ms slices) put client-ps beyond at 3, 3, 1, 2, 4, 3 runs with seeds 1-6, so
        // this check fails on them with this seed (3 of 5), though not on every seed.
        java.util.regex.Matcher clientPs = java.util.regex.Pattern.compile("\n  client-ps: identified; (fits \\(|does not fit: the "
                + "response-time distribution of [^\n]* at (\\d+) of 5 runs\n)").matcher(out);
        assertTrue(clientPs.find(), out);
        assertTrue(clientPs.group(2) == null || Integer.parseInt(clientPs.group(2)) <= 2, out);
        assertTrue(out.contains("\n  mm1: identified; does not fit: "), out);
    }

    @Test
    void badSweepsAreRefusedBeforeAnyRun() {
        String[][] cases = {
                {"sweep", "--backend", "noop", "--rates", "5", "--closed", "2", "--out", dir.resolve("a").toString()},
                {"sweep", "--backend", "noop", "--out", dir.resolve("a").toString()},
                {"sweep", "--backend", "noop", "--rates", "5,-1", "--out", dir.resolve("a").toString()},
                {"sweep", "--simulate", "--model", "mm1", "--service", "exp:0.01", "--rates", "50,150", "--out", dir.resolve("a").toString()},
                {"sweep", "--simulate", "--rates", "5", "--out", dir.resolve("a").toString()},
                {"sweep", "--model", "mm1", "--backend", "noop", "--rates", "5", "--out", dir.resolve("a").toString()},
                {"sweep", "--backend", "noop", "--fractions", "0.5,1.2", "--out", dir.resolve("a").toString()},
                {"sweep", "--backend", "noop", "--fractions", "0.5,0.5", "--out", dir.resolve("a").toString()},
                {"sweep", "--backend", "noop", "--fractions", "0.5", "--rates", "5", "--out", dir.resolve("a").toString()},
                {"sweep", "--backend", "noop", "--fractions", "0.5", "--probe-jobs", "0", "--out", dir.resolve("a").toString()},
                {"sweep", "--backend", "noop", "--fractions", "0.5", "--repeat", "0.7", "--out", dir.resolve("a").toString()},
                {"sweep", "--backend", "noop", "--fractions", "0.5", "--repeat", "half", "--out", dir.resolve("a").toString()},
                {"sweep", "--backend", "noop", "--fractions", "0.5,0.9", "--repeat", "held-out", "--out", dir.resolve("a").toString()},
                {"sweep", "--backend", "noop", "--rates", "5,10", "--repeat", "0.5", "--out", dir.resolve("a").toString()},
        };
        for (String[] args : cases) {
            CliTestSupport.Result r = CliTestSupport.run(args);
            String what = String.join(" ", args);
            assertEquals(2, r.exitCode(), what + " -> " + r.err());
            assertTrue(r.err().strip().startsWith("queuelab: ") && !r.err().strip().contains("\n"), what + " -> " + r.err());
        }
        assertFalse(Files.exists(dir.resolve("a")));
    }

    /**
     * A capacity sweep's options are checked before the embedded server starts or the probe runs:
     * each refusal names its option, comes at once and leaves no directory; a sweep that would run
     * longer than --max-duration is refused with its planned length, and a sweep that runs says its
     * planned length first.
     */
    @Test
    void everyOptionIsCheckedAndTheLengthPlannedBeforeTheServerStarts() {
        Path db = dir.resolve("db");
        Path out = dir.resolve("a");
        String[][] cases = {
                {"--fractions", "0.5,0.9", "--duration", "0s"},
                {"--fractions", "0.5,0.9", "--probe-duration", "0s"},
                {"--fractions", "0.5,0.9", "--telemetry-interval", "1s", "--server-pid", "999999999"},
                {"--fractions", "0.5,0.9", "--repeat", "0.5,0.5,0.5", "--duration", "1h", "--max-duration", "2h"},
                {"--rates", "5,10", "--duration", "0s"},
        };
        String[] said = {"queuelab: --duration must be positive", "queuelab: --probe-duration must be positive",
                "queuelab: --server-pid 999999999: no such process (give the pid of the running server, e.g. pgrep -o mariadbd)",
                "queuelab: the sweep would take 5 h of runs (a capacity probe of 10 s, 5 open runs of 1 h each, one more for "
                        + "each capacity correction), more than --max-duration 2 h: shorten it (fewer repeats, fractions or levels, a "
                        + "shorter --duration) or give a larger --max-duration",
                "queuelab: --duration must be positive"};
        for (int i = 0; i < cases.length; i++) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("sweep", "--embedded-dir", db.toString(),
                    "--out", out.toString()));
            args.addAll(java.util.List.of(cases[i]));
            CliTestSupport.assertRefusedAtOnce(args, said[i], db, out);
        }
        CliTestSupport.Result r = CliTestSupport.run("sweep", "--backend", "noop", "--rates", "5,10", "--duration", "1s", "--warmup", "0",
                "--report-interval", "0", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().startsWith("plan: 2 s of runs (2 runs of 1 s each)\n"), r.out());
    }
}
