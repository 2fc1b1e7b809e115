package io.queuelab.cli;

import io.queuelab.core.backend.Backend;
import io.queuelab.core.run.RunCompanion;
import io.queuelab.core.run.RunResult;
import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.HeldOutValidation;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The capacity mode of a sweep: a short closed-loop saturation probe (many concurrent jobs, so the
 * server is never idle) measures the throughput X_max, then the sweep's open-loop rates are chosen
 * fractions of it, so that the queueing near the knee is in the data, corrected when a run finds
 * the server saturated ({@link Levels}). Guarantees: the probe is an ordinary closed run; it is
 * written beside the sweep while the sweep runs and moved into it afterwards
 * ({@link #PROBE_PREFIX} + N), so the reports see it as one more closed run.
 */
final class CapacitySweep {
    static final String PROBE_PREFIX = "capacity-probe-closed-";

    /** The probe's result: its run directory (beside the sweep) and the throughput it measured. */
    record Probe(Path dir, int jobs, double maxThroughput) {
        /**
         * The open-loop levels at the given fractions of X_max, revised as the runs find the server
         * ({@link Levels}), then the {@code repeats}.
         */
        Levels levels(List<Double> fractions, Repeats repeats, PrintWriter out) {
            return new Levels(maxThroughput, fractions, repeats, out);
        }

        /** Moves the probe's run into the finished sweep directory. */
        Path moveInto(Path sweep) throws IOException {
            return Files.move(dir, sweep.resolve(PROBE_PREFIX + jobs));
        }
    }

    /**
     * The open-loop levels of a capacity sweep: fractions of the capacity, corrected by what the runs
     * measure. A closed-loop probe can overstate what the server completes in the open runs that
     * follow it (its many jobs keep the server's queue full, and the server's speed drifts over a
     * sweep); an open run beyond the capacity measures a queue that grew through it, no point of a
     * steady-state curve.
     *
     * <p>Guarantees: the fractions run in their order, each at the capacity as it stands when it
     * starts. A run whose self-check says the server was saturated
     * ({@link io.queuelab.core.run.SelfCheck#serverSaturation}) lowers the capacity to what the
     * server completed in its measured phase (the server's open-loop throughput with the client's
     * workers busy), and that fraction runs once more at the lowered capacity: at most once per
     * fraction, so the sweep ends (a re-run that saturates again still lowers the capacity of the
     * fractions after it). The saturated run stays in the sweep, named by its verdict. Every
     * correction is printed and recorded in {@code sweep.json}. The repeats run last, at the rates of
     * runs already made, so each is a second run of one load: "held-out" repeats the loads the
     * report holds out ({@link HeldOutValidation#heldOutLoads} of the steady runs by rate), a listed
     * fraction its last steady run.
     */
    static final class Levels implements SweepCommand.LevelPlan {
        private final double probed;
        private final List<Double> fractions;
        private final boolean heldOut;
        private final List<Double> listed;
        private final PrintWriter out;
        private final java.util.Deque<Double> pending;
        private final Map<SweepCommand.Level, Double> fractionOf = new java.util.HashMap<>();
        private final java.util.Set<Double> runAgain = new java.util.HashSet<>();
        private final List<Map<String, Object>> corrections = new ArrayList<>();
        private java.util.Deque<SweepCommand.Level> repeats;
        private double capacity;

        Levels(double probed, List<Double> fractions, Repeats repeats, PrintWriter out) {
            this.probed = probed;
            this.capacity = probed;
            this.fractions = List.copyOf(fractions);
            this.heldOut = repeats.heldOut();
            this.listed = repeats.listed();
            this.out = out;
            this.pending = new java.util.ArrayDeque<>(fractions);
        }

        @Override
        public java.util.Optional<SweepCommand.Level> next(List<SweepCommand.Level> ran, List<RunResult> results) {
            if (!ran.isEmpty()) {
                correct(ran.get(ran.size() - 1), results.get(results.size() - 1));
            }
            if (!pending.isEmpty()) {
                double f = pending.poll();
                SweepCommand.Level level = unused(rate(f), ran);
                fractionOf.put(level, f);
                return java.util.Optional.of(level);
            }
            if (repeats == null) {
                repeats = new java.util.ArrayDeque<>();
                for (double rate : repeatRates(ran, results)) {
                    List<SweepCommand.Level> made = new ArrayList<>(ran);
                    made.addAll(repeats);
                    repeats.add(unused(rate, made));
                }
            }
            return java.util.Optional.ofNullable(repeats.poll());
        }

        @Override
        public Map<String, Object> describe() {
            Map<String, Object> c = new java.util.LinkedHashMap<>();
            c.put("probe", probed);
            c.put("fractions", fractions);
            c.put("corrections", corrections);
            c.put("capacity", capacity);
            return Map.of("capacity", c);
        }

        /**
         * Lowers the capacity after a fraction's run that found the server saturated below it; the
         * fraction runs again unless it already has (a second saturation still lowers the capacity
         * the later fractions run at).
         */
        private void correct(SweepCommand.Level level, RunResult result) {
            Double f = fractionOf.get(level);
            if (f == null || saturation(result).isEmpty()) {
                return;
            }
            double served = result.selfCheck().phases().stream().filter(p -> !p.warmup()).mapToDouble(p -> p.achievedRate())
                    .min().orElse(0);
            if (!(served > 0 && served < capacity)) {
                return;
            }
            boolean again = runAgain.add(f);
            out.printf(Locale.ROOT, "capacity corrected: %s found the server saturated (it completed %.1f/s of the %.1f/s arriving):"
                    + " X_max %.1f -> %.1f/s; %s at the corrected capacity%n%n", level.label(), served, level.rate(), capacity, served,
                    again ? "fraction " + f + " runs again, and every later one," : "every later fraction runs (" + f + " ran twice already)");
            out.flush();
            Map<String, Object> c = new java.util.LinkedHashMap<>();
            c.put("run", level.label());
            c.put("fraction", f);
            c.put("rate", level.rate());
            c.put("completed", served);
            c.put("capacityBefore", capacity);
            corrections.add(c);
            capacity = served;
            if (again) {
                pending.addFirst(f);
            }
        }

        /** The rates the repeats run at, from the runs the fractions made. */
        private List<Double> repeatRates(List<SweepCommand.Level> ran, List<RunResult> results) {
            List<SweepCommand.Level> steady = new ArrayList<>();
            for (int i = 0; i < ran.size(); i++) {
                if (fractionOf.containsKey(ran.get(i)) && saturation(results.get(i)).isEmpty()
                        && (results.get(i).selfCheck() == null || !results.get(i).selfCheck().measuredNothing())) {
                    steady.add(ran.get(i));
                }
            }
            if (heldOut) {
                List<Double> rates = steady.stream().map(SweepCommand.Level::rate).distinct().sorted().toList();
                List<Double> held = HeldOutValidation.heldOutLoads(rates);
                if (held.isEmpty()) {
                    out.printf(Locale.ROOT, "no repeats: %d loads ran steady, the report holds two out of %d or more%n%n", rates.size(),
                            HeldOutValidation.MIN_LOADS_TO_HOLD_OUT);
                }
                return held;
            }
            List<Double> rates = new ArrayList<>();
            for (double f : listed) {
                // the fraction's last steady run, else its last run
                SweepCommand.Level last = null;
                for (SweepCommand.Level l : ran) {
                    if (Double.valueOf(f).equals(fractionOf.get(l)) && (steady.contains(l) || last == null || !steady.contains(last))) {
                        last = l;
                    }
                }
                if (last != null) {
                    rates.add(last.rate());
                }
            }
            return rates;
        }

        /** Rates rounded to 0.1/s: readable directory names, far below the noise of X_max. */
        private double rate(double fraction) {
            return Math.max(0.1, Math.round(fraction * capacity * 10) / 10.0);
        }

        /** An open level at {@code rate} whose directory no level of {@code made} has: a second run of a rate is its repeat. */
        private static SweepCommand.Level unused(double rate, List<SweepCommand.Level> made) {
            java.util.Set<String> labels = new java.util.HashSet<>();
            made.forEach(l -> labels.add(l.label()));
            int repeat = 0;
            while (labels.contains(new SweepCommand.Level(rate, 0, repeat).label())) {
                repeat++;
            }
            return new SweepCommand.Level(rate, 0, repeat);
        }

        private static java.util.Optional<String> saturation(RunResult result) {
            return result.selfCheck() == null ? java.util.Optional.empty() : result.selfCheck().serverSaturation();
        }
    }

    private CapacitySweep() {
    }

    /** --repeat's default: the loads the report holds out ({@link HeldOutValidation#heldOutLoads}). */
    static final String HELD_OUT = "held-out";

    /**
     * The fractions to run again ({@code --repeat}): {@link #HELD_OUT}, the loads the report holds
     * out (chosen among the steady runs once the sweep has run; {@code listed} are those of the
     * fractions as given), or "none" (none listed), or a list of fractions each of which is one of
     * the sweep's (already checked); a fraction listed k times is run k times more.
     */
    record Repeats(boolean heldOut, List<Double> listed) {
        Repeats {
            listed = List.copyOf(listed);
        }

        static Repeats of(String repeat, List<Double> fractions) {
            if (repeat.equals("none")) {
                return new Repeats(false, List.of());
            }
            if (repeat.equals(HELD_OUT)) {
                return new Repeats(true, HeldOutValidation.heldOutLoads(fractions.stream().sorted().toList()));
            }
            List<Double> repeats = new ArrayList<>();
            for (String part : repeat.split(",")) {
                double f;
                try {
                    f = Double.parseDouble(part.strip());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--repeat takes " + HELD_OUT + ", none, or fractions from --fractions, got '" + part
                            + "'");
                }
                if (!fractions.contains(f)) {
                    throw new IllegalArgumentException("--repeat " + f + " is not one of --fractions " + fractions + ": a repeat runs a"
                            + " load of the sweep again");
                }
                repeats.add(f);
            }
            return new Repeats(false, repeats);
        }
    }

    /** Checks the fractions before any run: each in (0, 1], no two alike. */
    static List<Double> fractions(List<Double> fractions) {
        if (fractions.isEmpty()) {
            throw new IllegalArgumentException("--fractions needs at least one fraction of the capacity, e.g. 0.1,0.5,0.9");
        }
        for (double f : fractions) {
            if (!(f > 0 && f <= 1)) {
                throw new IllegalArgumentException("every fraction of the capacity must be in (0, 1] (beyond it an open queue"
                        + " grows without bound), got " + f);
            }
        }
        if (fractions.stream().distinct().count() != fractions.size()) {
            throw new IllegalArgumentException("--fractions lists a fraction twice: " + fractions);
        }
        return List.copyOf(fractions);
    }

    /** Refuses, naming the option, a probe that cannot run: called before anything starts, and by {@link #probe}. */
    static void checkProbe(int jobs, Duration duration) {
        if (jobs < 1) {
            throw new IllegalArgumentException("--probe-jobs must be at least 1, got " + jobs);
        }
        LoadOptions.positive(duration, "--probe-duration");
    }

    /** The probe's own level: {@code jobs} closed-loop jobs. */
    static SweepCommand.Level probeLevel(int jobs) {
        return new SweepCommand.Level(0, jobs);
    }

    /**
     * Checks a capacity sweep's runs before anything starts: the probe's, and an open run's at a
     * stand-in rate (the real rates come from the probe); returns the open runs planned, one a
     * fraction and one a repeat (a run that corrects the capacity adds one more).
     */
    static int check(int probeJobs, Duration probeDuration, List<Double> fractions, Repeats repeats, Duration duration, Duration warmup,
                     boolean constant, GeneratorOptions generator, Path dir) {
        checkProbe(probeJobs, probeDuration);
        generator.config(probeLevel(probeJobs).plan(probeDuration, warmup, false), dir);
        SweepCommand.checkRuns(List.of(new SweepCommand.Level(1, 0)), duration, warmup, constant, generator, dir);
        return fractions.size() + repeats.listed().size();
    }

    /** The wall time a capacity sweep plans: the probe, then {@code runs} open runs. */
    static Duration planned(Duration probeDuration, int runs, Duration duration, Duration warmup) {
        return warmup.plus(probeDuration).plus(warmup.plus(duration).multipliedBy(runs));
    }

    /** What {@link #planned} is made of, in words. */
    static String describePlan(Duration probeDuration, int runs, Duration duration, Duration warmup) {
        return "a capacity probe of " + PlannedLength.format(warmup.plus(probeDuration)) + ", " + runs + " open runs of "
                + PlannedLength.format(warmup.plus(duration)) + " each, one more for each capacity correction";
    }

    /**
     * Runs the saturation probe: {@code jobs} closed-loop jobs for {@code duration} after
     * {@code warmup}, into a directory beside {@code sweep} (which must not exist yet).
     */
    static Probe probe(Path sweep, int jobs, Duration duration, Duration warmup, GeneratorOptions generator, Backend backend,
                       RunCompanion companion, Map<String, Object> settings, PrintWriter out) throws Exception {
        checkProbe(jobs, duration);
        Path dir = sweep.resolveSibling(sweep.getFileName() + "." + PROBE_PREFIX + jobs);
        if (Files.exists(dir)) {
            throw new IllegalArgumentException(dir + " already exists (a capacity probe left by a sweep that died): remove it");
        }
        out.printf(Locale.ROOT, "capacity probe: %d closed-loop jobs for %s%n", jobs, duration);
        double throughput = closedRun(dir, jobs, duration, warmup, generator, backend, companion, settings, out);
        if (!(throughput > 0)) {
            throw new IllegalStateException("the capacity probe completed no request: no capacity to take fractions of");
        }
        out.printf(Locale.ROOT, "capacity probe: X_max = %.1f requests/s with N = %d%n%n", throughput, jobs);
        out.flush();
        return new Probe(dir, jobs, throughput);
    }

    /** The rounds of a server's warm-up ({@link #warmUp}): at most this many; the demo's each of {@link #WARM_UP_ROUND} measured. */
    static final int WARM_UP_ROUNDS = 30;
    static final Duration WARM_UP_ROUND = Duration.ofSeconds(5);
    /** Two rounds in a row whose throughputs differ by at most this share of the earlier: a server whose compilers cannot be read is warm. */
    static final double WARM_UP_TOLERANCE = 0.10;
    /** A server whose JIT compilers used at most this share of two rounds' wall time in a row: its code is compiled. */
    static final double COMPILING_AT_MOST = 0.05;

    /** The longest a {@link #warmUp} takes. */
    static Duration warmUpPlanned() {
        return WARM_UP_ROUND.plusSeconds(1).multipliedBy(WARM_UP_ROUNDS);
    }

    /**
     * Warms a server up before anything of it is measured: closed-loop runs of {@code jobs} jobs,
     * each {@code round} long after a second's warm-up, into {@code dir/round-<i>} until the server
     * is warm, or {@link #WARM_UP_ROUNDS} have run (then it says so). Warm is two rounds in a row in which the server's JIT compilers used at most
     * {@link #COMPILING_AT_MOST} of the round, where they can be read ({@code compilerCpuNanos} not
     * null: a JVM on this machine, {@link io.queuelab.core.telemetry.ProcessResources#jitCompilerCpuNanos});
     * else a round that completes within {@link #WARM_UP_TOLERANCE} of the one before it.
     *
     * <p>Why: a server in a JVM answers several times faster once its code is compiled, and a capacity
     * probe of it cold understates the capacity every fraction is taken of. On a Cassandra node
     * started a minute before (2026-11-29, one core), 10-s rounds of 16 jobs completed 2,836, 3,522,
     * 6,937 and 8,750 writes/s while its compilers used 13.4 s of cpu before the first and 10.0, 5.0
     * and 2.6 s in the next three. Throughput alone does not say a node is warm: two 5-s rounds in a
     * row agreed at 3,630/s while it still compiled, and the closed run of 16 jobs 3 minutes later
     * completed 11,723/s. The rounds stay in {@code dir}, a record of the warm-up; no report reads them.
     */
    static void warmUp(Path dir, int jobs, Duration round, java.util.function.LongSupplier compilerCpuNanos,
                       GeneratorOptions generator, Backend backend, Map<String, Object> settings, PrintWriter out) throws Exception {
        out.printf(Locale.ROOT, "warming the server up: closed-loop rounds of %d jobs for %s until %s%n", jobs,
                PlannedLength.format(round), compilerCpuNanos == null
                        ? String.format(Locale.ROOT, "two in a row are within %.0f %%", 100 * WARM_UP_TOLERANCE)
                        : String.format(Locale.ROOT, "its JIT compilers use at most %.0f %% of two rounds in a row", 100 * COMPILING_AT_MOST));
        out.flush();
        Files.createDirectories(dir);
        double previous = Double.NaN;
        long compiled = compilerCpuNanos == null ? 0 : compilerCpuNanos.getAsLong();
        int quiet = 0; // rounds in a row with the compilers at most COMPILING_AT_MOST busy
        for (int i = 1; i <= WARM_UP_ROUNDS; i++) {
            long start = System.nanoTime();
            double x = closedRun(dir.resolve("round-" + i), jobs, round, Duration.ofSeconds(1), generator, backend,
                    RunCompanion.NONE, settings, new PrintWriter(java.io.Writer.nullWriter()));
            boolean warm;
            if (compilerCpuNanos != null) {
                long now = compilerCpuNanos.getAsLong();
                double compiling = Math.max(0, now - compiled) / (double) (System.nanoTime() - start);
                compiled = now;
                quiet = compiling <= COMPILING_AT_MOST ? quiet + 1 : 0;
                warm = quiet == 2;
                out.printf(Locale.ROOT, "  round %d: %.1f requests/s; the server's JIT compilers busy %.0f %% of it%n", i, x,
                        100 * compiling);
            } else {
                warm = Math.abs(x - previous) <= WARM_UP_TOLERANCE * previous;
                out.printf(Locale.ROOT, "  round %d: %.1f requests/s%n", i, x);
            }
            out.flush();
            if (warm) {
                out.printf(Locale.ROOT, "warm after %d rounds%n%n", i);
                return;
            }
            previous = x;
        }
        out.printf(Locale.ROOT, "not warm after %d rounds: the probe takes the server as it is now%n%n", WARM_UP_ROUNDS);
    }

    /** One closed-loop run of {@code jobs} jobs into {@code dir}; returns the throughput it measured. */
    private static double closedRun(Path dir, int jobs, Duration duration, Duration warmup, GeneratorOptions generator, Backend backend,
                                    RunCompanion companion, Map<String, Object> settings, PrintWriter out) throws Exception {
        RunCommand.execute(generator.config(probeLevel(jobs).plan(duration, warmup, false), dir), backend, settings, out, companion);
        return RunData.read(dir).throughput();
    }
}
