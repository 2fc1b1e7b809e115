package io.queuelab.cli;

import io.queuelab.core.testing.TimingSensitive;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code queuelab validate} end to end on simulated runs of a client-limited system: the table, the
 * JSON of docs/experiments.md field by field, and bad input (one line, exit 2).
 */
@TimingSensitive
class ValidateCommandTest {
    @TempDir
    static Path tmp;
    static Path low, mid, high, holdout, holdoutAgain;

    private static Path simulate(String name, double lambda) {
        Path dir = tmp.resolve(name);
        CliTestSupport.Result r = CliTestSupport.run("simulate", "--model", "client-ps", "--service", "shexp:0.0005,0.0015",
                "--connections", "4", "--server-cores", "2", "--lambda", Double.toString(lambda), "--customers", "8000",
                "--replications", "1", "--seed", Integer.toString(name.length()), "--out", dir.toString());
        assertEquals(0, r.exitCode(), r.err());
        return dir;
    }

    @BeforeAll
    static void runs() {
        low = simulate("low", 150);
        mid = simulate("middle", 500);
        high = simulate("high-rate", 850);
        holdout = simulate("holdout", 700);
        holdoutAgain = simulate("holdout-again", 700);
    }

    @Test
    void theJsonHasExactlyTheDocumentedFields() throws Exception {
        Path json = tmp.resolve("validate.json");
        CliTestSupport.Result r = CliTestSupport.run("validate", low.toString(), mid.toString(), high.toString(),
                "--holdout", holdout + "," + holdoutAgain, "--models", "mm1,client-ps", "--server-cores", "2", "--json", json.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("selected: "), r.out());
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertEquals(Set.of("selected", "leftOut", "notes", "fitServer", "clientTime", "models", "repeats"), names(root));
        assertTrue(root.get("clientTime").isNull(), "no round trip among the fit runs: " + root.get("clientTime"));
        assertEquals(0, root.get("leftOut").size(), root.toString());
        // the two held-out runs of one configured rate: the server's own spread
        assertEquals(1, root.get("repeats").size(), root.toString());
        JsonNode repeat = root.get("repeats").get(0);
        assertEquals(Set.of("load", "runs", "pooled", "range", "ksBetweenRuns"), names(repeat));
        assertEquals("open 700.0/s", repeat.get("load").asText());
        assertEquals(List.of(holdout.toString(), holdoutAgain.toString()), List.of(repeat.get("runs").get(0).asText(), repeat.get("runs").get(1).asText()));
        for (String side : List.of("pooled", "range")) {
            assertEquals(Set.of("mean_s", "p50_s", "p99_s"), names(repeat.get(side)));
        }
        assertTrue(repeat.get("ksBetweenRuns").isNumber(), repeat.toString());
        // CSV logs: no server telemetry, so the fit runs' server is unknown
        assertEquals(Set.of("cpuUnitNanos", "cpuSecondsPerRequest"), names(root.get("fitServer")));
        assertTrue(root.get("fitServer").get("cpuSecondsPerRequest").isNull(), root.get("fitServer").toString());
        assertEquals(2, root.get("models").size());
        List<String> modelNames = new ArrayList<>();
        for (JsonNode m : root.get("models")) {
            modelNames.add(m.get("name").asText());
            assertEquals(Set.of("name", "identified", "fits", "lackOfFit", "parameters", "predictions", "repeats"), names(m));
            for (JsonNode judged : m.get("repeats")) {
                assertEquals(Set.of("load", "predicted", "ksToRuns", "meanWithin", "p50Within", "p99Within", "ksWithin"), names(judged));
            }
            assertEquals(m.get("predictions").isEmpty() ? 0 : 1, m.get("repeats").size(), m.toString());
            assertTrue(m.get("identified").isBoolean() && m.get("fits").isBoolean(), m.toString());
            assertTrue(m.get("lackOfFit").isNull() || m.get("lackOfFit").isTextual(), m.toString());
            assertEquals(m.get("fits").asBoolean(), m.get("lackOfFit").isNull(), "a reason exactly when it does not fit: " + m);
            m.get("parameters").fields().forEachRemaining(p -> assertTrue(p.getValue().isNumber() || p.getValue().isNull(), p.toString()));
            for (JsonNode p : m.get("predictions")) {
                // atOwnServer only for a run whose server differs from the fit runs' (MeasuredDemandTest)
                assertEquals(Set.of("run", "rate", "measured", "predicted", "saturation", "ks", "ksYardstick", "withinYardstick", "server",
                        "fitServerAtItsLoad"), names(p));
                assertTrue(p.get("saturation").isNull(), p.toString());
                assertEquals(Set.of("cpuUnitNanos", "cpuSecondsPerRequest"), names(p.get("server")));
                assertEquals(Set.of("cpuUnitNanos", "cpuSecondsPerRequest"), names(p.get("fitServerAtItsLoad")));
                assertTrue(List.of(holdout.toString(), holdoutAgain.toString()).contains(p.get("run").asText()), p.toString());
                assertEquals(700, p.get("rate").asDouble(), 35);
                for (String side : List.of("measured", "predicted")) {
                    assertEquals(Set.of("mean_s", "p50_s", "p99_s"), names(p.get(side)));
                }
                assertTrue(p.get("withinYardstick").isBoolean());
            }
        }
        assertEquals(List.of("mm1", "client-ps"), modelNames);
        // the client-limited system's own model: identified, fits, predicts the held-out run, selected
        JsonNode clientPs = root.get("models").get(1);
        assertTrue(clientPs.get("identified").asBoolean() && clientPs.get("fits").asBoolean(), clientPs.toString());
        assertEquals("client-ps", root.get("selected").asText());
        JsonNode p = clientPs.get("predictions").get(0);
        double measured = p.get("measured").get("mean_s").asDouble();
        assertEquals(measured, p.get("predicted").get("mean_s").asDouble(), 0.15 * measured, p.toString());
        assertEquals(4, clientPs.get("parameters").get("K").asInt());
    }

    @Test
    void badInputIsOneLineAndExitCode2() {
        CliTestSupport.assertEachIsRefused(new String[][] {
                {"validate", low.toString(), "--holdout", holdout.toString()},
                {"validate", low.toString(), mid.toString(), "--holdout", mid.toString()},
                {"validate", low.toString(), mid.toString(), "--holdout", holdout.toString(), "--server-cores", "0"},
                {"validate", low.toString(), mid.toString(), "--holdout", holdout.toString(), "--server-cores", "-2"},
                {"validate", low.toString(), mid.toString(), "--holdout", holdout.toString(), "--server-cores", "1.5"},
                {"validate", low.toString(), mid.toString(), "--holdout", holdout.toString(), "--connections", "0"},
                {"validate", low.toString(), mid.toString(), "--holdout", holdout.toString(), "--models", "mm1,erlang"},
                {"validate", low.toString(), mid.toString()},
                {"validate", low.toString(), tmp.resolve("missing").toString(), "--holdout", holdout.toString()},
        });
        CliTestSupport.Result r = CliTestSupport.run("validate", low.toString(), mid.toString(), "--holdout", mid.toString());
        assertTrue(r.err().contains("also a fit run"), r.err());
        r = CliTestSupport.run("validate", low.toString(), "--holdout", holdout.toString());
        assertTrue(r.err().contains("2 or more arrival rates"), r.err());
        r = CliTestSupport.run("validate", low.toString(), mid.toString(), "--holdout", holdout.toString(), "--models", "erlang");
        assertTrue(r.err().contains("unknown model 'erlang'"), r.err());
    }

    /** {@code --list-models} prints every model's card, and docs/models.md holds that table as printed. */
    @Test
    void listModelsPrintsTheTableOfDocsModels() throws Exception {
        CliTestSupport.Result r = CliTestSupport.run("validate", "--list-models");
        assertEquals(0, r.exitCode(), r.err());
        for (String name : io.queuelab.fit.CandidateModels.STANDARD.names()) {
            assertTrue(r.out().contains("| `" + name + "` |"), () -> name + " missing:\n" + r.out());
        }
        String docs = java.nio.file.Files.readString(Path.of("").toAbsolutePath().getParent().resolve("docs").resolve("models.md"));
        assertTrue(docs.contains(r.out()), () -> "docs/models.md does not hold the table validate --list-models prints:\n" + r.out());
    }

    @Test
    void runsOfDifferentServersAreNotMixed() {
        Path noop = tmp.resolve("noop");
        Path mm1 = tmp.resolve("mm1");
        assertEquals(0, CliTestSupport.run("run", "--backend", "noop", "--rate", "200", "--duration", "1s", "--report-interval", "0",
                "--out", noop.toString()).exitCode());
        assertEquals(0, CliTestSupport.run("run", "--backend", "mm1", "--mu", "2000", "--rate", "400", "--duration", "1s",
                "--report-interval", "0", "--out", mm1.toString()).exitCode());
        CliTestSupport.assertEachIsRefused(new String[][] {{"validate", noop.toString(), mm1.toString(), "--holdout", holdout.toString()}});
        assertTrue(CliTestSupport.run("validate", noop.toString(), mm1.toString(), "--holdout", holdout.toString()).err()
                .contains("different workloads or servers"));
    }

    /**
     * Measured runs of an emulated M/M/1 server (200/s), two of them beyond it (280 and 300/s): their
     * queues grow, their self-checks say the server was saturated, and validate leaves them out of
     * the fit and of the predictions, naming each, rather than fitting a steady state through them.
     */
    @Test
    void runsThatSaturatedTheServerAreLeftOutAndNamed() throws Exception {
        Path sweep = tmp.resolve("saturating-sweep");
        assertEquals(0, CliTestSupport.run("sweep", "--backend", "mm1", "--mu", "200", "--rates", "40,100,160,280", "--duration", "1500ms",
                "--warmup", "300ms", "--report-interval", "0", "--out", sweep.toString()).exitCode());
        Path steady = tmp.resolve("held-130");
        Path saturated = tmp.resolve("held-300");
        for (var run : List.of(java.util.Map.entry(steady, "130"), java.util.Map.entry(saturated, "300"))) {
            assertEquals(0, CliTestSupport.run("run", "--backend", "mm1", "--mu", "200", "--rate", run.getValue(), "--duration", "1500ms",
                    "--warmup", "300ms", "--report-interval", "0", "--out", run.getKey().toString()).exitCode());
        }
        Path json = tmp.resolve("saturating.json");
        CliTestSupport.Result r = CliTestSupport.run("validate", sweep.toString(), "--holdout", steady + "," + saturated, "--models", "mm1",
                "--json", json.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("note: run saturating-sweep/rate-280: the server was saturated"), r.out());
        assertTrue(r.out().contains("note: held-out run " + saturated + ": the server was saturated"), r.out());
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertEquals(2, root.get("leftOut").size(), root.toString());
        JsonNode mm1 = root.get("models").get(0);
        assertEquals(1, mm1.get("predictions").size(), mm1.toString());
        assertEquals(steady.toString(), mm1.get("predictions").get(0).get("run").asText());
        // the fit saw three rates, the highest 160/s: a steady M/M/1 through them has mu above 160/s, and through the 280/s
        // run it would need mu above 280/s (the truth is 200/s; runs of 1.5 s do not pin it closer)
        double mu = mm1.get("parameters").get("mu").asDouble();
        assertTrue(mu > 160 && mu < 280, mm1.toString());
        // nothing steady to predict: one line, exit 2
        CliTestSupport.assertEachIsRefused(new String[][] {{"validate", sweep.toString(), "--holdout", saturated.toString()}});
        assertTrue(CliTestSupport.run("validate", sweep.toString(), "--holdout", saturated.toString()).err()
                .contains("every held-out run measured a saturated server"));
    }

    /**
     * Faults round 4: the same run twice (by any path, a symlink included) is refused as a run both
     * fit and held out is, and runs are counted by their distinct rates, not as points (before:
     * {@code validate r300 r300 r300} selected a model that "fits, p = 1.0" with mu = 2.6e10); a core
     * count no machine has is refused before anything is read (before: 1048576 ran for minutes).
     */
    @Test
    void aRunGivenTwiceOrRunsAtOneRateOrAbsurdCoresAreRefused() throws Exception {
        Path link = tmp.resolve("low-link");
        java.nio.file.Files.createSymbolicLink(link, low);
        Path copy = tmp.resolve("low-copy");
        java.nio.file.Files.createDirectories(copy);
        try (var files = java.nio.file.Files.list(low)) {
            for (Path f : files.toList()) {
                java.nio.file.Files.copy(f, copy.resolve(f.getFileName()));
            }
        }
        CliTestSupport.assertEachIsRefused(new String[][] {
                {"validate", low.toString(), low.toString(), low.toString(), "--holdout", holdout.toString()},
                {"validate", low.toString(), link.toString(), "--holdout", holdout.toString()},
                {"validate", low.toString(), mid.toString(), "--holdout", holdout + "," + holdout},
                {"validate", low.toString(), copy.toString(), "--holdout", holdout.toString()},
                {"validate", low.toString(), mid.toString(), "--holdout", holdout.toString(), "--server-cores", "1048576"},
        });
        assertEquals("queuelab: run " + link + " is given twice (also as " + low + "): each run is one point of the fit",
                CliTestSupport.run("validate", low.toString(), link.toString(), "--holdout", holdout.toString()).err().strip());
        assertTrue(CliTestSupport.run("validate", low.toString(), copy.toString(), "--holdout", holdout.toString()).err()
                .contains("the 2 runs are at one arrival rate"));
        assertTrue(CliTestSupport.run("validate", low.toString(), mid.toString(), "--holdout", holdout.toString(), "--server-cores",
                "1048576").err().contains("--server-cores 1048576 is more cores than a Linux x86-64 server can have (at most 8192)"));
    }

    /**
     * Runs whose manifests record different servers (an emulated M/M/1 of mu 1000 and one of 500) are
     * validated together with a note that says so (before: a model was selected without a word).
     */
    @Test
    void runsOfServersThatDifferInASettingAreNoted() {
        List<String> args = new ArrayList<>(List.of("validate"));
        for (String[] run : new String[][] {{"mu1000-r200", "1000", "200"}, {"mu1000-r500", "1000", "500"}, {"mu500-r300", "500", "300"}}) {
            Path dir = tmp.resolve(run[0]);
            assertEquals(0, CliTestSupport.run("run", "--backend", "mm1", "--mu", run[1], "--rate", run[2], "--duration", "1500ms",
                    "--warmup", "300ms", "--report-interval", "0", "--out", dir.toString()).exitCode());
            args.add(dir.toString());
        }
        String held = args.remove(args.size() - 1);
        args.addAll(List.of("--holdout", held, "--models", "mm1"));
        CliTestSupport.Result r = CliTestSupport.run(args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().startsWith("note: the runs' manifests record different servers: " + held + " has mu 500.0 (mu1000-r200: 1000.0)"),
                r.out());
    }

    /**
     * Issue 43: --json onto what is not a regular file. Before: the link was replaced by a regular
     * file (its target unchanged), a full device became a regular file with "wrote" printed, and a
     * directory was reported as "PATH.tmp: is a directory".
     */
    @Test
    void theJsonGoesThroughALinkAndNeverReplacesADeviceOrADirectory() throws Exception {
        List<String> validate = List.of("validate", low.toString(), mid.toString(), high.toString(), "--holdout", holdout.toString(),
                "--models", "mm1", "--server-cores", "2", "--json");
        Path real = Files.writeString(tmp.resolve("real.json"), "old");
        Path link = Files.createSymbolicLink(tmp.resolve("link.json"), real);
        CliTestSupport.Result r = CliTestSupport.run(with(validate, link));
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(Files.isSymbolicLink(link), "the link is kept");
        assertTrue(new ObjectMapper().readTree(real.toFile()).has("selected"), "its target written");

        Path directory = Files.createDirectory(tmp.resolve("out.json"));
        r = CliTestSupport.run(with(validate, directory));
        assertEquals(2, r.exitCode(), r.err());
        assertEquals("queuelab: --json " + directory + " is a directory, not a file (give the path of a file)", r.err().strip());

        Path full = tmp.resolve("full"); // a private /dev/full
        assumeTrue(new ProcessBuilder("mknod", full.toString(), "c", "1", "7").start().waitFor() == 0, "mknod (root)");
        r = CliTestSupport.run(with(validate, full));
        assertEquals(2, r.exitCode(), r.err());
        assertEquals("queuelab: could not write " + full + ": No space left on device", r.err().strip());
        assertFalse(r.out().contains("wrote"), r.out());
        assertTrue(Files.exists(full) && !Files.isRegularFile(full), "still a device");
    }

    private static String[] with(List<String> args, Path last) {
        List<String> all = new ArrayList<>(args);
        all.add(last.toString());
        return all.toArray(String[]::new);
    }

    private static Set<String> names(JsonNode node) {
        Set<String> out = new TreeSet<>();
        node.fieldNames().forEachRemaining(out::add);
        return new java.util.HashSet<>(out);
    }
}
