package io.queuelab.cli;

import io.queuelab.core.backend.Backend;
import io.queuelab.core.run.RunCompanion;
import io.queuelab.core.telemetry.HostResourceSampler;
import io.queuelab.core.run.RunResult;
import io.queuelab.cassandra.ThreadPoolSampler;
import io.queuelab.cassandra.node.LocalCassandraCluster;
import io.queuelab.jdbc.JdbcEnvironment;
import io.queuelab.core.manifest.Placement;
import io.queuelab.jdbc.ServerStatusSampler;
import io.queuelab.jdbc.WisconsinLoader;
import io.queuelab.jdbc.WisconsinRelation;
import io.queuelab.jdbc.Workload;
import io.queuelab.fit.ClientTime;
import io.queuelab.fit.runs.RunData;
import io.queuelab.reports.report.Report;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code queuelab demo}: the main job end to end. Loads a Wisconsin relation into the database
 * (an embedded MariaDB unless {@code --jdbc-url} is given); for the read workload (a range
 * aggregate, or seed 001's E1 SELECT) and seed 004's UPDATE in turn: a closed-loop probe measures
 * the capacity, open-loop Poisson runs at fractions of it follow (the capacity corrected by a run
 * that finds the server saturated, {@link CapacitySweep.Levels}), then a closed sweep (N/T, N/P),
 * all with server telemetry; prints each run's summary and self-check, and ends with an HTML
 * report of each workload (M/M/1 fits, model curves, measured vs simulated response times, charts).
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "The main job end to end: load a Wisconsin relation, sweep Poisson SELECT and UPDATE rates, summarise.")
public final class DemoCommand implements Callable<Integer> {
    @Option(names = "--tuples", defaultValue = "100000", description = "Tuples of the Wisconsin relation (default ${DEFAULT-VALUE}).")
    int tuples;

    @Option(names = "--query", defaultValue = Workload.RANGE, paramLabel = "range|select",
            description = "The read workload: range (SUM(unique3) over " + Workload.RANGE_ROWS + " consecutive keys, heavy on the"
                    + " server so that it, not the client, saturates) or select (seed 001's E1 point SELECT). Default ${DEFAULT-VALUE}.")
    String query;

    @Option(names = "--select-rates", split = ",", paramLabel = "RATE",
            description = "Fixed Poisson rates of the read sweep instead of fractions of its measured capacity.")
    List<Double> selectRates;

    @Option(names = "--update-rates", split = ",", paramLabel = "RATE",
            description = "Fixed Poisson rates of the UPDATE sweep instead of fractions of its measured capacity.")
    List<Double> updateRates;

    @Option(names = "--fractions", split = ",", defaultValue = "0.9,0.1,0.3,0.5,0.7,0.8", paramLabel = "F",
            description = "Open-loop rates as fractions of the capacity a closed-loop probe measures first, corrected by a run that"
                    + " finds the server saturated, run in this order (default ${DEFAULT-VALUE}: the top fraction first, so that a"
                    + " probe that overstated the capacity is corrected before the other fractions are taken of it).")
    List<Double> fractions;

    @Option(names = "--repeat", defaultValue = CapacitySweep.HELD_OUT, paramLabel = "held-out|none|F,...",
            description = "Fractions run a second time after the open sweep, so the report can measure how closely the server repeats"
                    + " a load and judge the models' predictions against that: held-out (default: the two loads the report predicts,"
                    + " the third and the last but one of the runs that found the server steady, by rate), none, or fractions from"
                    + " --fractions (one listed k times runs k times more).")
    String repeat;

    @Option(names = "--probe-jobs", defaultValue = "16", description = "Jobs of the capacity probe (default ${DEFAULT-VALUE}).")
    int probeJobs;

    @Option(names = "--probe-duration", converter = DurationConverter.class, defaultValue = "4s",
            description = "Measured length of the capacity probe (default ${DEFAULT-VALUE}).")
    Duration probeDuration;

    @Option(names = "--closed", defaultValue = "1,4,16,64", paramLabel = "N,...|none",
            description = "Job counts of the closed sweep of each workload, for N/T and N/P (default ${DEFAULT-VALUE}; none = no closed sweep).")
    String closedJobs;

    @Option(names = "--duration", converter = DurationConverter.class, defaultValue = "12s",
            description = "Measured length of each run (default ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--warmup", converter = DurationConverter.class, defaultValue = "3s",
            description = "Warm-up phase of each run (default ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--telemetry-interval", converter = DurationConverter.class, defaultValue = "1s",
            description = "Server telemetry interval in every run: jdbc SHOW GLOBAL STATUS, cassandra thread pools "
                    + "(default ${DEFAULT-VALUE}; 0 = off).")
    Duration telemetry;

    @Option(names = "--out", paramLabel = "DIR", description = "Demo directory to create (default runs/demo-<time>).")
    Path out;

    @Option(names = "--backend", defaultValue = "jdbc",
            description = "jdbc (MariaDB, embedded unless --jdbc-url) or cassandra (a local node started for the demo unless --contact-points). Default ${DEFAULT-VALUE}.")
    String backend;

    @Option(names = "--write-rates", split = ",", paramLabel = "RATE",
            description = "cassandra: fixed Poisson rates of the time-series write sweep instead of fractions of its measured capacity.")
    List<Double> writeRates;

    @Option(names = "--read-rates", split = ",", defaultValue = "10,20,40",
            description = "cassandra: Poisson rates of the range-read sweep, every read checked (default ${DEFAULT-VALUE}).")
    List<Double> readRates;

    @Mixin
    JdbcConnectionOptions connection;

    @Mixin
    CassandraOptions cassandra;

    @Mixin
    RequestOptions request;

    @Mixin
    GeneratorOptions generator;

    @Mixin
    CpuSplitOptions cpus;

    @Mixin
    PlannedLength plannedLength;

    /** --max-duration's default: the default demo plans about 6 min of runs; a demo five times as long is not one. */
    static final Duration MAX_DURATION = Duration.ofMinutes(30);

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        try {
            return demo();
        } finally {
            cpus.restore();
        }
    }

    private int demo() throws Exception {
        cpus.validate();
        if (backend.equals("cassandra")) {
            return cassandraDemo();
        }
        if (!backend.equals("jdbc")) {
            throw new IllegalArgumentException("--backend must be jdbc or cassandra, not '" + backend + "'");
        }
        if (tuples < 1) {
            throw new IllegalArgumentException("--tuples must be at least 1, got " + tuples);
        }
        if (!query.equals(Workload.RANGE) && !query.equals(Workload.SELECT)) {
            throw new IllegalArgumentException("--query must be range or select, not '" + query + "'");
        }
        Map<String, List<SweepCommand.Level>> fixedRates = new LinkedHashMap<>();
        fixedRates.put(query, selectRates == null ? null : SweepCommand.levels(selectRates, null));
        fixedRates.put(Workload.UPDATE, updateRates == null ? null : SweepCommand.levels(updateRates, null));
        List<Double> checkedFractions = CapacitySweep.fractions(fractions);
        CapacitySweep.Repeats repeats = CapacitySweep.Repeats.of(repeat, checkedFractions);
        List<SweepCommand.Level> closedLevels = closedLevels();
        Path dir = out != null ? out : RunCommand.defaultRunDir("demo");
        refuseExisting(dir);
        request.requestTimeout(JdbcOptions.DEFAULT_REQUEST_TIMEOUT);
        PrintWriter w = spec.commandLine().getOut();
        // every run is checked, and the whole planned, before the server starts or a tuple is loaded
        Duration planned = Duration.ZERO;
        List<String> plan = new ArrayList<>();
        for (var sweep : fixedRates.entrySet()) {
            planned = planned.plus(plan(dir, sweep.getKey(), sweep.getValue(), checkedFractions, repeats, closedLevels, plan));
        }
        plannedLength.check("the demo", planned, String.join("; ", plan) + String.format(Locale.ROOT, "; besides loading %,d tuples and the reports", tuples),
                MAX_DURATION, w);
        List<Path> runDirs = new ArrayList<>();
        try (JdbcEnvironment db = connection.open()) {
            w.println("database: " + db.target().redactedUrl());
            place(db.serverProcesses(), w);
            WisconsinRelation wisc = new WisconsinRelation(WisconsinRelation.DEFAULT_TABLE, tuples, 1);
            WisconsinLoader.Result loaded = new WisconsinLoader(db.target()).load(wisc, WisconsinRelation.Engine.INNODB);
            w.printf(Locale.ROOT, "loaded %d Wisconsin tuples in %.1f s%n%n", tuples, loaded.total().toNanos() / 1e9);
            w.flush();
            RunCompanion serverCounters = runDir -> {
                ServerStatusSampler sampler = new ServerStatusSampler(db.target());
                sampler.start(runDir.resolve(ServerStatusSampler.FILE_NAME), telemetry);
                return sampler;
            };
            RunCompanion telemetryCompanion = telemetry.isZero() ? RunCompanion.NONE
                    : serverCounters.and(HostResourceSampler.companion(db::serverProcesses, telemetry));
            for (var sweep : fixedRates.entrySet()) {
                String operation = sweep.getKey();
                Workload workload = db.wisconsinWorkload(wisc.table(), operation, 0.5);
                Map<String, Object> settings = new LinkedHashMap<>();
                settings.put("backend", "jdbc");
                settings.put("operation", operation);
                settings.put("table", wisc.table());
                settings.put("tuples", tuples);
                double middleRate;
                try (Backend backend = db.openBackend(workload, request.requestTimeout(JdbcOptions.DEFAULT_REQUEST_TIMEOUT))) {
                    Swept swept = sweep(dir, operation, sweep.getValue(), checkedFractions, repeats, closedLevels, backend,
                            telemetryCompanion, settings, w);
                    runDirs.addAll(swept.runs());
                    middleRate = swept.middleRate();
                }
                Map<String, Object> tripSettings = new LinkedHashMap<>(settings);
                tripSettings.put("operation", Workload.ROUND_TRIP);
                tripSettings.remove("table");
                tripSettings.remove("tuples");
                try (Backend backend = db.openBackend(Workload.roundTrip(), request.requestTimeout(JdbcOptions.DEFAULT_REQUEST_TIMEOUT))) {
                    runDirs.addAll(roundTrips(dir.resolve(operation), middleRate, backend, telemetryCompanion, tripSettings, w));
                }
            }
        }
        listRuns(dir, runDirs, w);
        // one report per workload, of its open and closed sweeps: the two workloads are fitted as two systems
        for (String operation : fixedRates.keySet()) {
            report(dir, operation, !closedLevels.isEmpty(), w);
        }
        return 0;
    }

    /**
     * Checks one workload's runs ({@code fixed} levels, or a capacity sweep at the fractions when
     * null, then the closed levels) and adds what they are to {@code plan}; returns their wall time.
     */
    private Duration plan(Path dir, String workload, List<SweepCommand.Level> fixed, List<Double> fractions,
                          CapacitySweep.Repeats repeats, List<SweepCommand.Level> closedLevels, List<String> plan) {
        Path open = dir.resolve(workload);
        Duration planned;
        String what;
        if (fixed != null) {
            SweepCommand.checkRuns(fixed, duration, warmup, false, generator, open);
            planned = warmup.plus(duration).multipliedBy(fixed.size());
            what = fixed.size() + " open runs of " + PlannedLength.format(warmup.plus(duration)) + " each";
        } else {
            int runs = CapacitySweep.check(probeJobs, probeDuration, fractions, repeats, duration, warmup, false, generator, open);
            planned = CapacitySweep.planned(probeDuration, runs, duration, warmup);
            what = CapacitySweep.describePlan(probeDuration, runs, duration, warmup);
        }
        SweepCommand.checkRuns(closedLevels, duration, warmup, false, generator, dir.resolve(workload + "-closed"));
        plan.add(workload + ": " + what + (closedLevels.isEmpty() ? "" : ", " + closedLevels.size() + " closed runs")
                + ", the client's round trips, open and closed (" + PlannedLength.format(tripWarmup().plus(tripLength())) + " each)");
        return planned.plus(warmup.plus(duration).multipliedBy(closedLevels.size())).plus(tripWarmup().plus(tripLength()).multipliedBy(2));
    }

    /**
     * One workload's runs on {@code backend}, into {@code dir/workload} and {@code dir/workload-closed}:
     * the {@code fixed} open levels, or (null) a closed-loop capacity probe and open runs at the
     * fractions of what it measured with the repeats, then the closed levels. Returns every run's
     * directory, the probe's included.
     */
    private Swept sweep(Path dir, String workload, List<SweepCommand.Level> fixed, List<Double> fractions,
                        CapacitySweep.Repeats repeats, List<SweepCommand.Level> closedLevels, Backend backend,
                        RunCompanion companion, Map<String, Object> settings, PrintWriter w) throws Exception {
        List<Path> runDirs = new ArrayList<>();
        Path open = dir.resolve(workload);
        CapacitySweep.Probe probe = fixed != null ? null
                : CapacitySweep.probe(open, probeJobs, probeDuration, warmup, generator, backend, companion, settings, w);
        List<RunResult> results = new ArrayList<>(SweepCommand.run(open, probe == null
                ? SweepCommand.LevelPlan.of(fixed)
                : probe.levels(fractions, repeats, w),
                duration, warmup, false, generator, backend, companion, settings, w));
        if (probe != null) {
            runDirs.add(probe.moveInto(open));
        }
        if (!closedLevels.isEmpty()) {
            results.addAll(SweepCommand.run(dir.resolve(workload + "-closed"), closedLevels, duration, warmup, false,
                    generator, backend, companion, settings, w));
        }
        results.forEach(r -> runDirs.add(r.directory().path()));
        double[] rates = (probe == null ? fixed.stream().mapToDouble(SweepCommand.Level::rate)
                : fractions.stream().mapToDouble(f -> f * probe.maxThroughput())).filter(r -> r > 0).sorted().toArray();
        return new Swept(runDirs, rates.length == 0 ? 0 : rates[rates.length / 2]);
    }

    /** A workload's swept runs (the probe's included) and the middle of its open rates (0: none). */
    private record Swept(List<Path> runs, double middleRate) {
    }

    /** Where each workload's round trips go, inside its open sweep (where validate and the report find them among the runs). */
    static final String OPEN_TRIP_DIR = Workload.ROUND_TRIP + "-open";
    static final String CLOSED_TRIP_DIR = Workload.ROUND_TRIP + "-closed";
    /** Each round trip's longest length after at most a second's warm-up: thousands of statements, five samples of the server's cpu. */
    static final Duration ROUND_TRIP_LENGTH = Duration.ofSeconds(5);
    private static final Duration ROUND_TRIP_WARMUP = Duration.ofSeconds(1);

    /** A round trip's length: the demo's runs' own where they are shorter. */
    private Duration tripLength() {
        return duration.compareTo(ROUND_TRIP_LENGTH) < 0 ? duration : ROUND_TRIP_LENGTH;
    }

    private Duration tripWarmup() {
        return warmup.compareTo(ROUND_TRIP_WARMUP) < 0 ? warmup : ROUND_TRIP_WARMUP;
    }

    /**
     * The client's round trips beside a workload's sweep, into {@code sweepDir}: {@code SELECT 1}
     * with the server's counters sampled, once as Poisson arrivals at {@code rate} (the sweep's
     * middle load) and once by one job back to back. Each one's response less the server's cpu per
     * statement is the client time (driver, network, wake-ups) of open and of closed runs, which the
     * models with a latency beside the server take instead of splitting it off the workload's
     * responses (ClientTime: the two differ several times over on this machine).
     */
    private List<Path> roundTrips(Path sweepDir, double rate, Backend backend, RunCompanion companion, Map<String, Object> settings,
                                  PrintWriter w) throws Exception {
        List<Path> dirs = new ArrayList<>();
        List<Map.Entry<String, SweepCommand.Level>> trips = new ArrayList<>();
        if (rate > 0) {
            trips.add(Map.entry(OPEN_TRIP_DIR, new SweepCommand.Level(rate, 0)));
        }
        trips.add(Map.entry(CLOSED_TRIP_DIR, CapacitySweep.probeLevel(1)));
        for (var trip : trips) {
            Path runDir = sweepDir.resolve(trip.getKey());
            RunCommand.execute(generator.config(trip.getValue().plan(tripLength(), tripWarmup(), false), runDir), backend,
                    settings, new PrintWriter(java.io.Writer.nullWriter()), companion);
            ClientTime.Trip.of(RunData.read(runDir)).ifPresent(t -> w.println("client time: " + t.describe()));
            dirs.add(runDir);
        }
        w.println();
        w.flush();
        return dirs;
    }

    /** Lists the demo's run directories, the probes' included, before its reports are written. */
    private static void listRuns(Path dir, List<Path> runDirs, PrintWriter w) {
        w.println("demo runs: " + dir);
        for (Path p : runDirs) {
            w.println("  " + p);
        }
    }

    /** The report of one workload's open sweep (and its closed sweep), printed with its headline: the selected model's held-out lead. */
    private static void report(Path dir, String workload, boolean closed, PrintWriter w) throws java.io.IOException {
        w.println("writing the " + workload + " report (fits, simulated comparisons, charts)...");
        w.flush();
        List<Path> sweeps = new ArrayList<>(List.of(dir.resolve(workload)));
        if (closed) {
            sweeps.add(dir.resolve(workload + "-closed"));
        }
        Report report = Report.written(sweeps, dir.resolve(workload + "-report.html"));
        w.println("report: " + report.path().toAbsolutePath());
        report.headline().forEach(w::println);
        w.flush();
    }

    /** The closed sweep's levels (--closed), none for "none". */
    private List<SweepCommand.Level> closedLevels() {
        return closedJobs.equals("none") ? List.of() : SweepCommand.levels(null, parseJobs(closedJobs));
    }

    private static List<Integer> parseJobs(String list) {
        List<Integer> jobs = new ArrayList<>();
        for (String n : list.split(",")) {
            try {
                jobs.add(Integer.parseInt(n.strip()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--closed takes job counts like 1,4,16,64 or none, not '" + list + "'");
            }
        }
        return jobs;
    }

    /**
     * The demo on Cassandra: seed 003's sensor time series on a local node the demo starts and
     * stops (or the cluster at --contact-points). The node is warmed up first
     * ({@link CapacitySweep#warmUp}: a JVM node started a minute before answers several times
     * slower than it will), then the writes are swept as the MariaDB demo sweeps its
     * workloads (a capacity probe, open runs at its fractions, the held-out loads repeated, a closed
     * sweep) unless --write-rates fixes their rates; then the range reads at their fixed rates, every
     * read checked against what was written. The node's thread pools are sampled beside every run;
     * the reports are written once the node is stopped.
     */
    private int cassandraDemo() throws Exception {
        List<SweepCommand.Level> writes = writeRates == null ? null : SweepCommand.levels(writeRates, null);
        List<SweepCommand.Level> reads = SweepCommand.levels(readRates, null);
        List<Double> checkedFractions = CapacitySweep.fractions(fractions);
        CapacitySweep.Repeats repeats = CapacitySweep.Repeats.of(repeat, checkedFractions);
        List<SweepCommand.Level> closedLevels = closedLevels();
        Path dir = out != null ? out : RunCommand.defaultRunDir("demo-cassandra");
        refuseExisting(dir);
        PrintWriter w = spec.commandLine().getOut();
        // every run is checked, and the whole planned, before a node starts
        List<String> plan = new ArrayList<>();
        Duration planned = CapacitySweep.warmUpPlanned().plus(plan(dir, WRITE, writes, checkedFractions, repeats, closedLevels, plan))
                .plus(plan(dir, READ, reads, checkedFractions, repeats, List.of(), plan));
        plannedLength.check("the demo", planned, "a node warm-up of at most " + PlannedLength.format(CapacitySweep.warmUpPlanned())
                + "; " + String.join("; ", plan) + "; besides the node's start and the reports", MAX_DURATION, w);
        boolean ownNode = !spec.commandLine().getParseResult().hasMatchedOption("--contact-points");
        List<Path> runDirs = new ArrayList<>();
        LocalCassandraCluster cluster = null;
        try {
            if (ownNode) {
                Path cassandraDir = cassandra.clusterDirectory != null ? cassandra.clusterDirectory
                        : Path.of(CassandraOptions.DEFAULT_DEMO_DIRECTORY);
                w.println("starting a local Cassandra node in " + cassandraDir + " (20-70 s)...");
                w.flush();
                cluster = LocalCassandraCluster.start(cassandraDir, LocalCassandraCluster.defaults(), false, Duration.ofMinutes(5));
                cassandra.contactPoints = cluster.contactPointsOption();
            }
            place(nodeProcesses(cluster), w);
            w.println("cluster: " + cassandra.contactPoints);
            LocalCassandraCluster ownCluster = cluster;
            RunCompanion companion = telemetry.isZero() ? RunCompanion.NONE : ((RunCompanion) runDir -> ThreadPoolSampler.start(
                    cassandra.settings(request), runDir.resolve(ThreadPoolSampler.FILE_NAME), telemetry))
                    .and(HostResourceSampler.companion(() -> nodeProcesses(ownCluster), telemetry));
            for (String scenario : List.of(WRITE, READ)) {
                cassandra.scenario = scenario;
                try (Backend b = cassandra.openBackend(request)) {
                    Map<String, Object> settings = new LinkedHashMap<>();
                    settings.put("backend", "cassandra");
                    settings.put("scenario", scenario);
                    boolean write = scenario.equals(WRITE);
                    if (write) {
                        CapacitySweep.warmUp(dir.resolve("node-warm-up"), probeJobs, CapacitySweep.WARM_UP_ROUND,
                                compilerCpu(nodeProcesses(ownCluster)),
                                generator, b, settings, w);
                    }
                    runDirs.addAll(sweep(dir, scenario, write ? writes : reads, checkedFractions, repeats,
                            write ? closedLevels : List.of(), b, companion, settings, w).runs());
                }
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
        listRuns(dir, runDirs, w);
        report(dir, WRITE, !closedLevels.isEmpty(), w);
        report(dir, READ, false, w);
        return 0;
    }

    private static final String WRITE = "write";
    private static final String READ = "read";

    /** Splits the CPUs between the servers the demo started and itself; every later run records the placement. */
    private void place(List<HostResourceSampler.SampledProcess> servers, PrintWriter w) {
        Placement where = cpus.apply(servers, spec.commandLine().getErr());
        generator.placement(where);
        w.println(io.queuelab.core.summary.SummaryText.placement(where));
        w.flush();
    }

    /**
     * The cpu time the JIT compilers of these processes have used together, read as it is asked for;
     * null when there are none (a cluster elsewhere: its warm-up is judged by its throughput alone).
     */
    private static java.util.function.LongSupplier compilerCpu(List<HostResourceSampler.SampledProcess> processes) {
        if (processes.isEmpty()) {
            return null;
        }
        return () -> processes.stream().mapToLong(p -> Math.max(0,
                io.queuelab.core.telemetry.ProcessResources.jitCompilerCpuNanos(p.pid()))).sum();
    }

    /** The nodes the demo started, for host-resource telemetry; none when it drives a cluster elsewhere. */
    private static List<HostResourceSampler.SampledProcess> nodeProcesses(LocalCassandraCluster cluster) {
        return cluster == null ? List.of() : CassandraOptions.nodeProcesses(cluster);
    }

    private static void refuseExisting(Path dir) {
        if (Files.exists(dir)) {
            throw new IllegalArgumentException(dir + ": demo directory already exists");
        }
        OutputPath.requireWritable(dir, "demo directory"); // a parent that is a file, or not writable: before anything starts
    }
}
