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

    @Option(names = "--write-rates", split = ",", defaultValue = "250,500,1000,2000",
            description = "cassandra: Poisson rates of the time-series write sweep (default ${DEFAULT-VALUE}).")
    List<Double> writeRates;

    @Option(names = "--read-rates", split = ",", defaultValue = "10,20,40",
            description = "cassandra: Poisson rates of the range-read sweep (default ${DEFAULT-VALUE}).")
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
        List<SweepCommand.Level> closedLevels = closedJobs.equals("none") ? List.of() : SweepCommand.levels(null, parseJobs(closedJobs));
        Path dir = out != null ? out : RunCommand.defaultRunDir("demo");
        refuseExisting(dir);
        request.requestTimeout(JdbcOptions.DEFAULT_REQUEST_TIMEOUT);
        PrintWriter w = spec.commandLine().getOut();
        // every run is checked, and the whole planned, before the server starts or a tuple is loaded
        Duration planned = Duration.ZERO;
        List<String> plan = new ArrayList<>();
        for (var sweep : fixedRates.entrySet()) {
            Path open = dir.resolve(sweep.getKey());
            String what;
            if (sweep.getValue() != null) {
                SweepCommand.checkRuns(sweep.getValue(), duration, warmup, false, generator, open);
                planned = planned.plus(warmup.plus(duration).multipliedBy(sweep.getValue().size()));
                what = sweep.getValue().size() + " open runs of " + PlannedLength.format(warmup.plus(duration)) + " each";
            } else {
                int runs = CapacitySweep.check(probeJobs, probeDuration, checkedFractions, repeats, duration, warmup, false, generator, open);
                planned = planned.plus(CapacitySweep.planned(probeDuration, runs, duration, warmup));
                what = CapacitySweep.describePlan(probeDuration, runs, duration, warmup);
            }
            SweepCommand.checkRuns(closedLevels, duration, warmup, false, generator, dir.resolve(sweep.getKey() + "-closed"));
            planned = planned.plus(warmup.plus(duration).multipliedBy(closedLevels.size()));
            plan.add(sweep.getKey() + ": " + what + (closedLevels.isEmpty() ? "" : ", " + closedLevels.size() + " closed runs"));
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
                try (Backend backend = db.openBackend(workload, request.requestTimeout(JdbcOptions.DEFAULT_REQUEST_TIMEOUT))) {
                    Path open = dir.resolve(operation);
                    CapacitySweep.Probe probe = sweep.getValue() != null ? null : CapacitySweep.probe(open, probeJobs, probeDuration,
                            warmup, generator, backend, telemetryCompanion, settings, w);
                    List<RunResult> results = new ArrayList<>(SweepCommand.run(open, probe == null
                            ? SweepCommand.LevelPlan.of(sweep.getValue())
                            : probe.levels(checkedFractions, repeats, w),
                            duration, warmup, false, generator, backend, telemetryCompanion, settings, w));
                    if (probe != null) {
                        runDirs.add(probe.moveInto(open));
                    }
                    if (!closedLevels.isEmpty()) {
                        results.addAll(SweepCommand.run(dir.resolve(operation + "-closed"), closedLevels, duration, warmup, false,
                                generator, backend, telemetryCompanion, settings, w));
                    }
                    results.forEach(r -> runDirs.add(r.directory().path()));
                }
            }
        }
        w.println("demo runs: " + dir);
        for (Path p : runDirs) {
            w.println("  " + p);
        }
        // one report per workload, of its open and closed sweeps: the two workloads are fitted as two systems
        for (String operation : fixedRates.keySet()) {
            w.println("writing the " + operation + " report (fits, simulated comparisons, charts)...");
            w.flush();
            List<Path> sweeps = new ArrayList<>(List.of(dir.resolve(operation)));
            if (!closedLevels.isEmpty()) {
                sweeps.add(dir.resolve(operation + "-closed"));
            }
            Report report = Report.written(sweeps, dir.resolve(operation + "-report.html"));
            w.println("report: " + report.path().toAbsolutePath());
            report.headline().forEach(w::println);
            w.flush();
        }
        return 0;
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
     * The demo on Cassandra: seed 003's sensor time series, an open-loop write sweep and a
     * range-read sweep (every read checked against what was written), on a local node the demo
     * starts and stops, or on the cluster at --contact-points.
     */
    private int cassandraDemo() throws Exception {
        List<SweepCommand.Level> writes = SweepCommand.levels(writeRates, null);
        List<SweepCommand.Level> reads = SweepCommand.levels(readRates, null);
        Path dir = out != null ? out : RunCommand.defaultRunDir("demo-cassandra");
        refuseExisting(dir);
        PrintWriter w = spec.commandLine().getOut();
        // every run is checked, and the whole planned, before a node starts
        SweepCommand.checkRuns(writes, duration, warmup, false, generator, dir.resolve("write"));
        SweepCommand.checkRuns(reads, duration, warmup, false, generator, dir.resolve("read"));
        plannedLength.check("the demo", warmup.plus(duration).multipliedBy(writes.size() + reads.size()), writes.size() + " write and "
                + reads.size() + " read runs of " + PlannedLength.format(warmup.plus(duration)) + " each, besides the node's start",
                MAX_DURATION, w);
        boolean ownNode = !spec.commandLine().getParseResult().hasMatchedOption("--contact-points");
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
            for (String scenario : List.of("write", "read")) {
                cassandra.scenario = scenario;
                try (Backend b = cassandra.openBackend(request)) {
                    Map<String, Object> settings = new LinkedHashMap<>();
                    settings.put("backend", "cassandra");
                    settings.put("scenario", scenario);
                    SweepCommand.run(dir.resolve(scenario), scenario.equals("write") ? writes : reads, duration, warmup, false,
                            generator, b, telemetry.isZero() ? RunCompanion.NONE : ((RunCompanion) runDir -> ThreadPoolSampler.start(
                                    cassandra.settings(request), runDir.resolve(ThreadPoolSampler.FILE_NAME), telemetry))
                                    .and(HostResourceSampler.companion(() -> nodeProcesses(ownCluster), telemetry)),
                            settings, w);
                }
                Path html = Report.write(List.of(dir.resolve(scenario)), dir.resolve(scenario + "-report.html"));
                w.println("report: " + html.toAbsolutePath());
                w.flush();
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
        return 0;
    }

    /** Splits the CPUs between the servers the demo started and itself; every later run records the placement. */
    private void place(List<HostResourceSampler.SampledProcess> servers, PrintWriter w) {
        Placement where = cpus.apply(servers, spec.commandLine().getErr());
        generator.placement(where);
        w.println(io.queuelab.core.summary.SummaryText.placement(where));
        w.flush();
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
