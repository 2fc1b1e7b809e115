package io.queuelab.cli;

import io.queuelab.core.testing.TimingSensitive;

import io.queuelab.core.manifest.RunEnd;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queuelab.core.clock.ClockReferenceServer;
import io.queuelab.core.log.LogFormat;
import io.queuelab.core.manifest.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Absurd input, input that is refused before anything is created, unwritable paths, and what the
 * reading commands say first about runs and sweeps that did not finish (issue 13).
 */
@Timeout(120)
@TimingSensitive
class FaultsAndLimitsTest {
    @TempDir
    Path dir;

    private static String refused(String... args) {
        CliTestSupport.assertEachIsRefused(new String[][] {args});
        return CliTestSupport.run(args).err().strip();
    }

    @Test
    void anAbsurdRateIsRefusedWithTheBoundAndNothingIsCreated() {
        Path out = dir.resolve("r");
        String err = refused("run", "--backend", "noop", "--rate", "1e12", "--duration", "10s", "--out", out.toString());
        assertTrue(err.contains("above the bound of 2,500,000/s"), err);
        assertFalse(Files.exists(out));
        err = refused("sweep", "--backend", "noop", "--rates", "100,1e9", "--duration", "1s", "--out", out.toString());
        assertTrue(err.contains("above the bound of 2,500,000/s"), err);
        assertFalse(Files.exists(out), "refused before the first run");
    }

    @Test
    void aLogThatCannotFitOnTheDiskIsRefusedUpFront() {
        Path out = dir.resolve("big");
        String err = refused("run", "--backend", "noop", "--rate", "900000", "--duration", "100000000s", "--out", out.toString());
        assertTrue(err.matches("queuelab: the run would log about 9\\.00e\\+13 requests \\(3\\.60e\\+06 GB at 40 bytes each\\) but .* GB free"), err);
        assertFalse(Files.exists(out));
    }

    @Test
    void anAbsurdSimulatedDurationIsRefusedWithTheBound() {
        String err = refused("simulate", "--model", "mm1", "--service", "exp:0.01", "--lambda", "50", "--duration", "1e300");
        assertEquals("queuelab: a replication of about 5.00e+301 customers is beyond the bound of 1,000,000,000 customers per "
                + "replication (about 3 minutes at the simulator's 5-7 million customers/s, docs/benchmarks.md): shorten --duration "
                + "or give --customers", err);
        err = refused("simulate", "--model", "mm1", "--service", "exp:0.01", "--closed", "4", "--duration", "1e300");
        assertTrue(err.contains("beyond the bound of 1,000,000,000 customers"), err);
    }

    /** Before: 2^31 replications ended in OutOfMemoryError after 27 s; 1e9 customers x 1e6 replications ran without end. */
    @Test
    void theSimulationsTotalWorkAndMemoryAreBoundedUpFront() {
        Path out = dir.resolve("sim");
        String err = refused("simulate", "--model", "mm1", "--service", "exp:0.01", "--lambda", "50", "--customers", "1000",
                "--replications", "2147483647", "--out", out.toString());
        assertEquals("queuelab: --replications 2,147,483,647 is beyond the bound of 1,000 replications (each keeps its "
                + "response-time histogram, up to ~170 KB, in memory until the end)", err);
        assertFalse(Files.exists(out));
        err = refused("simulate", "--model", "mm1", "--service", "exp:0.01", "--lambda", "50", "--customers", "1000000000",
                "--replications", "1000");
        assertEquals("queuelab: 1,000 replications of about 1.00e+09 customers each (1.00e+12 in all) are beyond the bound "
                + "of 10,000,000,000 customers in all (15-30 minutes on two threads, docs/benchmarks.md): fewer --replications "
                + "or shorter replications", err);
        err = refused("simulate", "--model", "mm1", "--service", "exp:0.01", "--lambda", "50", "--customers", "100000000",
                "--precision", "0.001", "--max-replications", "500");
        assertTrue(err.contains("fewer --max-replications"), err);
    }

    /** Before: "rate NaN" and "the generator kept up" for a run that measured nothing. */
    @Test
    void aRunWithNoMeasuredRequestSaysSoInsteadOfNaNAndKeptUp() {
        CliTestSupport.Result r = CliTestSupport.run("run", "--backend", "noop", "--rate", "0.001", "--duration", "1s",
                "--report-interval", "0", "--out", dir.resolve("empty").toString());
        assertEquals(0, r.exitCode(), r.err());
        assertFalse(r.out().contains("NaN"), r.out());
        assertTrue(r.out().contains("rate      - (no request outside warm-up: nothing was measured)"), r.out());
        assertFalse(r.out().contains("the generator kept up"), r.out());
        assertTrue(r.out().contains("verdict: no request was measured: none was scheduled outside warm-up"), r.out());
        assertFalse(r.out().contains("did not keep up"), "nothing measured is not the generator's failure: " + r.out());
    }

    /** Before: a sweep counted a run that measured nothing as finished ("sweep of 2 runs", summary silent). */
    @Test
    void aSweepDoesNotCountARunThatMeasuredNothingAsFinished() throws IOException {
        Path sweep = dir.resolve("sw");
        CliTestSupport.Result r = noopSweep(sweep, "0.001,200");
        assertTrue(r.out().contains("sweep of 2 runs in " + sweep + ": 1 finished; rate-0.001 measured no request (see its verdict)"),
                r.out());
        String summary = CliTestSupport.run("summary", sweep.toString()).out();
        assertTrue(summary.startsWith("WARNING: sweep " + sweep + ": 1 finished run (rate-200); rate-0.001 measured no request"),
                summary);
        Path html = dir.resolve("sw.html");
        assertEquals(0, CliTestSupport.run("report", sweep.toString(), "--out", html.toString()).exitCode());
        String report = Files.readString(html);
        assertFalse(report.contains("NaN"), "the report of the sweep labelled the empty run 'open NaN/s'");
        assertTrue(report.contains("open, no request measured"), "the empty run's label");
    }

    /**
     * A sweep's run that measured no request is no point of a fit: {@code fit} and {@code report}
     * leave it out with a one-line note naming it, from the sweep directory and with the runs given
     * one by one, and their fits list the other runs only. Before: fit left it out without a word,
     * and so did report of the runs given one by one.
     */
    @Test
    void aRunThatMeasuredNothingIsLeftOutOfFitAndReportWithANoteNamingIt() throws IOException {
        Path sweep = dir.resolve("mm1-sweep");
        CliTestSupport.Result made = CliTestSupport.run("sweep", "--backend", "mm1", "--mu", "1000", "--rates", "0.001,200,500",
                "--duration", "2s", "--warmup", "0s", "--seed", "3", "--report-interval", "0", "--out", sweep.toString());
        assertEquals(0, made.exitCode(), made.err());
        String[] oneByOne = {sweep.resolve("rate-0.001").toString(), sweep.resolve("rate-200").toString(),
                sweep.resolve("rate-500").toString()};
        for (String[] runs : new String[][] {{sweep.toString()}, oneByOne}) {
            String[] args = new String[runs.length + 2];
            args[0] = "fit";
            args[1] = "mm1";
            System.arraycopy(runs, 0, args, 2, runs.length);
            CliTestSupport.Result fit = CliTestSupport.run(args);
            assertEquals(0, fit.exitCode(), fit.err());
            List<String> lines = fit.out().lines().toList();
            assertEquals("note: run mm1-sweep/rate-0.001 measured no request (none outside warm-up): left out of the fit, not a point of it",
                    lines.get(0), fit.out());
            assertEquals(1, lines.stream().filter(l -> l.contains("rate-0.001")).count(), "named by the note only:\n" + fit.out());
            // the paper's fit, identified: its table has a row for each point, the two runs that measured requests
            assertTrue(fit.out().contains("\n  mm1-sweep/rate-200 ") && fit.out().contains("\n  mm1-sweep/rate-500 "), fit.out());
        }

        Path html = dir.resolve("one-by-one.html");
        String[] report = {"report", oneByOne[0], oneByOne[1], oneByOne[2], "--out", html.toString()};
        CliTestSupport.Result r = CliTestSupport.run(report);
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().startsWith("note: run " + oneByOne[0] + " measured no request (none outside warm-up): left out of the"
                + " report's fits, not a point of them (see its verdict)\n"), r.out());
        String page = Files.readString(html);
        int at = page.indexOf("Mean response time vs arrival rate: M/M/1</h2>");
        assertTrue(at > 0, "the report fits M/M/1");
        String fits = page.substring(at, page.indexOf("<h2", at + 1));
        assertTrue(fits.contains(">mm1-sweep/rate-200<") && fits.contains(">mm1-sweep/rate-500<"), "the two points");
        assertFalse(fits.contains("rate-0.001"), "the empty run is no point of the report's fits");
    }

    /** Before: the header error echoed the file's raw control bytes (a terminal escape here) and all 3,000 characters of it. */
    @Test
    void aBadCsvHeaderIsEscapedAndCutInTheError() throws IOException {
        Path csv = dir.resolve("bad.csv");
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        bytes.writeBytes("a\u0001\u0000b,\u001b[31mred".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        bytes.writeBytes(new byte[] {(byte) 0xff, (byte) 0xfe});
        bytes.writeBytes((",x" + "x".repeat(3000) + "\n1,2,3\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Files.write(csv, bytes.toByteArray());
        Path html = dir.resolve("r.html");
        String err = refused("report", csv.toString(), "--out", html.toString());
        assertTrue(err.contains("; got: a\\x01\\x00b,\\x1b[31mred\\ufffd\\ufffd,xxxx"), err);
        assertTrue(err.endsWith("... (3,017 characters in all)"), err);
        assertTrue(err.length() < 600, err.length() + " characters: " + err);
        assertFalse(err.chars().anyMatch(c -> c < 0x20 || c == 0x7f || c == 0xfffd), "a raw control character in: " + err);
        assertFalse(Files.exists(html));
    }

    /** Before: Jackson's "String value length (...) exceeds the maximum allowed (..., from `StreamReadConstraints...`)". */
    @Test
    void aCsvLineTooLongForTheParserNamesTheFileAndLine() throws IOException {
        Path oneLine = dir.resolve("one-line.csv");
        try (java.io.Writer w = Files.newBufferedWriter(oneLine)) {
            w.write("start,");
            char[] block = new char[1 << 20];
            java.util.Arrays.fill(block, 'x');
            for (int i = 0; i < 25; i++) {
                w.write(block);
            }
        }
        assertEquals("queuelab: " + oneLine + " line 1: a field longer than 20,000,000 characters: not a CSV request log",
                refused("report", oneLine.toString(), "--out", dir.resolve("a.html").toString()));
        Path laterLine = dir.resolve("later-line.csv");
        Files.writeString(laterLine, "start,end\n1,2\n3,\"" + "y".repeat(20_000_001) + "\"\n");
        assertEquals("queuelab: " + laterLine + " line 3: a field longer than 20,000,000 characters: not a CSV request log",
                refused("report", laterLine.toString(), "--out", dir.resolve("b.html").toString()));
    }

    /** Before: "Non-standard token 'NaN': enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow". */
    @Test
    void aNaNInAManifestNamesTheFileAndLineWithoutJacksonsAdvice() throws IOException {
        Path run = noopRun("nan");
        Path manifest = run.resolve("manifest.json");
        String text = Files.readString(manifest);
        int at = text.indexOf("\"rate\" : 200.0");
        long line = text.substring(0, at).lines().count();
        Files.writeString(manifest, text.substring(0, at) + "\"rate\" : NaN" + text.substring(at + "\"rate\" : 200.0".length()));
        assertEquals("queuelab: unreadable manifest " + manifest + " line " + line + ": NaN is not a number JSON allows"
                + " (a damaged or hand-edited manifest)", refused("summary", run.toString()));
    }

    /** Before: report --out and export --csv replaced an existing file silently. */
    @Test
    void anExistingReportOrCsvIsReplacedOnlyWithForce() throws IOException {
        Path run = noopRun("run");
        Path csv = Files.writeString(dir.resolve("mine.csv"), "keep me");
        Path html = Files.writeString(dir.resolve("mine.html"), "keep me too");
        assertEquals("queuelab: --csv " + csv + " already exists (choose a new one, or --force to replace it)",
                refused("export", run.toString(), "--csv", csv.toString()));
        assertEquals("queuelab: --out " + html + " already exists (choose a new one, or --force to replace it)",
                refused("report", run.toString(), "--out", html.toString()));
        assertEquals("keep me", Files.readString(csv));
        assertEquals("keep me too", Files.readString(html));
        assertEquals(0, CliTestSupport.run("export", run.toString(), "--csv", csv.toString(), "--force").exitCode());
        assertTrue(Files.readString(csv).startsWith("node,worker,operation,outcome"));
        assertEquals(0, CliTestSupport.run("report", run.toString(), "--out", html.toString(), "--force").exitCode());
        assertTrue(Files.readString(html).contains("<html"));
    }

    /** Issue 43. Before: report --force --out onto a symbolic link replaced the link and left its target as it was. */
    @Test
    void aReportOntoASymbolicLinkReplacesItsTargetAndKeepsTheLink() throws IOException {
        Path run = noopRun("run");
        Path real = Files.writeString(Files.createDirectory(dir.resolve("site")).resolve("index.html"), "old");
        Path link = Files.createSymbolicLink(dir.resolve("latest.html"), real);
        CliTestSupport.Result r = CliTestSupport.run("report", run.toString(), "--out", link.toString(), "--force");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(Files.isSymbolicLink(link), "the link is kept");
        assertTrue(Files.readString(real).contains("<html"), "its target is the report");
        Path directory = Files.createDirectory(dir.resolve("d.html"));
        assertEquals("queuelab: --out " + directory + " is a directory, not a file (give the path of a file)",
                refused("report", run.toString(), "--out", directory.toString(), "--force"));
    }

    /** Before: export --hlog replaced an existing .hlog silently, though --force claimed to guard it. */
    @Test
    void anExistingHlogIsReplacedOnlyWithForceAndTheRefusalWritesNothing() throws IOException {
        Path run = noopRun("run");
        Path out = Files.createDirectory(dir.resolve("h"));
        assertEquals(0, CliTestSupport.run("export", run.toString(), "--hlog", out.toString()).exitCode());
        List<Path> written;
        try (var files = Files.list(out)) {
            written = files.sorted().toList();
        }
        assertFalse(written.isEmpty());
        Path hlog = written.get(0);
        assertTrue(hlog.toString().endsWith(".hlog"), hlog.toString());
        Files.writeString(hlog, "keep me");
        Path csv = dir.resolve("new.csv");
        // refused before the CSV asked for beside it is written
        assertEquals("queuelab: .hlog file " + hlog + " already exists (choose a new one, or --force to replace it)",
                refused("export", run.toString(), "--csv", csv.toString(), "--hlog", out.toString()));
        assertEquals("keep me", Files.readString(hlog));
        assertFalse(Files.exists(csv));
        try (var files = Files.list(out)) {
            assertEquals(written, files.sorted().toList(), "no .tmp left, nothing added");
        }
        assertEquals(0, CliTestSupport.run("export", run.toString(), "--hlog", out.toString(), "--force").exitCode());
        assertTrue(Files.readString(hlog).startsWith("#[Histogram log format version"), Files.readString(hlog));
    }

    @Test
    void aStartInThePastAndADuplicateRateAreRefusedBeforeAnythingIsCreated() {
        Path out = dir.resolve("late");
        String err = refused("run", "--backend", "noop", "--rate", "10", "--duration", "1s", "--start-at", "2020-01-01T00:00:00Z",
                "--out", out.toString());
        assertTrue(err.startsWith("queuelab: --start-at 2020-01-01T00:00:00Z is in the past"), err);
        assertFalse(Files.exists(out));
        err = refused("sweep", "--backend", "noop", "--rates", "10,20,10", "--duration", "1s", "--out", out.toString());
        assertEquals("queuelab: rate 10.0 is given twice in --rates: each rate is one run", err);
        assertFalse(Files.exists(out));
    }

    @Test
    void aStartWhenReadyNeedsAReferenceThatNamesTheStart() throws Exception {
        Path out = dir.resolve("ready");
        String err = refused("run", "--backend", "noop", "--rate", "10", "--duration", "1s", "--start-at", "ready",
                "--out", out.toString());
        assertEquals("queuelab: --start-at ready needs --clock-reference: the reference names the instant", err);
        assertFalse(Files.exists(out));
        try (ClockReferenceServer plain = ClockReferenceServer.start(new InetSocketAddress("127.0.0.1", 0))) {
            CliTestSupport.Result r = CliTestSupport.run("run", "--backend", "noop", "--rate", "10", "--duration", "1s",
                    "--node-count", "2", "--clock-reference", "127.0.0.1:" + plain.port(), "--start-at", "ready",
                    "--report-interval", "0", "--out", out.toString());
            assertNotEquals(0, r.exitCode());
            assertTrue(r.err().strip().endsWith("queuelab: the clock reference at 127.0.0.1:" + plain.port() + " names no start "
                    + "instant (start it with 'queuelab clock-server --nodes 2')"), r.err());
        }
    }

    @Test
    void anUnwritableOutputSaysWhy() throws IOException {
        String err = refused("run", "--backend", "noop", "--rate", "10", "--duration", "1s", "--out", "/proc/x");
        assertEquals("queuelab: run directory /proc/x cannot be created: /proc is on a proc file system, which does not take "
                + "new files or directories", err);
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        err = refused("run", "--backend", "noop", "--rate", "10", "--duration", "1s", "--out", file.resolve("run").toString());
        assertEquals("queuelab: run directory " + file.resolve("run") + " cannot be created: " + file + " is a file, not a directory", err);
        err = refused("sweep", "--backend", "noop", "--rates", "10", "--duration", "1s", "--out", "/proc/x");
        assertTrue(err.endsWith("/proc is on a proc file system, which does not take new files or directories"), err);
        err = refused("simulate", "--model", "mm1", "--service", "exp:0.01", "--lambda", "50", "--duration", "10",
                "--out", file.resolve("sim").toString());
        assertEquals("queuelab: run directory " + file.resolve("sim") + " cannot be created: " + file + " is a file, not a directory", err);
        Path run = noopRun("run");
        err = refused("report", run.toString(), "--out", "/proc/x.html");
        assertEquals("queuelab: --out /proc/x.html cannot be created: /proc is on a proc file system, which does not take "
                + "new files or directories", err);
        err = refused("export", run.toString(), "--csv", "/proc/x.csv");
        assertEquals("queuelab: --csv /proc/x.csv cannot be created: /proc is on a proc file system, which does not take "
                + "new files or directories", err);
    }

    @Test
    void helpHasNoFormatWarningAndLoadDefaultsItsRelation() {
        CliTestSupport.Result help = CliTestSupport.run("summary", "--help");
        assertEquals(0, help.exitCode());
        assertEquals("", help.err(), "no picocli warning");
        assertTrue(help.out().contains("95 % intervals"), help.out());
        // validated before any server is started: the relation is no longer demanded
        String err = refused("load", "--tuples", "0");
        assertTrue(err.startsWith("queuelab: --tuples must be between 1 and"), err);
    }

    /** A real run of the no-op backend, made to look as a crash leaves it: manifest not complete, log not closed. */
    private Path crashedRun(Path run) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode m = (ObjectNode) json.readTree(run.resolve(Manifest.FILE_NAME).toFile());
        m.put("complete", false);
        m.remove(List.of("totals", "selfCheck"));
        ((ObjectNode) m.path("jvm")).remove("pid"); // written in this JVM, which lives on: as if its writer had died
        json.writeValue(run.resolve(Manifest.FILE_NAME).toFile(), m);
        try (FileChannel log = FileChannel.open(run.resolve(LogFormat.FILE_NAME), StandardOpenOption.WRITE)) {
            log.truncate(log.size() - LogFormat.CHUNK_OVERHEAD - Long.BYTES); // no end chunk
        }
        return run;
    }

    /** A sweep of 1 s noop runs at the rates, which must succeed. */
    private static CliTestSupport.Result noopSweep(Path sweep, String rates) {
        CliTestSupport.Result r = CliTestSupport.run("sweep", "--backend", "noop", "--rates", rates, "--duration", "1s",
                "--warmup", "0s", "--report-interval", "0", "--out", sweep.toString());
        assertEquals(0, r.exitCode(), r.err());
        return r;
    }

    private Path noopRun(String name) {
        Path run = dir.resolve(name);
        CliTestSupport.Result r = CliTestSupport.run("run", "--backend", "noop", "--rate", "200", "--duration", "1s",
                "--report-interval", "0", "--out", run.toString());
        assertEquals(0, r.exitCode(), r.err());
        return run;
    }

    /** {@code read-speed} reads every record of a run (the count is the run's own) and prints the rate. */
    @Test
    void readSpeedReadsEveryRecordOfARun() throws IOException {
        Path run = noopRun("speed");
        long scheduled = Manifest.read(run).totals().orElseThrow().scheduled();
        CliTestSupport.Result r = CliTestSupport.run("read-speed", run.toString());
        assertEquals(0, r.exitCode(), r.err());
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(\\d+) records, best of \\d+ passes: ([0-9.]+) million records/s")
                .matcher(r.out());
        assertTrue(m.find(), r.out());
        assertEquals(scheduled, Long.parseLong(m.group(1)), r.out());
        assertTrue(scheduled > 100 && Double.parseDouble(m.group(2)) > 0, r.out());
        refused("read-speed", dir.resolve("no-such-run").toString());
    }

    @Test
    void summaryExportAndReportSayFirstThatARunIsIncomplete() throws IOException {
        Path run = crashedRun(noopRun("crashed"));
        CliTestSupport.Result summary = CliTestSupport.run("summary", run.toString());
        assertEquals(0, summary.exitCode(), summary.err());
        assertTrue(summary.out().startsWith("WARNING: this run did not finish"), summary.out());
        assertTrue(summary.out().contains("WARNING: the log has no end mark after its"), summary.out());

        CliTestSupport.Result export = CliTestSupport.run("export", run.toString(), "--csv", dir.resolve("c.csv").toString());
        assertEquals(0, export.exitCode(), export.err());
        assertTrue(export.err().matches("(?s)WARNING: run .*crashed is incomplete: it crashed or was interrupted \\(its manifest is "
                + "not marked complete\\); on disk: \\d+ requests logged \\(\\d+ ok, 0 failed, 0 dropped, 0 unfinished\\)\n.*"), export.err());
        assertTrue(Files.size(dir.resolve("c.csv")) > 0);

        CliTestSupport.Result report = CliTestSupport.run("report", run.toString(), "--out", dir.resolve("r.html").toString());
        assertTrue(report.out().startsWith("WARNING: run " + run + " is incomplete"), report.out() + report.err());
    }

    @Test
    void aRunDirectoryOfAnotherManifestVersionIsAOneLineError() throws IOException {
        Path run = noopRun("future");
        ObjectMapper json = new ObjectMapper();
        ObjectNode m = (ObjectNode) json.readTree(run.resolve(Manifest.FILE_NAME).toFile());
        m.put("formatVersion", 999);
        json.writeValue(run.resolve(Manifest.FILE_NAME).toFile(), m);
        for (String command : List.of("summary", "merge")) {
            String err = command.equals("summary") ? refused("summary", run.toString())
                    : refused("merge", "--out", dir.resolve("merged").toString(), run.toString(), run.toString());
            assertTrue(err.contains("manifest format version 999; this queuelab reads versions 1 to " + Manifest.FORMAT_VERSION),
                    err);
        }
        assertFalse(Files.exists(dir.resolve("merged")));
    }

    @Test
    void aRunCutShortSaysSoFirst() throws IOException {
        Path run = noopRun("cut");
        // as LoadRun completes a run ended by Ctrl-C
        Manifest m = Manifest.read(run);
        RunEnd end = m.end().orElseThrow();
        m.end(new RunEnd(end.epochNanos(), null, null, null, null, "interrupted by SIGINT at 0.5 s of 1.0 s"));
        m.write(run);
        CliTestSupport.Result summary = CliTestSupport.run("summary", run.toString());
        assertTrue(summary.out().startsWith("WARNING: this run was cut short (interrupted by SIGINT at 0.5 s of 1.0 s); its log "
                + "and totals are complete up to there\n"), summary.out());
        CliTestSupport.Result export = CliTestSupport.run("export", run.toString(), "--csv", dir.resolve("cut.csv").toString());
        assertTrue(export.err().startsWith("WARNING: run " + run + " was cut short (interrupted by SIGINT at 0.5 s of 1.0 s); on disk: its "),
                export.err());
    }

    @Test
    void aKilledSweepIsSummarisedFromWhatIsOnDisk() throws IOException {
        Path sweep = dir.resolve("sweep");
        CliTestSupport.Result r = noopSweep(sweep, "50,100");
        // as a kill in the second run leaves it: sweep.json lists the first run only and is not complete
        ObjectMapper json = new ObjectMapper();
        ObjectNode manifest = (ObjectNode) json.readTree(sweep.resolve("sweep.json").toFile());
        manifest.put("complete", false);
        ((ArrayNode) manifest.path("runs")).remove(1);
        json.writeValue(sweep.resolve("sweep.json").toFile(), manifest);
        crashedRun(sweep.resolve("rate-100"));

        CliTestSupport.Result summary = CliTestSupport.run("summary", sweep.toString());
        assertEquals(0, summary.exitCode(), summary.err());
        String[] lines = summary.out().split("\n");
        assertEquals("WARNING: sweep " + sweep + " is incomplete: it was killed or failed before its end (sweep.json is not marked "
                + "complete); on disk: 1 finished run (rate-50) and 1 unfinished (rate-100)", lines[0]);
        assertEquals("sweep " + sweep + ": 2 runs on disk", lines[1]);
        assertTrue(summary.out().contains("== rate-50 ==") && summary.out().contains("== rate-100 =="), summary.out());
        assertTrue(summary.out().contains("WARNING: this run did not finish"), summary.out());
    }
}
