package io.queuelab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Absurd input, input that is refused before anything is created, unwritable paths, and what the
 * reading commands say first about runs and sweeps that did not finish (issue 13).
 */
@Timeout(120)
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
        assertTrue(err.contains("above the bound of 1,000,000/s"), err);
        assertFalse(Files.exists(out));
        err = refused("sweep", "--backend", "noop", "--rates", "100,1e9", "--duration", "1s", "--out", out.toString());
        assertTrue(err.contains("above the bound of 1,000,000/s"), err);
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
    void anUnwritableOutputSaysWhy() throws IOException {
        String err = refused("run", "--backend", "noop", "--rate", "10", "--duration", "1s", "--out", "/proc/x");
        assertEquals("queuelab: run directory /proc/x cannot be created: /proc is on a proc file system, which does not take "
                + "new files or directories", err);
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        err = refused("run", "--backend", "noop", "--rate", "10", "--duration", "1s", "--out", file.resolve("run").toString());
        assertEquals("queuelab: run directory " + file.resolve("run") + " cannot be created: " + file + " is a file, not a directory", err);
        err = refused("sweep", "--backend", "noop", "--rates", "10", "--duration", "1s", "--out", "/proc/x");
        assertTrue(err.endsWith("/proc is on a proc file system, which does not take new files or directories"), err);
        // an export target: the failure comes from the JDK with the path alone, the reason is looked up
        Path run = noopRun("run");
        err = refused("export", run.toString(), "--csv", "/proc/x.csv");
        assertTrue(err.startsWith("queuelab: /proc/x.csv.part: "), err);
        assertTrue(err.contains("proc file system"), err);
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

    private Path noopRun(String name) {
        Path run = dir.resolve(name);
        CliTestSupport.Result r = CliTestSupport.run("run", "--backend", "noop", "--rate", "200", "--duration", "1s",
                "--report-interval", "0", "--out", run.toString());
        assertEquals(0, r.exitCode(), r.err());
        return run;
    }
}
