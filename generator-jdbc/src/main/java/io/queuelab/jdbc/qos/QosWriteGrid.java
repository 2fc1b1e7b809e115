package io.queuelab.jdbc.qos;

import io.queuelab.core.log.AtomicFile;
import io.queuelab.core.manifest.RunEnd;
import io.queuelab.core.run.LoadRun;
import io.queuelab.core.run.RunCompanion;
import io.queuelab.core.run.RunConfig;
import io.queuelab.core.run.RunResult;
import io.queuelab.core.run.RunStop;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;
import io.queuelab.jdbc.JdbcTarget;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Seed 000's write grid: for each cell (schema, clients, rows per client) rounds of a closed run
 * with finite work (every client writes its rows and leaves; {@link QosWriteBackend}), each round
 * a complete run directory with every line in the request log, repeated until the relative
 * standard error of the rounds' cycle times is below the limit (at least {@code minRounds}); the
 * cell's throughput is clients x rows / mean cycle time (the seed's lines/s).
 *
 * <p>A round's cycle time is from the common start of the clients until the last client has
 * written its last line (the run's {@code end.workDoneAtSeconds}); connections are opened before
 * the start. Each cell starts on fresh, empty tables ({@code qosw<n>_...}) with a warm-up round
 * ({@code round-00}): a complete round whose cycle time is kept apart ({@link CellResult#warmupSeconds})
 * and left out of the mean and of the rounds counted, because the first round of a cell runs on
 * empty tables (and, in the first cell, in a cold JVM and buffer pool) and was up to several times
 * slower or faster than the rest.
 *
 * <p>Guarantees: a cell is reported only from rounds in which every line was written: a round
 * with a failed line, or one that hit its time limit, fails the grid with the round's directory
 * named; a cell that reaches {@code maxRounds} without meeting the limit is reported as not
 * converged, never as converged. A {@link RunStop} request ends the grid with the round in progress
 * (its directory says it was interrupted): {@link #run(List)} returns the cells completed before.
 */
public final class QosWriteGrid {
    /** One cell of the grid. */
    public record Cell(QosSchema schema, int clients, int rowsPerClient) {
        /** The seed's grid spans 1 to 128 clients and 1 to 10,000 rows per client; a cell outside it is refused. */
        public Cell {
            if (clients < 1 || clients > 128) {
                throw new IllegalArgumentException("--clients must be 1 to 128 (seed 000's write grid), not " + clients);
            }
            if (rowsPerClient < 1 || rowsPerClient > 10_000) {
                throw new IllegalArgumentException("--rows must be 1 to 10000 per client (seed 000's write grid), not " + rowsPerClient);
            }
        }

        long lines() {
            return (long) clients * rowsPerClient;
        }

        /** The cell's directory under the grid's, e.g. {@code schema2-c4-r100}. */
        public String directoryName() {
            return "schema" + schema.number() + "-c" + clients + "-r" + rowsPerClient;
        }
    }

    /**
     * When a cell is done.
     *
     * @param maxRelativeError the seed's 5 %: standard error of the mean over the mean
     * @param roundLimit       a round that takes longer fails the grid
     */
    public record Rules(int minRounds, int maxRounds, double maxRelativeError, Duration roundLimit) {
        public Rules {
            if (minRounds < 2 || maxRounds < minRounds) {
                throw new IllegalArgumentException("rounds: need 2 <= min <= max, got min " + minRounds + ", max " + maxRounds);
            }
            if (!(maxRelativeError > 0)) {
                throw new IllegalArgumentException("the relative standard error limit must be positive: " + maxRelativeError);
            }
        }

        /** The seed's rule: at least 5 rounds, standard error below 5 % of the mean. */
        public static Rules seed(int maxRounds, Duration roundLimit) {
            return new Rules(5, maxRounds, 0.05, roundLimit);
        }
    }

    /** A measured cell. */
    public record CellResult(Cell cell, double warmupSeconds, List<Double> cycleSeconds, double meanSeconds, double relativeError,
                             boolean converged) {
        /** Lines written per second: clients x rows / mean cycle time. */
        public double linesPerSecond() {
            return cell.lines() / meanSeconds;
        }
    }

    private final JdbcTarget target;
    private final Rules rules;
    private final Path out;
    private final PrintStream progress;
    private final long seed;
    private final RunStop stop;
    private final RunCompanion companion;

    public QosWriteGrid(JdbcTarget target, Rules rules, Path out, long seed, PrintStream progress) {
        this(target, rules, out, seed, progress, new RunStop(), RunCompanion.NONE);
    }

    /**
     * As above; {@code stop} ends the grid early, {@code companion} runs beside every round (e.g. the
     * host resource sampler, the seed's sar).
     */
    public QosWriteGrid(JdbcTarget target, Rules rules, Path out, long seed, PrintStream progress, RunStop stop,
                        RunCompanion companion) {
        this.stop = stop;
        this.companion = companion;
        this.target = target;
        this.rules = rules;
        this.out = out;
        this.seed = seed;
        this.progress = progress;
    }

    /**
     * The seed's equations (1) to (3): the standard error s/sqrt(n), with s the standard deviation
     * over n (not n - 1), divided by the mean.
     */
    public static double relativeStandardError(List<Double> samples) {
        int n = samples.size();
        double mean = samples.stream().mapToDouble(Double::doubleValue).sum() / n;
        double squares = samples.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum();
        return Math.sqrt(squares / n) / Math.sqrt(n) / mean;
    }

    /**
     * Measures every cell in order, leaving {@code <out>/<cell>/round-NN/} run directories; after a
     * stop request, the cells completed before it.
     */
    public List<CellResult> run(List<Cell> cells) throws Exception {
        List<CellResult> results = new ArrayList<>();
        for (Cell cell : cells) {
            CellResult r = stop.requested() ? null : run(cell);
            if (r == null) {
                break;
            }
            results.add(r);
        }
        return results;
    }

    /** Measures one cell on fresh tables; null when a stop request ended it. */
    public CellResult run(Cell cell) throws Exception {
        QosWriteBackend.createTables(target, cell.schema(), QosWriteBackend.WRITE_BASE);
        double warmup = round(cell, 0);
        if (Double.isNaN(warmup)) {
            return null;
        }
        List<Double> cycles = new ArrayList<>();
        double error = Double.POSITIVE_INFINITY;
        for (int round = 1; round <= rules.maxRounds(); round++) {
            double cycle = round(cell, round);
            if (Double.isNaN(cycle)) {
                return null;
            }
            cycles.add(cycle);
            if (cycles.size() >= rules.minRounds()) {
                error = relativeStandardError(cycles);
                if (error < rules.maxRelativeError()) {
                    break;
                }
            }
        }
        double mean = cycles.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        CellResult r = new CellResult(cell, warmup, List.copyOf(cycles), mean, error, error < rules.maxRelativeError());
        if (progress != null) {
            progress.printf(Locale.ROOT, "schema %d, %d clients x %d rows: %.0f lines/s (%d rounds after a warm-up round of %.4f s,"
                    + " mean cycle %.4f s, SE %.1f %%%s)%n",
                    cell.schema().number(), cell.clients(), cell.rowsPerClient(), r.linesPerSecond(), cycles.size(), warmup,
                    mean, 100 * error, r.converged() ? "" : ", NOT below the limit");
        }
        return r;
    }

    /** The round's cycle time, or NaN when a stop request ended it; round 0 is the cell's warm-up round. */
    private double round(Cell cell, int round) throws Exception {
        Path dir = out.resolve(cell.directoryName()).resolve(String.format(Locale.ROOT, "round-%02d", round));
        Files.createDirectories(dir.getParent());
        LoadPlan plan = new LoadPlan(List.of(Phase.closed("main", rules.roundLimit(), cell.clients(), false)),
                LoadPlan.Arrivals.POISSON, Duration.ZERO, cell.rowsPerClient());
        RunConfig config = new RunConfig(plan, 1, 1, 1, RunConfig.nodeSeed(seed, round), 0, 1, null, Duration.ZERO,
                Duration.ofSeconds(10), dir);
        RunResult result;
        try (QosWriteBackend backend = QosWriteBackend.open(target, cell.schema(), QosWriteBackend.WRITE_BASE,
                cell.rowsPerClient(), 1 + round * cell.clients())) {
            result = LoadRun.execute(config, backend, Map.of("workload", "qos-write", "schema", cell.schema().number(),
                    "clients", cell.clients(), "rowsPerClient", cell.rowsPerClient(), "round", round), null, companion, stop);
        }
        if (stop.requested()) {
            return Double.NaN; // interrupted: the round's manifest says so
        }
        RunEnd end = result.directory().manifest().end().orElseThrow();
        boolean allDone = Boolean.TRUE.equals(end.allJobsDone());
        if (result.totals().ok() != cell.lines() || !allDone) {
            throw new IllegalStateException(dir + ": " + result.totals().ok() + " of " + cell.lines() + " lines written ("
                    + result.totals().errors() + " failed" + (allDone ? ")"
                    : ", time limit " + rules.roundLimit().toSeconds() + " s reached)"));
        }
        return end.workDoneAtSeconds();
    }

    /** The grid as CSV: one line per cell. */
    public static void writeCsv(Path file, List<CellResult> results) throws IOException {
        StringBuilder b = new StringBuilder("schema,clients,rows_per_client,warmup_cycle_seconds,rounds,mean_cycle_seconds,"
                + "relative_standard_error,converged,lines_per_second\n");
        for (CellResult r : results) {
            b.append(String.format(Locale.ROOT, "%d,%d,%d,%.6f,%d,%.6f,%.4f,%b,%.1f%n", r.cell().schema().number(), r.cell().clients(),
                    r.cell().rowsPerClient(), r.warmupSeconds(), r.cycleSeconds().size(), r.meanSeconds(), r.relativeError(), r.converged(),
                    r.linesPerSecond()));
        }
        AtomicFile.replace(file, tmp -> Files.writeString(tmp, b)); // whole or not at all: a full disk leaves no grid cut short
    }
}
