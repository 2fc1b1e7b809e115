package io.queuelab.cli;

import io.queuelab.core.manifest.Manifest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code queuelab simulate} end to end through Main.run: exit codes, output, one-line errors. */
class SimulateCommandTest {
    @TempDir
    Path tmp;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream savedOut;
    private PrintStream savedErr;

    @BeforeEach
    void capture() {
        savedOut = System.out;
        savedErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setOut(savedOut);
        System.setErr(savedErr);
    }

    private int run(String... args) {
        out.reset();
        err.reset();
        return Main.run(args);
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private static double meanMillis(String output) {
        Matcher m = Pattern.compile("mean\\s+([0-9.]+) ± ([0-9.e-]+)").matcher(output);
        assertTrue(m.find(), output);
        return Double.parseDouble(m.group(1));
    }

    @Test
    void mm1PrintsMeanAndPercentilesWithIntervals() {
        assertEquals(0, run("simulate", "--model", "mm1", "--service", "exp:0.01", "--lambda", "50",
                "--customers", "400000", "--replications", "4", "--seed", "3"), stderr());
        String o = stdout();
        // x / (1 - rho) = 10 ms / 0.5 = 20 ms
        assertEquals(20.0, meanMillis(o), 0.6, o);
        for (String p : new String[] {"p50", "p90", "p99", "p99.9"}) {
            assertTrue(Pattern.compile(p + "\\s+[0-9.]+ ± ").matcher(o).find(), p + " missing in\n" + o);
        }
        assertTrue(o.contains("throughput"), o);
    }

    @Test
    void dpbWritesACompleteSimulatedRunDirectoryThatATraceRunReplays() throws Exception {
        Path dir = tmp.resolve("dpb");
        assertEquals(0, run("simulate", "--model", "dpb", "--lambda", "25", "--duration", "600",
                "--replications", "2", "--out", dir.toString()), stderr());
        assertTrue(stdout().contains("flush period"), stdout());
        Manifest manifest = Manifest.read(dir);
        assertTrue(manifest.complete());
        assertEquals("simulated", manifest.kind());
        assertEquals(111, (int) manifest.model().orElseThrow().parameters().bufferPages());

        assertEquals(0, run("simulate", "--model", "dpb", "--trace", dir.toString(), "--replications", "2"), stderr());
        assertTrue(stdout().contains("trace workload"), stdout());
        assertEquals("", stderr());

        // the same trace on a server too slow for it: simulated, with a warning that it is overloaded
        assertEquals(0, run("simulate", "--model", "dpb", "--proc", "exp:0.05", "--trace", dir.toString(), "--replications", "2"));
        assertTrue(stderr().contains("utilization") && stderr().contains(">= 1"), stderr());
    }

    @Test
    void closedAndLoadDependentModelsRun() {
        assertEquals(0, run("simulate", "--model", "dpb", "--closed", "1", "--duration", "2000", "--replications", "2"), stderr());
        // E[T_nd] + E[T_proc] + E[T_dp] = 34.2 ms
        assertEquals(34.2, meanMillis(stdout()), 0.7, stdout());
        assertEquals(0, run("simulate", "--model", "mm1-ld", "--service", "0.01", "--p", "0.05", "--capacity", "40",
                "--lambda", "60", "--customers", "100000", "--replications", "2"), stderr());
        assertEquals(0, run("simulate", "--model", "mm1-ps", "--service", "det:0.01", "--closed", "3", "--think", "exp:0.02",
                "--duration", "100", "--replications", "1"), stderr());
        assertTrue(stdout().contains("no interval"), "one replication has no quantile interval: " + stdout());
    }

    /**
     * Every model kind of the simulator is a {@code --model}, client-slice included (its slice given
     * by {@code --slice}); an option the model does not take, or one it needs, is named.
     */
    @Test
    void everyModelKindRunsAndItsOptionsAreNamed() {
        assertEquals(0, run("simulate", "--model", "client-slice", "--service", "det:0.002", "--connections", "8", "--server-cores", "2",
                "--slice", "0.0005", "--lambda", "500", "--customers", "20000", "--replications", "2"), stderr());
        assertEquals(0, run("simulate", "--model", "client-ps", "--service", "det:0.002", "--connections", "8", "--server-cores", "2",
                "--lambda", "500", "--customers", "20000", "--replications", "2"), stderr());
        assertEquals(2, run("simulate", "--model", "mm1", "--service", "exp:0.01", "--p", "0.1", "--lambda", "1", "--duration", "10"));
        assertEquals("queuelab: --p does not apply to --model mm1 (it takes --service)", stderr().strip());
        assertEquals(2, run("simulate", "--model", "client-slice", "--service", "det:0.002", "--connections", "8", "--server-cores", "2",
                "--lambda", "500", "--customers", "20000"));
        assertTrue(stderr().startsWith("queuelab: --model client-slice needs --slice (it takes --service, --connections, --server-cores,"
                + " --slice"), stderr());
        // the scheduler's slice with a fixed part and requests that cut in; both refused where they cannot apply
        assertEquals(0, run("simulate", "--model", "client-slice", "--service", "det:0.002", "--connections", "8", "--server-cores", "2",
                "--slice", "0.0017", "--slice-fixed", "0.0017", "--cut-in", "0.1", "--closed", "8", "--customers", "20000",
                "--replications", "2"), stderr());
        assertEquals(2, run("simulate", "--model", "client-slice", "--service", "det:0.002", "--connections", "8", "--server-cores", "2",
                "--slice", "0.001", "--slice-fixed", "0.002", "--lambda", "500", "--customers", "20000"));
        assertEquals("queuelab: the slice's fixed part must be between 0 and the slice (0.001 s), got 0.002", stderr().strip());
        assertEquals(2, run("simulate", "--model", "client-ps", "--service", "det:0.002", "--connections", "8", "--server-cores", "2",
                "--cut-in", "0.1", "--lambda", "500", "--customers", "20000"));
        assertEquals("queuelab: --cut-in does not apply to --model client-ps (it takes --service, --connections, --server-cores)",
                stderr().strip());
        assertEquals(2, run("simulate", "--model", "mm2", "--lambda", "1", "--duration", "10"));
        assertEquals("queuelab: --model: unknown model 'mm2' (known: mm1, mm1-ps, mm1-ld, client-ps, client-slice, dpb, group-commit)",
                stderr().strip());
        // one job, nothing shared: cpu 0.1 ms + a flush of 0.3 ms + 0.02 ms for its commit
        assertEquals(0, run("simulate", "--model", "group-commit", "--service", "exp:0.0001", "--connections", "16", "--server-cores", "1",
                "--flush", "shexp:0.0002,0.0001", "--per-commit", "0.00002", "--closed", "1", "--customers", "100000", "--replications", "2"),
                stderr());
        assertEquals(0.42, meanMillis(stdout()), 0.01, stdout());
        assertEquals(2, run("simulate", "--model", "group-commit", "--service", "exp:0.0001", "--connections", "16", "--server-cores", "1",
                "--lambda", "500", "--customers", "20000"));
        assertTrue(stderr().startsWith("queuelab: --model group-commit needs --flush (it takes --service, --connections, --server-cores,"
                + " --flush, --per-commit, --max-group"), stderr());
    }

    @Test
    void badInputIsOneLineAndExitCodeTwo() {
        String[][] bad = {
                {"simulate", "--model", "mm1", "--service", "exp:0.01", "--lambda", "100", "--duration", "10"},
                {"simulate", "--model", "dpb", "--lambda", "40", "--duration", "10"},
                {"simulate", "--model", "mm2", "--lambda", "1", "--duration", "10"},
                {"simulate", "--model", "mm1", "--lambda", "1", "--duration", "10"},
                {"simulate", "--model", "mm1", "--service", "exp:-1", "--lambda", "1", "--duration", "10"},
                {"simulate", "--model", "mm1", "--service", "weibull:1", "--lambda", "1", "--duration", "10"},
                {"simulate", "--model", "mm1", "--service", "exp:0.01", "--lambda", "1", "--closed", "3", "--duration", "10"},
                {"simulate", "--model", "mm1", "--service", "exp:0.01", "--lambda", "1"},
                {"simulate", "--model", "mm1", "--service", "exp:0.01", "--lambda", "1", "--duration", "-5"},
                {"simulate", "--model", "mm1", "--service", "exp:0.01", "--lambda", "1", "--duration", "10", "--replications", "0"},
                {"simulate", "--model", "mm1", "--service", "exp:0.01", "--p", "0.1", "--lambda", "1", "--duration", "10"},
                {"simulate", "--model", "mm1-ld", "--service", "exp:0.01", "--p", "1.5", "--lambda", "1", "--duration", "10"},
                {"simulate", "--model", "dpb", "--dpb-max", "0", "--lambda", "1", "--duration", "10"},
                {"simulate", "--model", "dpb", "--trace", tmp.resolve("missing").toString()},
                {"simulate", "--model", "mm1", "--service", "exp:0.01", "--lambda", "1", "--duration", "10", "--confidence", "1.5"},
                {"simulate", "--model", "mm1-ld", "--service", "exp:0.01", "--p", "0.1", "--capacity", "0", "--lambda", "1", "--duration", "10"},
                {"simulate", "--model", "mm1", "--service", "exp:0.01", "--lambda", "0.0001", "--duration", "1"},
                {"simulate", "--model", "dpb", "--closed", "0", "--duration", "10"},
        };
        for (String[] args : bad) {
            assertEquals(2, run(args), String.join(" ", args));
            String e = stderr().strip();
            assertTrue(e.startsWith("queuelab: ") && !e.contains("\n"), String.join(" ", args) + " -> " + e);
        }
        run(bad[0]);
        assertTrue(stderr().contains("unstable"), stderr());
        run(bad[1]);
        assertTrue(stderr().contains("unstable"), stderr());
    }

    @Test
    void refusedRunLeavesNoRunDirectory() {
        Path dir = tmp.resolve("refused");
        assertEquals(2, run("simulate", "--model", "mm1", "--service", "exp:0.01", "--lambda", "150", "--duration", "10",
                "--out", dir.toString()));
        assertFalse(Files.exists(dir));
        Path taken = tmp.resolve("taken");
        assertEquals(0, run("simulate", "--model", "mm1", "--service", "exp:0.01", "--lambda", "10", "--duration", "10",
                "--out", taken.toString()), stderr());
        assertEquals(2, run("simulate", "--model", "mm1", "--service", "exp:0.01", "--lambda", "10", "--duration", "10",
                "--out", taken.toString()));
    }
}
