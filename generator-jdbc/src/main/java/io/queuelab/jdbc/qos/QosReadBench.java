package io.queuelab.jdbc.qos;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.run.LoadRun;
import io.queuelab.core.run.RunCompanion;
import io.queuelab.core.run.RunConfig;
import io.queuelab.core.run.RunResult;
import io.queuelab.core.run.RunStop;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;
import io.queuelab.jdbc.JdbcBackend;
import io.queuelab.jdbc.JdbcTarget;
import io.queuelab.jdbc.Workload;
import io.queuelab.jdbc.WorkloadStatement;
import org.apache.commons.math3.distribution.TDistribution;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Seed 000's read test: in each round N clients start a case's query at once, each fetches the
 * whole result once and leaves (a closed run with one request per client, every request in the
 * round's log); a round's measure is the seed's total execution time per client, the mean
 * response time of the N requests. A cell is measured in {@code rounds} rounds (the seed repeated
 * each test at least five times) and reported as the mean over the rounds with its 95 %
 * confidence interval (Student's t over the rounds). The read data set must be loaded
 * ({@link QosLoader}).
 *
 * <p>The query cache is switched per cell: on ({@code query_cache_type=ON}) for the cases that ask
 * for it, off otherwise; the server's setting is restored by {@link #close()}. With the cache on it
 * is emptied once before the cell's first round, not before each round: the first round fills it
 * and the later ones are served from it, as the seed's repeated rounds were (the hits are counted
 * per cell, {@link CellResult#queryCacheHits()}).
 *
 * <p>Guarantees: a cell is reported only when every client got its complete result (otherwise
 * the bench fails, naming the run directory); rows are the result's size, counted by the server,
 * and a case whose count is not the one its conditions were made for ({@link QosReadCase#rows()},
 * e.g. schemas loaded at another scale) fails the bench before it is measured. A {@link RunStop} request ends the measurement in progress ({@link #run} then returns null).
 */
public final class QosReadBench implements AutoCloseable {
    /** One measurement: a case on a schema with N clients. */
    public record Cell(QosReadCase readCase, QosSchema schema, int clients) {
        /** The seed read with 1 to 50 clients; a cell outside that is refused. */
        public Cell {
            if (clients < 1 || clients > 50) {
                throw new IllegalArgumentException("--clients must be 1 to 50 (seed 000's read test), not " + clients);
            }
        }

        String directoryName() {
            return readCase.name() + "-schema" + schema.number() + "-c" + clients;
        }
    }

    /**
     * A measured cell.
     *
     * @param roundSeconds   seconds per client of each round, in order
     * @param queryCacheHits the server's Qcache_hits during the cell's rounds
     */
    public record CellResult(Cell cell, long rows, List<Double> roundSeconds, long queryCacheHits) {
        /** The mean seconds per client over the rounds. */
        public double secondsPerClient() {
            return roundSeconds.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        }

        /** Half the width of the 95 % confidence interval of {@link #secondsPerClient()} (Student's t over the rounds). */
        public double ci95Seconds() {
            int n = roundSeconds.size();
            if (n < 2) {
                return Double.NaN;
            }
            double mean = secondsPerClient();
            double variance = roundSeconds.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum() / (n - 1);
            return new TDistribution(null, n - 1).inverseCumulativeProbability(0.975) * Math.sqrt(variance / n);
        }
    }

    private final JdbcTarget target;
    private final Path out;
    private final Duration limit;
    private final long seed;
    private final long queryCacheBytes;
    private final String originalCacheType;
    private final long originalCacheSize;
    private final RunStop stop;
    private final int rounds;

    /**
     * @param rounds          rounds per cell, at least 2 (for the interval); the seed's 5
     * @param queryCacheBytes query_cache_size for the cases with the cache on
     * @param limit           a run (and a query) that takes longer fails the bench
     */
    public QosReadBench(JdbcTarget target, Path out, int rounds, Duration limit, long queryCacheBytes, long seed)
            throws SQLException {
        this(target, out, rounds, limit, queryCacheBytes, seed, new RunStop());
    }

    /** As above; {@code stop} ends the bench early. */
    public QosReadBench(JdbcTarget target, Path out, int rounds, Duration limit, long queryCacheBytes, long seed, RunStop stop)
            throws SQLException {
        this.rounds = requireRounds(rounds);
        this.stop = stop;
        this.target = target;
        this.out = out;
        this.limit = limit;
        this.seed = seed;
        this.queryCacheBytes = queryCacheBytes;
        try (Connection c = target.connect(0); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT @@GLOBAL.query_cache_type, @@GLOBAL.query_cache_size")) {
            r.next();
            originalCacheType = r.getString(1);
            originalCacheSize = r.getLong(2);
        } catch (SQLException e) {
            throw new SQLException("the server has no query cache (seed 000's Q3 needs MariaDB or MySQL before 8.0): "
                    + JdbcTarget.firstLine(e.getMessage()), e.getSQLState(), e.getErrorCode(), e);
        }
    }

    /** {@code rounds} when a cell can be measured in that many (at least 2, for the interval); else the one-line error. */
    public static int requireRounds(int rounds) {
        if (rounds < 2) {
            throw new IllegalArgumentException("--rounds must be at least 2 (the seed's rule is 5), not " + rounds);
        }
        return rounds;
    }

    /** Measures one cell, leaving {@code <out>/<case>-schema<n>-c<N>/round-NN/}; null after a stop request. */
    public CellResult run(Cell cell) throws Exception {
        if (stop.requested()) {
            return null;
        }
        String sql = cell.readCase().sql(cell.schema());
        long rows;
        try (Connection c = target.connect(Math.toIntExact(limit.toMillis())); Statement s = c.createStatement()) {
            if (cell.readCase().queryCache()) {
                s.execute("SET GLOBAL query_cache_size = " + queryCacheBytes);
                s.execute("SET GLOBAL query_cache_type = ON");
                s.execute("RESET QUERY CACHE");
            } else {
                s.execute("SET GLOBAL query_cache_type = OFF");
            }
            try (ResultSet r = s.executeQuery(cell.readCase().countSql(cell.schema()))) {
                r.next();
                rows = r.getLong(1);
            }
        }
        if (rows != cell.readCase().rows()) {
            throw new IllegalStateException(cell.readCase().name() + " on schema " + cell.schema().number() + " selects " + rows
                    + " rows, not the " + cell.readCase().rows() + " of the data set its conditions were made for: load the"
                    + " schemas at one scale (queuelab load --relation qos --scale F)");
        }
        long hitsBefore = status("Qcache_hits");
        List<Double> seconds = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            double s = round(cell, sql, round);
            if (Double.isNaN(s)) {
                return null;
            }
            seconds.add(s);
        }
        return new CellResult(cell, rows, List.copyOf(seconds), status("Qcache_hits") - hitsBefore);
    }

    private long status(String variable) throws SQLException {
        try (Connection c = target.connect(0); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SHOW GLOBAL STATUS LIKE '" + variable + "'")) {
            return r.next() ? r.getLong(2) : 0;
        }
    }

    /** One round's seconds per client, NaN after a stop request. */
    private double round(Cell cell, String sql, int round) throws Exception {
        Workload workload = new Workload(cell.readCase().name(), List.of(new WorkloadStatement(cell.readCase().name(), sql, 1,
                List.of())), cell.schema().tables(cell.schema().prefix(QosSchema.READ_BASE)));
        Path dir = out.resolve(cell.directoryName()).resolve(String.format(Locale.ROOT, "round-%02d", round));
        Files.createDirectories(dir.getParent());
        LoadPlan plan = new LoadPlan(List.of(Phase.closed("main", limit, cell.clients(), false)), LoadPlan.Arrivals.POISSON,
                Duration.ZERO, 1);
        RunConfig config = new RunConfig(plan, 1, 1, 1, seed, 0, 1, null, Duration.ZERO, Duration.ofSeconds(10), dir);
        RunResult result;
        try (JdbcBackend backend = JdbcBackend.open(target, workload, limit)) {
            result = LoadRun.execute(config, backend, Map.of("workload", "qos-read", "case", cell.readCase().name(),
                    "schema", cell.schema().number(), "clients", cell.clients(), "round", round, "sql", sql), null,
                    RunCompanion.NONE, stop);
        }
        if (stop.requested()) {
            return Double.NaN; // interrupted: the run's manifest says so
        }
        if (result.totals().ok() != cell.clients()) {
            throw new IllegalStateException(dir + ": " + result.totals().ok() + " of " + cell.clients() + " clients got their result");
        }
        double sum = 0;
        try (RequestLogReader r = result.directory().openLog()) {
            while (r.next()) {
                if (r.outcome() == LogFormat.OK) {
                    sum += (r.completed() - r.intended()) / 1e9;
                }
            }
        }
        return sum / cell.clients();
    }

    /** The results as CSV, one line per cell. */
    public static String csv(List<CellResult> results) {
        StringBuilder b = new StringBuilder("case,query,case_number,query_cache,all_tables,straight_join,schema,clients,rows,seed_rows,"
                + "rounds,seconds_per_client,ci95_seconds,query_cache_hits,round_seconds\n");
        for (CellResult r : results) {
            QosReadCase c = r.cell().readCase();
            b.append(String.format(Locale.ROOT, "%s,%s,%d,%b,%b,%b,%d,%d,%d,%d,%d,%.6f,%.6f,%d,%s%n", c.name(), c.query(), c.caseNumber(),
                    c.queryCache(), c.allTables(), c.straightJoin(), r.cell().schema().number(), r.cell().clients(), r.rows(),
                    c.seedRows(), r.roundSeconds().size(), r.secondsPerClient(), r.ci95Seconds(), r.queryCacheHits(),
                    String.join(";", r.roundSeconds().stream().map(x -> String.format(Locale.ROOT, "%.6f", x)).toList())));
        }
        return b.toString();
    }

    /** Restores the server's query cache settings. */
    @Override
    public void close() throws SQLException {
        try (Connection c = target.connect(0); Statement s = c.createStatement()) {
            s.execute("SET GLOBAL query_cache_size = " + originalCacheSize);
            s.execute("SET GLOBAL query_cache_type = " + originalCacheType);
        }
    }
}
