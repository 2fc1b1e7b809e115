package io.queuelab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.log.RunDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ctrl-C and SIGTERM sent to a real {@code queuelab run} process: the run ends as at its planned
 * end (drain, every record, a complete manifest with the reason), and the exit code is the
 * signal's; a second Ctrl-C exits at once and leaves a readable log.
 */
class RunSignalsTest {
    @TempDir
    Path dir;

    private Process start(Path out, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("run", "--report-interval", "0", "--out", out.toString()));
        args.addAll(List.of(extra));
        return queuelab(args);
    }

    /** A real queuelab process, its console in console.txt. */
    private Process queuelab(List<String> args) throws Exception {
        // env resets the signals to their defaults: a test run under nohup (or a CI that ignores SIGHUP) would
        // otherwise hand the run an ignored SIGHUP, which the JVM then leaves ignored; env execs java (same pid)
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=HUP,INT,TERM",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(args);
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("console.txt").toFile()).start();
    }

    /** Waits until the run's schedule has been running for {@code seconds}. */
    private static void awaitRunning(Path out, double seconds) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            Path m = out.resolve("manifest.json");
            if (Files.exists(m) && new ObjectMapper().readTree(m.toFile()).path("start").has("scheduleStart")) {
                Thread.sleep((long) (seconds * 1000));
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the run never started");
    }

    private static void signal(Process p, String name) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", "-" + name, Long.toString(p.pid())).start().waitFor());
    }

    private void endsCleanly(String signal, int exitCode) throws Exception {
        Path out = dir.resolve("run");
        Process p = start(out, "--backend", "mm1", "--mu", "5000", "--rate", "1000", "--duration", "120s");
        try {
            awaitRunning(out, 1.5);
            signal(p, signal);
            assertTrue(p.waitFor(40, TimeUnit.SECONDS), "the run ended after the signal");
            String console = Files.readString(dir.resolve("console.txt"));
            assertEquals(exitCode, p.exitValue(), console);
            JsonNode m = new ObjectMapper().readTree(out.resolve("manifest.json").toFile());
            assertTrue(m.path("complete").asBoolean(), "manifest complete: " + m);
            assertTrue(m.path("end").path("stopReason").asText().startsWith("interrupted by SIG" + signal + " at "),
                    m.path("end").toString());
            JsonNode totals = m.path("totals");
            long logged = totals.path("ok").asLong() + totals.path("errors").asLong() + totals.path("dropped").asLong()
                    + totals.path("unfinished").asLong();
            assertEquals(totals.path("scheduled").asLong(), logged, totals.toString());
            assertTrue(logged > 500, "about 1000/s for the seconds before the signal: " + logged);
            long records = 0;
            try (RequestLogReader log = RunDirectory.open(out).openLog()) {
                while (log.next()) {
                    records++;
                }
                assertEquals(0, log.truncatedBytes(), "the log ends with a whole chunk");
            }
            assertEquals(logged, records);
            assertTrue(console.contains("verdict: "), console);
            assertTrue(console.lines().anyMatch(l -> l.startsWith("queuelab: ") && l.contains("complete up to the interruption")),
                    console);
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void ctrlCEndsTheRunWithEveryRecordAndACompleteManifest() throws Exception {
        endsCleanly("INT", 130);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void sigtermEndsTheRunWithEveryRecordAndACompleteManifest() throws Exception {
        endsCleanly("TERM", 143);
    }

    /** A closed terminal or a dropped ssh session: before, exit 129 with no totals and no end mark. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void sighupEndsTheRunWithEveryRecordAndACompleteManifest() throws Exception {
        endsCleanly("HUP", 129);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aSecondCtrlCExitsAtOnceLeavingAReadableLog() throws Exception {
        Path out = dir.resolve("run");
        // a server far too slow for the rate: the drain would take its whole 60 s timeout
        Process p = start(out, "--backend", "mm1", "--mu", "50", "--rate", "500", "--duration", "120s",
                "--drain-timeout", "60s");
        try {
            awaitRunning(out, 1.5);
            signal(p, "INT");
            Thread.sleep(1000);
            assertTrue(p.isAlive(), "still draining after the first Ctrl-C");
            long second = System.nanoTime();
            signal(p, "INT");
            assertTrue(p.waitFor(10, TimeUnit.SECONDS), "a second Ctrl-C exits at once");
            assertTrue(System.nanoTime() - second < 10e9);
            assertEquals(130, p.exitValue());
            JsonNode m = new ObjectMapper().readTree(out.resolve("manifest.json").toFile());
            assertFalse(m.path("complete").asBoolean(), "the manifest says the run did not complete");
            long records = 0;
            try (RequestLogReader log = RunDirectory.open(out).openLog()) {
                while (log.next()) {
                    records++;
                }
            }
            assertTrue(records > 0, "the records flushed before the exit are readable");
        } finally {
            p.destroyForcibly();
        }
    }

    /** summary of a run whose queuelab still runs: in progress, not "crashed or interrupted" (before). */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void summaryOfARunInProgressSaysSoRatherThanCrashed() throws Exception {
        Path out = dir.resolve("run");
        Process p = start(out, "--backend", "mm1", "--mu", "1000", "--rate", "100", "--duration", "60s");
        try {
            awaitRunning(out, 1.0);
            CliTestSupport.Result summary = CliTestSupport.run("summary", out.toString());
            // the whole result in the message: once in CI (loaded machine) this printed nothing on stdout
            assertTrue(summary.out().startsWith("WARNING: this run is still in progress (queuelab pid " + p.pid()
                    + " is writing it)"), "exit " + summary.exitCode() + ", stdout: " + summary.out() + ", stderr: " + summary.err());
            CliTestSupport.Result export = CliTestSupport.run("export", out.toString(), "--csv", dir.resolve("so-far.csv").toString());
            assertTrue(export.err().startsWith("WARNING: run " + out + " is still in progress (queuelab pid " + p.pid()
                    + " is writing it)"), export.err());
            assertFalse(export.err().contains("crash"), export.err());
            assertFalse(summary.out().contains("crash"), summary.out());
        } finally {
            p.destroyForcibly();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        }
        // killed: now it did not finish, and says so
        CliTestSupport.Result after = CliTestSupport.run("export", out.toString(), "--csv", dir.resolve("after.csv").toString());
        assertTrue(after.err().contains("is incomplete: it crashed or was interrupted"), after.err());
    }

    /** The running (not zombie) processes with the data directory of the embedded MariaDB in {@code embedded}. */
    private static List<ProcessHandle> servers(Path embedded) throws Exception {
        String argument = "--datadir=" + embedded.resolve("data").toFile().getCanonicalPath();
        return ProcessHandle.allProcesses()
                .filter(h -> h.info().arguments().map(a -> List.of(a).contains(argument) && !List.of(a).contains("queuelab-watchdog"))
                        .orElse(false))
                .toList();
    }

    /**
     * A signal while the embedded MariaDB is still starting (the seconds before it accepts
     * connections): SIGINT stops it before queuelab exits; SIGKILL leaves it to the watchdog, which
     * stops it within seconds. Before: the server ran on under pid 1 until a later command found it.
     */
    private void signalWhileTheServerStarts(String signal) throws Exception {
        Path embedded = dir.resolve("db");
        Process p = start(dir.resolve("run"), "--embedded-dir", embedded.toString(), "--rate", "10", "--duration", "5s");
        try {
            long deadline = System.nanoTime() + 90_000_000_000L;
            while (servers(embedded).isEmpty()) {
                assertTrue(p.isAlive(), Files.readString(dir.resolve("console.txt")));
                assertTrue(System.nanoTime() < deadline, "no server started");
                Thread.sleep(20);
            }
            Thread.sleep(300); // inside its start, before it accepts connections
            List<ProcessHandle> children = p.toHandle().descendants().toList();
            assertFalse(children.isEmpty(), "the server and its watchdog");
            signal(p, signal);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "queuelab ended after SIG" + signal);
            if (signal.equals("INT")) {
                // the signal came during the server's start, as the test means it to: the run's schedule never started
                Path manifest = dir.resolve("run").resolve("manifest.json");
                assertFalse(Files.exists(manifest) && new ObjectMapper().readTree(manifest.toFile()).path("start").has("scheduleStart"),
                        "the schedule had started: the signal came after the server's start");
                assertEquals(List.of(), servers(embedded), "the server is stopped before queuelab exits");
                assertNoChildLeft(children);
            } else {
                long until = System.nanoTime() + 40_000_000_000L; // the watchdog's SIGTERM, SIGKILL after its 30 s grace
                while (!servers(embedded).isEmpty() && System.nanoTime() < until) {
                    Thread.sleep(100);
                }
                assertEquals(List.of(), servers(embedded), "the watchdog stopped the orphan");
            }
        } finally {
            p.destroyForcibly();
            for (ProcessHandle h : servers(embedded)) {
                h.destroyForcibly();
            }
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void ctrlCWhileTheEmbeddedServerStartsLeavesNoServer() throws Exception {
        signalWhileTheServerStarts("INT");
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void sigkillWhileTheEmbeddedServerStartsLeavesNoOrphan() throws Exception {
        signalWhileTheServerStarts("KILL");
    }

    /**
     * Ctrl-C to a real {@code queuelab load} while its embedded MariaDB is still starting (its first
     * start: the data directory's install, then the server; the signal comes 300 ms after a process
     * on the data directory appears): exit 130 with one line saying the load was interrupted while
     * the server was starting, and no server or other child process of queuelab left. Before: exit
     * 130 with nothing on the console.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void ctrlCWhileTheServerOfALoadStartsSaysSoInOneLineAndLeavesNoServer() throws Exception {
        ctrlCWhileTheServerOfALoadStarts(dir.resolve("db"), 300);
    }

    /** The same in a data directory installed before, so the signal finds mariadbd itself starting (50 ms in). */
    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void ctrlCWhileTheInstalledServerOfALoadStartsSaysSoInOneLineAndLeavesNoServer() throws Exception {
        Path embedded = dir.resolve("db");
        Process first = queuelab(List.of("load", "--tuples", "10", "--embedded-dir", embedded.toString()));
        assertTrue(first.waitFor(120, TimeUnit.SECONDS) && first.exitValue() == 0, Files.readString(dir.resolve("console.txt")));
        ctrlCWhileTheServerOfALoadStarts(embedded, 50);
    }

    private void ctrlCWhileTheServerOfALoadStarts(Path embedded, long afterMillis) throws Exception {
        Process p = queuelab(List.of("load", "--tuples", "1000", "--embedded-dir", embedded.toString()));
        try {
            long deadline = System.nanoTime() + 90_000_000_000L;
            while (servers(embedded).isEmpty()) {
                assertTrue(p.isAlive(), Files.readString(dir.resolve("console.txt")));
                assertTrue(System.nanoTime() < deadline, "no server started");
                Thread.sleep(20);
            }
            Thread.sleep(afterMillis); // inside its start, before it accepts connections
            List<ProcessHandle> children = p.toHandle().descendants().toList();
            assertFalse(children.isEmpty(), "the server and its watchdog");
            signal(p, "INT");
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "queuelab ended after SIGINT");
            String console = Files.readString(dir.resolve("console.txt"));
            assertEquals(130, p.exitValue(), console);
            List<String> lines = console.strip().lines().toList();
            assertEquals(1, lines.size(), "one line: " + console);
            assertTrue(lines.get(0).matches("queuelab: load interrupted by SIGINT while the embedded server was starting "
                    + "\\(after [0-9.]+ s\\): nothing was loaded"), console);
            assertEquals(List.of(), servers(embedded), "the server is stopped before queuelab exits");
            assertNoChildLeft(children);
        } finally {
            p.destroyForcibly();
            for (ProcessHandle h : servers(embedded)) {
                h.destroyForcibly();
            }
        }
    }

    /**
     * SIGSTOP of a real run for 3 s: the verdict names the client's own stall (its start, length and
     * the requests it touched) instead of "kept up", and the log flags exactly those requests.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aStallOfQueuelabItselfIsNamedAndItsRequestsFlagged() throws Exception {
        Path out = dir.resolve("run");
        Process p = start(out, "--backend", "mm1", "--mu", "1000", "--rate", "500", "--duration", "8s");
        try {
            awaitRunning(out, 1.5);
            signal(p, "STOP");
            Thread.sleep(3000);
            signal(p, "CONT");
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the run ended");
            String console = Files.readString(dir.resolve("console.txt"));
            assertEquals(0, p.exitValue(), console);
            JsonNode check = new ObjectMapper().readTree(out.resolve("manifest.json").toFile()).path("selfCheck");
            JsonNode stall = null;
            long touchedByAll = 0;
            // a loaded machine may add a short stall of its own (the whole process waiting for a core)
            for (JsonNode s : check.path("clientStalls")) {
                touchedByAll += s.path("requests").asLong();
                stall = s.path("seconds").asDouble() > 1 ? s : stall;
            }
            assertTrue(stall != null, check.toString());
            assertTrue(stall.path("seconds").asDouble() > 2.9 && stall.path("seconds").asDouble() < 4, stall.toString());
            // when the test sends SIGSTOP (1.5 s after the start is seen, later on a loaded machine): within the run
            assertTrue(stall.path("startSeconds").asDouble() > 1.0 && stall.path("startSeconds").asDouble() < 8, stall.toString());
            long touched = stall.path("requests").asLong();
            assertTrue(touched > 1200, "about 500/s over the 3 s stall, and those in flight: " + touched);
            assertTrue(check.path("verdict").asText().contains("the client itself stalled (did not run at all) for 3."),
                    check.path("verdict").asText());
            assertTrue(console.contains("the client itself stalled"), console);
            long flagged = 0;
            try (RequestLogReader log = RunDirectory.open(out).openLog()) {
                while (log.next()) {
                    flagged += log.clientStall() ? 1 : 0;
                }
            }
            assertEquals(touchedByAll, flagged, "the log flags each request a stall touched");
        } finally {
            p.destroyForcibly();
        }
    }

    /**
     * kill -9 of a real run: nothing of the process runs after the signal, yet summary, export and
     * report of what it left succeed and say first that the run is incomplete, with what is on disk.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void summaryExportAndReportOfARunKilledWithSigkillSayItIsIncomplete() throws Exception {
        Path out = dir.resolve("killed");
        Process p = start(out, "--backend", "mm1", "--mu", "5000", "--rate", "1000", "--duration", "120s");
        try {
            awaitRunning(out, 1.5);
            signal(p, "KILL");
            assertTrue(p.waitFor(10, TimeUnit.SECONDS), "killed");
        } finally {
            p.destroyForcibly();
        }
        assertFalse(new ObjectMapper().readTree(out.resolve("manifest.json").toFile()).path("complete").asBoolean());
        CliTestSupport.Result summary = CliTestSupport.run("summary", out.toString());
        assertEquals(0, summary.exitCode(), summary.err());
        assertTrue(summary.out().startsWith("WARNING: this run did not finish"), summary.out());
        CliTestSupport.Result export = CliTestSupport.run("export", out.toString(), "--csv", dir.resolve("killed.csv").toString());
        assertEquals(0, export.exitCode(), export.err());
        assertTrue(export.err().startsWith("WARNING: run " + out + " is incomplete: it crashed or was interrupted"), export.err());
        java.util.regex.Matcher onDisk = java.util.regex.Pattern.compile("on disk: (\\d+) requests logged").matcher(export.err());
        assertTrue(onDisk.find(), export.err());
        long requests = Long.parseLong(onDisk.group(1));
        assertTrue(requests > 500, "about 1000/s for 1.5 s, the whole chunks written before the kill: " + requests);
        assertEquals(requests + 1, Files.readAllLines(dir.resolve("killed.csv")).size(), "one CSV row a request on disk, and the header");
        CliTestSupport.Result report = CliTestSupport.run("report", out.toString(), "--out", dir.resolve("killed.html").toString());
        assertEquals(0, report.exitCode(), report.err());
        assertTrue(report.out().startsWith("WARNING: run " + out + " is incomplete"), report.out());
        assertTrue(Files.readString(dir.resolve("killed.html")).contains("<svg"), "the report has its charts");
    }

    /**
     * Ctrl-C to a real {@code queuelab load} while it fills the relation on its embedded MariaDB.
     * Before: the JVM's own handling stopped the server under the load, which ended with
     * "Communications link failure The last packet successfully received from the server was ...".
     */
    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void ctrlCDuringALoadEndsWithOneLineSayingWhatWasLoaded() throws Exception {
        Path embedded = dir.resolve("db");
        Path scratch = embedded.resolve("data").resolve("queuelab").resolve("wisc__loading.ibd");
        interruptWhileFilling(List.of("load", "--tuples", "10000000", "--embedded-dir", embedded.toString()), embedded, scratch,
                40_000_000, "queuelab: load interrupted by SIGINT after [0-9.]+ s: ([0-9,]+) of 10,000,000 tuples had been sent "
                        + "into the scratch table wisc__loading, which is dropped; nothing was loaded: the table wisc is as it was "
                        + "before the load", 10_000_000);
        assertFalse(Files.exists(scratch.resolveSibling("wisc.ibd")), "no relation under its name");
    }

    /** The same for seed 000's data set ({@code --relation qos}), whose tables fill by INSERTs. */
    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void ctrlCDuringAQosLoadEndsWithOneLineSayingWhatWasLoaded() throws Exception {
        Path embedded = dir.resolve("db");
        Path scratch = embedded.resolve("data").resolve("queuelab").resolve("qos1__loading_results.ibd");
        interruptWhileFilling(List.of("load", "--relation", "qos", "--schema", "1", "--scale", "1", "--embedded-dir",
                embedded.toString()), embedded, scratch, 20_000_000, "queuelab: load interrupted by SIGINT after [0-9.]+ s: "
                + "schema 1: ([0-9,]+) of 2,032,000 result rows had been sent into its scratch tables \\(qos1__loading_\\*\\), "
                + "which are dropped; nothing of it was loaded: its tables are as they were before the load", 2_032_000);
        assertFalse(Files.exists(scratch.resolveSibling("qos1_results.ibd")), "no table under its name");
    }

    /**
     * Starts the load, sends SIGINT once {@code scratch} holds {@code bytes}, and checks what every
     * interrupted load leaves: exit 130, the scratch table dropped, no server, no stack trace and no
     * "Communications link failure", and a last line matching {@code lastLine}, whose first group
     * counts what was sent: more than nothing, less than {@code total}.
     */
    private void interruptWhileFilling(List<String> load, Path embedded, Path scratch, long bytes, String lastLine, long total)
            throws Exception {
        Process p = queuelab(load);
        try {
            long deadline = System.nanoTime() + 150_000_000_000L;
            while (!(Files.exists(scratch) && Files.size(scratch) > bytes) && System.nanoTime() < deadline) {
                assertTrue(p.isAlive(), Files.readString(dir.resolve("console.txt")));
                Thread.sleep(100);
            }
            assertTrue(Files.exists(scratch) && Files.size(scratch) > bytes, "the load is filling its scratch table");
            signal(p, "INT");
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the load ended after the signal");
            String console = Files.readString(dir.resolve("console.txt"));
            assertEquals(130, p.exitValue(), console);
            assertFalse(console.contains("Communications link failure"), console);
            assertFalse(console.contains("Exception"), console);
            assertFalse(Files.exists(scratch), "the scratch table is dropped");
            assertEquals(List.of(), servers(embedded), "the embedded server is stopped before queuelab exits");
            List<String> lines = console.lines().toList();
            java.util.regex.Matcher last = java.util.regex.Pattern.compile(lastLine).matcher(lines.get(lines.size() - 1));
            assertTrue(last.matches(), console);
            long sent = Long.parseLong(last.group(1).replace(",", ""));
            assertTrue(sent > 0 && sent < total, console);
        } finally {
            p.destroyForcibly();
        }
    }

    /** None of {@code children} (queuelab's child processes) alive within 10 s: the watchdog sees the pipe close and exits. */
    private static void assertNoChildLeft(List<ProcessHandle> children) throws InterruptedException {
        long until = System.nanoTime() + 10_000_000_000L;
        while (children.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < until) {
            Thread.sleep(50);
        }
        assertEquals(List.of(), children.stream().filter(ProcessHandle::isAlive).map(ProcessHandle::pid).toList(),
                "no child process of queuelab left");
    }
}
