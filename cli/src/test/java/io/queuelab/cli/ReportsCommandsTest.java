package io.queuelab.cli;

import io.queuelab.core.testing.TimingSensitive;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code queuelab fit}, {@code compare} and {@code report} end to end on runs written by {@code queuelab simulate}. */
@TimingSensitive
class ReportsCommandsTest {
    @TempDir
    Path tmp;

    private CliTestSupport.Result last;

    private int run(String... args) {
        last = CliTestSupport.run(args);
        return last.exitCode();
    }

    private String stdout() {
        return last.out();
    }

    private String stderr() {
        return last.err();
    }

    private Path simulate(String name, String... workload) {
        Path dir = tmp.resolve(name);
        String[] args = {"simulate", "--model", "mm1", "--service", "exp:0.01", "--replications", "1", "--seed", name.length() + "",
                "--out", dir.toString()};
        String[] all = new String[args.length + workload.length];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(workload, 0, all, args.length, workload.length);
        assertEquals(0, run(all), stderr());
        return dir;
    }

    /**
     * Runs of different backends are never fitted together: {@code fit mm1} refuses them as validate
     * does, and a report shows them side by side, unfitted (before: rc 0 and an M/M/1 "identified" at
     * l = -1.388 ms with a negative fitted mean).
     */
    @Test
    void runsOfDifferentBackendsAreShownSideBySideNeverFittedTogether() throws java.io.IOException {
        java.util.List<String> runs = new java.util.ArrayList<>();
        for (String[] r : new String[][] {{"noop", "200"}, {"noop", "400"}, {"mm1", "300"}, {"mm1", "600"}}) {
            Path dir = tmp.resolve("mixed-" + r[0] + "-" + r[1]);
            assertEquals(0, run("run", "--backend", r[0], "--mu", "1000", "--rate", r[1], "--duration", "1500ms", "--warmup", "300ms",
                    "--report-interval", "0", "--out", dir.toString()), stderr());
            runs.add(dir.toString());
        }
        java.util.List<String> fit = new java.util.ArrayList<>(java.util.List.of("fit", "mm1"));
        fit.addAll(runs);
        CliTestSupport.assertEachIsRefused(new String[][] {fit.toArray(String[]::new)});
        assertTrue(CliTestSupport.run(fit.toArray(String[]::new)).err().contains("runs of different workloads or servers mixed"));
        Path html = tmp.resolve("mixed.html");
        java.util.List<String> report = new java.util.ArrayList<>(java.util.List.of("report", "--out", html.toString()));
        report.addAll(runs);
        assertEquals(0, run(report.toArray(String[]::new)), stderr());
        String page = Files.readString(html);
        assertTrue(page.contains("Not fitted: runs of different workloads or servers mixed"), "the M/M/1 section");
        assertTrue(page.contains("No held-out validation: runs of different workloads or servers mixed"), "the held-out section");
        assertFalse(page.contains("identified ("), "no fit is identified");
    }

    /** {@code fit mm1 --load-dependent --latency 0} on a sweep of a simulated load-dependent server recovers p and x. */
    @Test
    void fitMm1LoadDependentRecoversPFromASimulatedSweep() {
        Path sweep = tmp.resolve("ld");
        for (String rate : new String[] {"5", "15", "25", "35", "45"}) {
            assertEquals(0, run("simulate", "--model", "mm1-ld", "--service", "exp:0.01", "--p", "0.02", "--capacity", "1000",
                    "--lambda", rate, "--customers", "200000", "--replications", "1", "--seed", rate,
                    "--out", sweep.resolve("rate-" + rate).toString()), stderr());
        }
        assertEquals(0, run("fit", "mm1", "--load-dependent", "--latency", "0", sweep.toString()), stderr());
        String o = stdout();
        String loadDependent = o.substring(o.indexOf("load-dependent M/M/1"));
        assertEquals(0.02, parameter(loadDependent, "p"), 0.25 * 0.02, o);
        assertEquals(0.01, parameter(loadDependent, "x"), 0.05 * 0.01, o);
    }

    /** {@code fit dpb} on the three runs seed 004's method needs, simulated from Table 1, prints Table 1 back. */
    @Test
    void fitDpbPrintsTable1OfSimulatedTable1Runs() {
        Path open = tmp.resolve("dpb-open");
        Path closed = tmp.resolve("dpb-closed");
        Path single = tmp.resolve("dpb-single");
        assertEquals(0, run("simulate", "--model", "dpb", "--lambda", "25", "--duration", "3600", "--keep-warmup",
                "--replications", "1", "--seed", "11", "--out", open.toString()), stderr());
        assertEquals(0, run("simulate", "--model", "dpb", "--closed", "50", "--duration", "3600", "--keep-warmup",
                "--replications", "1", "--seed", "12", "--out", closed.toString()), stderr());
        assertEquals(0, run("simulate", "--model", "dpb", "--closed", "1", "--customers", "20000", "--keep-warmup",
                "--replications", "1", "--seed", "13", "--out", single.toString()), stderr());
        Path heldOut = tmp.resolve("dpb-held-out");
        assertEquals(0, run("simulate", "--model", "dpb", "--lambda", "10", "--duration", "900", "--keep-warmup",
                "--replications", "1", "--seed", "14", "--out", heldOut.toString()), stderr());
        assertEquals(0, run("fit", "dpb", "--open", open.toString(), "--closed", closed.toString(), "--single",
                single.toString(), "--held-out", heldOut.toString()), stderr());
        String o = stdout();
        // a held-out run that is not there: one line, and no fit printed before it
        assertEquals(2, run("fit", "dpb", "--open", open.toString(), "--closed", closed.toString(), "--single",
                single.toString(), "--held-out", tmp.resolve("no-such-run").toString()));
        assertTrue(stdout().isEmpty() && stderr().trim().lines().count() == 1, stdout() + stderr());
        // a run at a rate the fit did not take, predicted from its rate
        assertTrue(o.contains("  predicts: response-time CDF within simulation noise at 1 of 1 held-out runs"), o);
        assertTrue(Pattern.compile("(?m)^  dpb-held-out\\s+(9\\.9|10\\.)").matcher(o).find(), o);
        Matcher dpb = Pattern.compile("DPB_max\\s+(\\d+)").matcher(o);
        assertTrue(dpb.find(), o);
        assertEquals(111, Integer.parseInt(dpb.group(1)), 11.1, o);
        // Table 1's T_proc is exponential: the normal period's shape is near enough to keep the paper's form
        Matcher proc = Pattern.compile("T_proc\\s+Exp\\(([0-9.]+) ms\\)").matcher(o);
        assertTrue(proc.find(), o);
        assertEquals(26.9, Double.parseDouble(proc.group(1)), 2.69, o);
        Matcher dp = Pattern.compile("T_dp\\s+Exp\\(([0-9.]+) ms\\)").matcher(o);
        assertTrue(dp.find(), o);
        assertEquals(4.33, Double.parseDouble(dp.group(1)), 0.433, o);
        // the fitted model explains the open run it came from: its CDF within simulation noise
        assertTrue(o.contains("  fits (response-time CDF within simulation noise at 1 of 1 runs)"), o);

        // --refine N from the command line (issue 42 item 4): the paper-method fit, then the simulation's refinement of
        // it within N evaluations, starting at the fit and never ending farther from the open run than it started
        assertEquals(0, run("fit", "dpb", "--open", open.toString(), "--closed", closed.toString(), "--single",
                single.toString(), "--refine", "8"), stderr());
        String refined = stdout();
        assertTrue(refined.contains(o.substring(o.indexOf("  T_proc"), o.indexOf("from:"))), "the paper-method fit first:\n" + refined);
        Matcher table = Pattern.compile("Refined by simulation \\(min Wasserstein-1, Nelder-Mead, common random numbers, (\\d+) evaluations\\)\n"
                + "  E\\[T_proc\\] ([0-9.e-]+) s \\([^)]*\\)\n  DPB_max   (\\d+)\n  T_dp      Exp\\(([0-9.e-]+)\\)\n"
                + "  W1 ([0-9.e-]+) s -> ([0-9.e-]+) s\n").matcher(refined);
        assertTrue(table.find(), refined);
        int evaluations = Integer.parseInt(table.group(1));
        assertTrue(evaluations >= 4 && evaluations <= 8, "a simplex of 3 parameters needs 4, --refine allows 8: " + refined);
        assertTrue(Double.parseDouble(table.group(6)) <= Double.parseDouble(table.group(5)), "W1 never grows: " + refined);
        assertEquals(111, Integer.parseInt(table.group(3)), 22.2, "refined DPB_max near Table 1's: " + refined);
        assertEquals(0.0269, Double.parseDouble(table.group(2)), 0.0054, "refined E[T_proc] near Table 1's: " + refined);
        assertEquals(2, run("fit", "dpb", "--open", open.toString(), "--closed", closed.toString(), "--single",
                single.toString(), "--refine", "1"));
        assertEquals("queuelab: --refine needs at least 2 evaluations, got 1", stderr().strip());
    }

    /** A fitted parameter's value from a fit's table ("  name   value  +- error unit"). */
    private static double parameter(String table, String name) {
        Matcher m = Pattern.compile("(?m)^  " + Pattern.quote(name) + "\\s+([-0-9.eE+]+)\\s+\\+-").matcher(table);
        assertTrue(m.find(), name + " in " + table);
        return Double.parseDouble(m.group(1));
    }

    @Test
    void fitMm1OnASimulatedSweepPrintsBothFitsNearTheTruth() {
        Path sweep = tmp.resolve("sweep");
        for (String rate : new String[] {"2", "30", "50", "70"}) {
            simulate("sweep/rate-" + rate, "--lambda", rate, "--customers", "300000");
        }
        assertEquals(0, run("fit", "mm1", sweep.toString()), stderr());
        String o = stdout();
        assertTrue(o.contains("paper") && o.contains("joint"), o);
        Matcher mu = Pattern.compile("mu\\s+([0-9.]+)").matcher(o);
        int found = 0;
        while (mu.find()) {
            assertEquals(100, Double.parseDouble(mu.group(1)), 5, o);
            found++;
        }
        assertEquals(2, found, o);
    }

    @Test
    void compareAndReportOnSimulatedRuns() throws Exception {
        Path measured = simulate("measured", "--lambda", "60", "--customers", "20000");
        Path simulated = simulate("simulated-long", "--lambda", "60", "--customers", "400000");
        assertEquals(0, run("compare", measured.toString(), simulated.toString()), stderr());
        String o = stdout();
        for (String metric : new String[] {"p50", "p90", "p95", "p99", "p99.9", "KS D", "Wasserstein-1", "Little's law"}) {
            assertTrue(o.contains(metric), metric + " missing:\n" + o);
        }
        // Each row's yardstick is the 95th percentile of its distance between independent simulated
        // replications, and the two runs are the same model: every row is within it (with these seeds;
        // one row in twenty beyond it would be chance, so the other direction is tested too, below).
        assertEquals(7, o.lines().filter(l -> l.endsWith("within simulation noise")).count(), o);
        assertTrue(o.contains("replications of 20000 requests by model-sim"), o);
        assertTrue(o.contains(", 0 inconsistent"), "Little's law holds on a simulated run:\n" + o);
        // a model whose service is 5 % slower (10.5 ms, so the mean response is 14 % longer): at this
        // sample size the median, p90 and the whole-distribution distances are 2-4 yardsticks off (the
        // far tail's yardstick is wider than the shift)
        Path slower = tmp.resolve("slower");
        assertEquals(0, run("simulate", "--model", "mm1", "--service", "exp:0.0105", "--replications", "1", "--seed", "5",
                "--out", slower.toString(), "--lambda", "60", "--customers", "400000"), stderr());
        assertEquals(0, run("compare", measured.toString(), slower.toString()), stderr());
        String beyond = stdout();
        for (String metric : new String[] {"p50", "p90", "KS D", "Wasserstein-1"}) {
            assertTrue(beyond.lines().anyMatch(l -> l.strip().startsWith(metric + " ") && l.endsWith("beyond it")),
                    metric + " beyond the noise of a model 5 % slower:\n" + beyond);
        }

        // trace-driven: the model simulated on the measured run's own arrival instants
        Path trace = tmp.resolve("trace");
        assertEquals(0, run("simulate", "--model", "mm1", "--service", "exp:0.01", "--trace", measured.toString(),
                "--replications", "1", "--out", trace.toString()), stderr());
        assertEquals(0, run("compare", measured.toString(), trace.toString()), stderr());
        assertTrue(stdout().contains("by model-sim") && stdout().contains("(mm1, open)"), stdout());

        Path html = tmp.resolve("report.html");
        assertEquals(0, run("report", measured.toString(), simulated.toString(), "--out", html.toString()), stderr());
        assertEquals(html.toString(), stdout().trim());
        assertTrue(Files.readString(html).contains("<svg"));
    }

    @Test
    void measuredSweepsOfTheInProcessMm1ServerAreFittedAndReported() throws java.io.IOException {
        Path open = tmp.resolve("open-sweep");
        // PaperFitSpreadTest's design at twice its speed: mu 400/s, rates 40, 160 and 280/s for 0.5 s of warm-up and
        // 8 s measured. The estimator's spread depends on the loads (rho 0.1, 0.4, 0.7) and the request counts (320,
        // 1,280, 2,240), which time scaling leaves as they were, so the bounds below are its bounds times 2; the
        // server's service times (mean 2.5 ms) are exact to a few us (it spins the last stretch of each). At four
        // times (mean 1.25 ms) the generator's own time per request moved the estimate up by 3-5 % (826-863 in five
        // sweeps on a busy machine, 816 expected), too near the bound
        assertEquals(0, run("sweep", "--backend", "mm1", "--mu", "400", "--rates", "40,160,280", "--duration", "8s",
                "--warmup", "500ms", "--out", open.toString()), stderr());
        Path closed = tmp.resolve("closed-sweep");
        assertEquals(0, run("sweep", "--backend", "mm1", "--mu", "400", "--closed", "1,4", "--duration", "1500ms",
                "--warmup", "500ms", "--out", closed.toString()), stderr());
        assertEquals(0, run("fit", "mm1", open.toString()), stderr());
        String o = stdout();
        Matcher mu = Pattern.compile("mu\\s+([0-9.]+)\\s+\\+- ([0-9.e-]+)").matcher(o);
        assertTrue(mu.find(), o);
        double value = Double.parseDouble(mu.group(1));
        double error = Double.parseDouble(mu.group(2));
        // The first mu is the paper fit's (seed 001, section 6.1): R0 = the mean response of the lowest
        // rate, l by least squares with x = R0 - l, mu = 1/x. Its printed standard error is
        // mu^2 * se(l), se(l) = sqrt(SSR / (n - 1) / sum d_i^2), d_i = 1 - 1/(1 - lambda_i x)^2: the
        // least-squares error of l with R0 held exact (Mm1Fits.paper). It leaves out R0's own noise
        // and rests on 2 degrees of freedom, so it is no yardstick for the truth: "within 3 of them"
        // (this test before, on 4 s runs) held in 57 % of simulated sweeps, and 64 % with 16 s runs.
        // The bound is instead the paper estimator's own spread over sweeps of this design, simulated
        // apart from queuelab in PaperFitSpreadTest (M/M/1 at mu = 200/s by Lindley's recursion,
        // Poisson arrivals at 20, 80 and 140/s for 1 s of warm-up and 16 s measured: 320, 1,280 and
        // 2,240 requests, l of 0.6 or 1.2 ms, fitted by Mm1Fits.paper; 1,000 sweeps): mean 204 (R0 is
        // read at rho 0.1, not at no load), sd 7.7 (under 4 %), 0.5 % and 99.5 % quantiles 186 and
        // 227. Hence 180-230, here x 2 = 360-460: a correct fit falls outside it in 0.2 % of sweeps, and
        // a mu 20 % off (the fit's mu scaled by 1.2) falls inside only when the estimate is below
        // 460 / 1.2 = 383, in about 5 % of sweeps. With a quarter of the requests the spread is 7.3 %
        // (99 % range 177-255 x 2): too wide to tell a 20 % error apart, hence the counts kept.
        System.out.println("ReportsCommandsTest: the paper fit's mu " + value + " +- " + error + " (the server's: 400/s)");
        assertTrue(error > 0 && error < 0.25 * 400, "a standard error, below a quarter of mu: " + error + ":\n" + o);
        assertTrue(value >= 360 && value <= 460, "the paper fit's mu " + value + " against the server's 400/s:\n" + o);
        assertTrue(o.contains("rate-280") && o.contains("residual"), o);

        Path html = tmp.resolve("measured.html");
        assertEquals(0, run("report", open.toString(), closed.toString(), "--out", html.toString()), stderr());
        String report = Files.readString(html);
        assertTrue(report.contains("id=\"n-t\"") && report.contains("id=\"mean-response-vs-rate\""), "charts");
        assertTrue(report.contains("closed N=4"), "runs table");
        assertTrue(report.contains("lag p99 (us)") && report.contains(">verdict<") && report.contains("the generator"),
                "self-check of measured runs");
    }

    /** A CSV request log of "another tool" whose mean response falls with the rate (warm-up, not queueing). */
    private Path fallingCsvLog(double rate, double meanResponse) throws java.io.IOException {
        Path csv = tmp.resolve("falling-" + (int) rate + ".csv");
        StringBuilder s = new StringBuilder("start_ms,elapsed_us,outcome\n");
        java.util.Random random = new java.util.Random((long) rate);
        for (int i = 0; i < rate * 30; i++) {
            s.append(String.format(java.util.Locale.ROOT, "%.3f,%.1f,ok%n", 1000 * i / rate,
                    1e6 * meanResponse * -Math.log(1 - random.nextDouble())));
        }
        Files.writeString(csv, s);
        return csv;
    }

    @Test
    void fitMm1OnAFallingSweepSaysNotIdentifiedInsteadOfNumbers() throws java.io.IOException {
        Path a = fallingCsvLog(200, 0.00037), b = fallingCsvLog(500, 0.00029), c = fallingCsvLog(1000, 0.00020);
        assertEquals(0, run("fit", "mm1", a.toString(), b.toString(), c.toString()), stderr());
        String o = stdout();
        assertTrue(o.contains("not identified: the measured mean response falls as the rate rises"), o);
        assertFalse(Pattern.compile("(?m)^\\s+(mu|x|l)\\s+[-0-9]").matcher(o).find(), "no fitted values:\n" + o);

        Path html = tmp.resolve("falling.html");
        assertEquals(0, run("report", a.toString(), b.toString(), c.toString(), "--out", html.toString()), stderr());
        String report = Files.readString(html);
        assertTrue(report.contains("not identified: the measured mean response falls"), "report says so");
        assertFalse(report.contains("<td>mu</td>"), "no parameter table for an unidentified fit");
    }

    /** Before: {@code fit mm1 RUN RUN} printed an "identified" fit with mu = 3.5e10/s. */
    @Test
    void fitMm1RefusesARunGivenTwiceAndRunsAtOneRate() throws java.io.IOException {
        Path a = fallingCsvLog(200, 0.00037);
        CliTestSupport.assertEachIsRefused(new String[][] {{"fit", "mm1", a.toString(), a.toString()}});
        assertEquals("queuelab: run " + a + " is given twice: each run is one point of the fit",
                CliTestSupport.run("fit", "mm1", a.toString(), a.toString()).err().strip());
        Path copy = tmp.resolve("copy-of-200.csv");
        Files.copy(a, copy);
        CliTestSupport.assertEachIsRefused(new String[][] {{"fit", "mm1", a.toString(), copy.toString()}});
        String err = CliTestSupport.run("fit", "mm1", a.toString(), copy.toString()).err().strip();
        assertTrue(err.matches("queuelab: the 2 runs are at one arrival rate \\([0-9.]+-[0-9.]+/s\\): an M/M/1 fit needs open runs "
                + "at 2 or more arrival rates"), err);
    }

    @Test
    void reportOfARateSweepOfCsvLogsComparesThemWithTheFittedModel() throws java.io.IOException {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("report"));
        for (String rate : new String[] {"10", "40", "60", "80"}) {
            Path run = simulate("csv-sweep/rate-" + rate, "--lambda", rate, "--customers", "40000");
            Path csv = tmp.resolve("rate-" + rate + ".csv");
            assertEquals(0, run("export", run.toString(), "--csv", csv.toString()), stderr());
            args.add(csv.toString());
        }
        Path html = tmp.resolve("csv-sweep.html");
        args.addAll(java.util.List.of("--out", html.toString()));
        assertEquals(0, run(args.toArray(String[]::new)), stderr());
        String report = Files.readString(html);
        assertTrue(report.contains("id=\"cdf-model-rate-80"), "the CSV runs compared with the fitted model");
        assertTrue(report.contains("vs fitted modified M/M/1"), "comparison caption");
    }

    @Test
    void fitDpbTakesTheMinimumPauseGivenAndSaysWhatTheTelemetryShows() {
        String[] table1 = {"simulate", "--model", "dpb", "--replications", "1", "--duration", "1200"};
        Path open = tmp.resolve("open-25"), closed = tmp.resolve("closed-50"), single = tmp.resolve("closed-1");
        assertEquals(0, run(concat(table1, "--lambda", "25", "--seed", "3", "--out", open.toString())), stderr());
        assertEquals(0, run(concat(table1, "--closed", "50", "--seed", "4", "--out", closed.toString())), stderr());
        assertEquals(0, run(concat(table1, "--closed", "1", "--seed", "5", "--out", single.toString())), stderr());
        String[] fit = {"fit", "dpb", "--open", open.toString(), "--closed", closed.toString(), "--single", single.toString()};
        assertEquals(0, run(concat(fit, "--min-pause", "0.2")), stderr());
        assertTrue(stdout().contains("min(T_pause), closed run                     200.0 ms"), stdout());
        assertTrue(stdout().contains("min(T_pause), open run                       200.0 ms"), stdout());
        // Table 1's flushes last ~0.48 s: DPB_max 111 is found with the threshold given
        Matcher pages = Pattern.compile("DPB_max\\s+(\\d+)").matcher(stdout());
        assertTrue(pages.find(), stdout());
        assertEquals(111, Integer.parseInt(pages.group(1)), 111 * 0.1, stdout());
        assertTrue(stdout().contains("pauses of closed-50: no server telemetry"), stdout());
        assertEquals(2, run(concat(fit, "--min-pause", "-1")));
        assertTrue(stderr().startsWith("queuelab: min(T_pause) must be a positive number") && stderr().trim().lines().count() == 1, stderr());
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    @Test
    void badInputIsOneLineAndExitCode2() throws java.io.IOException {
        Path missing = tmp.resolve("missing");
        assertEquals(2, run("fit", "mm1", missing.toString()));
        assertTrue(stderr().startsWith("queuelab: ") && stderr().trim().lines().count() == 1, stderr());
        Path one = simulate("one", "--lambda", "10", "--customers", "1000");
        assertEquals(2, run("fit", "mm1", one.toString()));
        assertTrue(stderr().contains("2 or more arrival rates"), stderr());
        Path shortCsv = tmp.resolve("short.csv");
        Files.writeString(shortCsv, "start,end\n0,0.01\n1,1.02\n");
        assertEquals(2, run("compare", one.toString(), shortCsv.toString()));
        assertTrue(stderr().contains("simulate longer"), stderr());
        assertEquals(2, run("compare", one.toString(), one.toString(), "--replications", "1"));
        assertTrue(stderr().contains("--replications"), stderr());
        assertEquals(2, run("report", one.toString(), "--out", tmp.resolve("r.txt").toString()));
        assertTrue(stderr().contains(".html"), stderr());
        assertFalse(Files.exists(tmp.resolve("r.txt")));
        assertEquals(2, run("fit", "dpb", "--open", one.toString(), "--closed", one.toString(), "--single", one.toString()));
        assertTrue(stderr().startsWith("queuelab: "), stderr());
        assertEquals(2, run("fit", "dpb", "--open", one.toString(), "--closed", one.toString(), "--single", one.toString(),
                "--held-out", one + "/"));
        assertTrue(stderr().startsWith("queuelab: a --held-out run is one the fit takes"), stderr());
    }
}
