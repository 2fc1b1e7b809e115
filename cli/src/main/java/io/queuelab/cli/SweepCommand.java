package io.queuelab.cli;

import io.queuelab.core.backend.Backend;
import io.queuelab.core.run.RunCompanion;
import io.queuelab.core.run.RunConfig;
import io.queuelab.core.run.RunResult;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;
import io.queuelab.fit.HeldOutValidation;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.Model;
import io.queuelab.sim.Simulation;
import io.queuelab.sim.SimulationResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code queuelab sweep}: one run per load level, in one parent directory with the sweep's
 * configuration ({@code sweep.json}): open-loop rates (mean response time vs arrival rate, seed
 * 001) or closed-loop job counts (N/T and N/P, seed 004). All runs share one backend (one
 * embedded server), each gets a warm-up phase of its own.
 */
@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = "One run per arrival rate (--rates) or per number of concurrent jobs (--closed), in one sweep directory.")
public final class SweepCommand implements Callable<Integer> {
    @Option(names = "--rates", split = ",", paramLabel = "RATE", description = "Open-loop Poisson rates, e.g. 50,100,200.")
    List<Double> rates;

    @Option(names = "--closed", split = ",", paramLabel = "N", description = "Closed-loop job counts, e.g. 1,2,5,10,20.")
    List<Integer> closed;

    @Option(names = "--fractions", split = ",", paramLabel = "F",
            description = "Capacity mode: a closed-loop saturation probe (--probe-jobs) measures X_max, then one open-loop run"
                    + " per fraction of it, in the given order, e.g. 0.9,0.1,0.3,0.5,0.7,0.8; a run that finds the server saturated"
                    + " corrects X_max to what the server completed in it and its fraction runs again (the top fraction first finds"
                    + " an overstated X_max before the others are taken of it).")
    List<Double> fractions;

    @Option(names = "--repeat", defaultValue = "none", paramLabel = "none|held-out|F,...",
            description = "Capacity mode: fractions run a second time after the sweep (the server's run-to-run spread, which validate"
                    + " and report judge predictions against): none (default), held-out (the loads the report predicts: the third and"
                    + " the last but one of the runs that found the server steady, by rate), or fractions from --fractions (one listed k"
                    + " times runs k times more).")
    String repeat;

    @Option(names = "--probe-jobs", defaultValue = "32", description = "Jobs of the capacity probe (default ${DEFAULT-VALUE}).")
    int probeJobs;

    @Option(names = "--probe-duration", converter = DurationConverter.class, defaultValue = "5s",
            description = "Measured length of the capacity probe (default ${DEFAULT-VALUE}).")
    Duration probeDuration;

    @Option(names = "--duration", converter = DurationConverter.class, defaultValue = "30s",
            description = "Measured length of each run (default ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--warmup", converter = DurationConverter.class, defaultValue = "5s",
            description = "Warm-up phase before each run (default ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--constant", description = "Deterministic gaps instead of Poisson arrivals.")
    boolean constant;

    @Option(names = "--out", paramLabel = "DIR", description = "Sweep directory to create (must not exist); default runs/sweep-<time>.")
    Path out;

    @Option(names = "--simulate", description = "Simulate the sweep from --model (and its parameters) instead of running a backend.")
    boolean simulate;

    @Mixin
    ModelOptions model;

    @Mixin
    GeneratorOptions generator;

    @Mixin
    BackendOptions backend;

    @Mixin
    ServerCoresOption serverCores;

    @Mixin
    PlannedLength plannedLength;

    /** --max-duration's default: a sweep planned longer than half a day is more often a slip than a plan. */
    static final Duration MAX_DURATION = Duration.ofHours(12);

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        serverCores.value(); // a bad count is refused before anything starts
        ModelOptions.refuse(!repeat.equals("none") && fractions == null, "--repeat runs fractions of the capacity again: it needs --fractions");
        if (fractions != null) {
            ModelOptions.refuse(rates != null || closed != null || simulate, "--fractions replaces --rates and --closed, on a backend");
            return capacitySweep();
        }
        List<Level> levels = levels(rates, closed);
        Path dir = out != null ? out : RunCommand.defaultRunDir("sweep");
        OutputPath.requireCreatable(dir, "sweep directory");
        if (simulate) {
            simulate(dir, levels, model.model(serverCores.value()), duration, warmup, generator.seed, spec.commandLine().getOut());
            return 0;
        }
        ModelOptions.refuse(model.model != null, "--model applies to a simulated sweep: add --simulate");
        generator.defaultWorkers(backend.defaultWorkers());
        checkRuns(levels, duration, warmup, constant, generator, dir);
        backend.checkTelemetry(io.queuelab.core.telemetry.NodeTelemetry.SERVER_NODE);
        plannedLength.check("the sweep", duration.plus(warmup).multipliedBy(levels.size()), levels.size() + " runs of "
                + PlannedLength.format(duration.plus(warmup)) + " each", MAX_DURATION, spec.commandLine().getOut());
        try (BackendOptions server = backend; Backend b = server.open(generator.seed)) {
            generator.placement(server.place(serverCores.value(), spec.commandLine().getErr()));
            run(dir, levels, duration, warmup, constant, generator, b, server.companion(), backend.settings(), spec.commandLine().getOut());
        }
        return 0;
    }

    /** The capacity mode: the probe, then the open-loop rates at the fractions of its throughput. */
    private int capacitySweep() throws Exception {
        List<Double> checked = CapacitySweep.fractions(fractions);
        CapacitySweep.Repeats repeats = CapacitySweep.Repeats.of(repeat, checked);
        ModelOptions.refuse(repeats.heldOut() && repeats.listed().isEmpty(),
                "--repeat held-out needs " + HeldOutValidation.MIN_LOADS_TO_HOLD_OUT
                        + " or more --fractions (it repeats the third and the last but one)");
        Path dir = out != null ? out : RunCommand.defaultRunDir("sweep");
        ModelOptions.refuse(java.nio.file.Files.exists(dir), dir + ": sweep directory already exists");
        ModelOptions.refuse(model.model != null, "--model applies to a simulated sweep");
        java.io.PrintWriter w = spec.commandLine().getOut();
        generator.defaultWorkers(backend.defaultWorkers());
        int runs = CapacitySweep.check(probeJobs, probeDuration, checked, repeats, duration, warmup, constant, generator, dir);
        backend.checkTelemetry(io.queuelab.core.telemetry.NodeTelemetry.SERVER_NODE);
        plannedLength.check("the sweep", CapacitySweep.planned(probeDuration, runs, duration, warmup),
                CapacitySweep.describePlan(probeDuration, runs, duration, warmup), MAX_DURATION, w);
        try (BackendOptions server = backend; Backend b = server.open(generator.seed)) {
            generator.placement(server.place(serverCores.value(), spec.commandLine().getErr()));
            Map<String, Object> settings = new LinkedHashMap<>(backend.settings());
            CapacitySweep.Probe probe = CapacitySweep.probe(dir, probeJobs, probeDuration, warmup, generator, b, server.companion(), settings, w);
            run(dir, probe.levels(checked, repeats, w), duration, warmup, constant, generator, b,
                    server.companion(), settings, w);
            w.println("capacity probe: " + probe.moveInto(dir));
            w.flush();
        }
        return 0;
    }

    /**
     * One load level of a sweep: a rate (open) or a job count (closed), and which time it is run at
     * that load (0 the first; a repeat has a directory and a seed of its own: the server's run-to-run
     * spread, which the reports judge predictions against).
     */
    record Level(double rate, int jobs, int repeat) {
        Level(double rate, int jobs) {
            this(rate, jobs, 0);
        }

        String label() {
            String load = jobs > 0 ? "closed-" + jobs : "rate-" + (rate == Math.rint(rate) ? Long.toString((long) rate) : Double.toString(rate));
            return repeat == 0 ? load : load + "-repeat-" + repeat;
        }

        LoadPlan plan(Duration duration, Duration warmup, boolean constant) {
            List<Phase> phases = new ArrayList<>();
            if (!warmup.isZero()) {
                phases.add(new Phase("warmup", warmup, rate, jobs, true));
            }
            phases.add(new Phase("main", duration, rate, jobs, false));
            return new LoadPlan(phases, constant ? LoadPlan.Arrivals.CONSTANT : LoadPlan.Arrivals.POISSON, Duration.ZERO);
        }
    }

    /**
     * Checks each run of {@code levels} as it will be made (--duration, then the generator's options
     * for the level's plan), before the first starts: a bad option is refused before a server starts,
     * a probe runs or a directory is made, naming the option (a Phase alone would say "a phase needs
     * a positive duration", and only once its run is made).
     */
    static void checkRuns(List<Level> levels, Duration duration, Duration warmup, boolean constant, GeneratorOptions generator, Path dir) {
        LoadOptions.positive(duration, "--duration");
        for (Level level : levels) {
            generator.config(level.plan(duration, warmup, constant), dir.resolve(level.label()));
        }
    }

    static List<Level> levels(List<Double> rates, List<Integer> closed) {
        if ((rates == null || rates.isEmpty()) == (closed == null || closed.isEmpty())) {
            throw new IllegalArgumentException("give either --rates R1,R2,... or --closed N1,N2,...");
        }
        List<Level> levels = new ArrayList<>();
        if (rates != null) {
            for (double r : rates) {
                if (!(r > 0) || Double.isInfinite(r)) {
                    throw new IllegalArgumentException("every rate must be a positive number, got " + r);
                }
                levels.add(new Level(r, 0));
                if (rates.indexOf(r) != rates.lastIndexOf(r)) {
                    throw new IllegalArgumentException("rate " + r + " is given twice in --rates: each rate is one run");
                }
            }
        } else {
            for (int n : closed) {
                if (n < 1) {
                    throw new IllegalArgumentException("every job count must be at least 1, got " + n);
                }
                levels.add(new Level(0, n));
                if (closed.indexOf(n) != closed.lastIndexOf(n)) {
                    throw new IllegalArgumentException("job count " + n + " is given twice in --closed: each count is one run");
                }
            }
        }
        return levels;
    }

    /**
     * Simulates every level into {@code dir}: the same sweep as a measured one, from a model, one
     * replication per level (warm-up removed by MSER-5 as in every simulation), so the reports
     * read measured and simulated sweeps alike.
     */
    static void simulate(Path dir, List<Level> levels, Model model, Duration duration, Duration warmup, long seed,
                         java.io.PrintWriter out) throws Exception {
        if (levels.get(0).jobs() == 0) {
            for (Level level : levels) {
                Simulation.of(model, ArrivalProcess.open(level.rate())).duration(1).validate(); // refuse unstable levels before any run
            }
        }
        SweepManifest manifest = SweepManifest.create(dir, levels.get(0).jobs() > 0 ? "closed" : "open");
        for (Level level : levels) {
            ArrivalProcess arrivalProcess = level.jobs() > 0 ? ArrivalProcess.closed(level.jobs()) : ArrivalProcess.open(level.rate());
            SimulationResult r = Simulation.of(model, arrivalProcess)
                    .duration((duration.toNanos() + warmup.toNanos()) / 1e9).replications(1).seed(seed)
                    .writeRun(dir.resolve(level.label())).run();
            out.printf(java.util.Locale.ROOT, "simulated %s: mean response %.3f ms, throughput %.2f/s%n", level.label(),
                    r.meanResponse().value() * 1e3, r.throughput().value());
            manifest.add(level.label(), level.rate(), level.jobs());
        }
        manifest.complete(Map.of("duration", duration.toString(), "warmup", warmup.toString(), "model", model.name(),
                "simulated", true));
        out.println("simulated sweep of " + levels.size() + " runs in " + dir);
        out.flush();
    }

    /**
     * ": K finished; rate-X measured no request (see its verdict)" when a run of the sweep had no
     * request outside warm-up (such a run is no point of the sweep's curve), else "".
     */
    static String measuredNothing(List<Level> levels, List<RunResult> results) {
        List<String> empty = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            if (results.get(i).selfCheck() != null && results.get(i).selfCheck().measuredNothing()) {
                empty.add(levels.get(i).label());
            }
        }
        return empty.isEmpty() ? "" : ": " + (results.size() - empty.size()) + " finished; " + String.join(", ", empty)
                + " measured no request (see " + (empty.size() == 1 ? "its" : "their") + " verdict)";
    }

    /**
     * The run's own seed, derived from the base seed and the run's label ({@code rate-20},
     * {@code closed-5}). With one seed for all runs, every run would draw the same parameters in the
     * same order, and an UPDATE load (seed 004: SET unique3=? WHERE unique1=?) would repeat the
     * earlier runs' changes, which the server skips as no-ops: no dirty page, no redo. The label,
     * not the index, so an open and a closed sweep with one base seed do not repeat each other
     * either; the same base seed still reproduces the same sweep.
     */
    static RunConfig withRunSeed(RunConfig c, Level level) {
        return new RunConfig(c.plan(), c.workers(), c.queueBound(), c.inFlightBound(), RunConfig.nodeSeed(c.seed(), level.label().hashCode()),
                c.nodeIndex(), c.nodeCount(), c.startAt(), c.reportInterval(), c.drainTimeout(), c.outputDir(), c.clockReference(),
                c.placement());
    }

    /**
     * The levels a sweep runs, one after another: a fixed list, or one that the outcome of each run
     * may revise (the capacity mode, {@link CapacitySweep.Levels}).
     */
    interface LevelPlan {
        /** The next level to run, given the levels run so far and their results (in order); empty when the sweep is done. */
        java.util.Optional<Level> next(List<Level> ran, List<RunResult> results);

        /** What the sweep's {@code sweep.json} records about how the levels were chosen (nothing for a fixed list). */
        default Map<String, Object> describe() {
            return Map.of();
        }

        static LevelPlan of(List<Level> levels) {
            return (ran, results) -> ran.size() < levels.size() ? java.util.Optional.of(levels.get(ran.size())) : java.util.Optional.empty();
        }
    }

    /** Runs every level into {@code dir}; the sweep's {@code sweep.json} is marked complete last. */
    static List<RunResult> run(Path dir, List<Level> levels, Duration duration, Duration warmup, boolean constant,
                               GeneratorOptions generator, Backend backend, RunCompanion companion,
                               Map<String, Object> backendSettings, java.io.PrintWriter out) throws Exception {
        return run(dir, LevelPlan.of(levels), duration, warmup, constant, generator, backend, companion, backendSettings, out);
    }

    /** Runs the levels of {@code plan} into {@code dir}, one at a time; the sweep's {@code sweep.json} is marked complete last. */
    static List<RunResult> run(Path dir, LevelPlan plan, Duration duration, Duration warmup, boolean constant,
                               GeneratorOptions generator, Backend backend, RunCompanion companion,
                               Map<String, Object> backendSettings, java.io.PrintWriter out) throws Exception {
        SweepManifest manifest = null;
        List<Level> levels = new ArrayList<>();
        List<RunResult> results = new ArrayList<>();
        for (java.util.Optional<Level> next = plan.next(levels, results); next.isPresent(); next = plan.next(levels, results)) {
            Level level = next.get();
            if (manifest == null) {
                manifest = SweepManifest.create(dir, level.jobs() > 0 ? "closed" : "open");
            }
            Path runDir = dir.resolve(level.label());
            RunConfig config = withRunSeed(generator.config(level.plan(duration, warmup, constant), runDir), level);
            Map<String, Object> settings = new LinkedHashMap<>(generator.settings());
            settings.putAll(backendSettings);
            settings.put("sweep", dir.getFileName().toString());
            settings.put("duration", duration.toString());
            settings.put("warmup", warmup.toString());
            results.add(RunCommand.execute(config, backend, settings, out, companion));
            levels.add(level);
            manifest.add(level.label(), level.rate(), level.jobs());
            out.println();
        }
        if (manifest == null) {
            throw new IllegalArgumentException("a sweep needs at least one level");
        }
        Map<String, Object> completion = new LinkedHashMap<>();
        completion.put("duration", duration.toString());
        completion.put("warmup", warmup.toString());
        completion.put("backend", backendSettings);
        completion.putAll(plan.describe());
        manifest.complete(completion);
        out.println("sweep of " + levels.size() + " runs in " + dir + measuredNothing(levels, results));
        out.flush();
        return results;
    }
}
