package io.queuelab.jdbc.qos;

import io.queuelab.jdbc.JdbcTarget;
import io.queuelab.jdbc.LoadStop;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Creates one of seed 000's schemas ({@link QosSchema}) and fills it with the read data set
 * ({@link QosReadDataSet}) by multi-row INSERTs: run i is measurement_id i in schemas 2 and 3,
 * result rows are numbered 1.. in run order (result_id), and every schema holds the same values.
 *
 * <p>Guarantees: the tables are filled under scratch names ({@code qos<n>__loading_...}) with the
 * foreign keys checked, and renamed into place only when all are complete, so a failed load
 * leaves the previous tables of the schema (or none), never half-filled ones. The results table's
 * comment records the scale, the seed and the row count; the tables' statistics are computed on
 * the full tables ({@code ANALYZE TABLE}) before the load returns.
 */
public final class QosLoader {
    private static final int ROWS_PER_INSERT = 500;

    /** What a load did. */
    public record Result(QosSchema schema, QosReadDataSet dataSet, int runs, long rows, Duration duration) {
    }

    private final JdbcTarget target;
    private final LoadStop stop;
    private Batch results; // the results table's batch of the load under way: its rows sent so far

    public QosLoader(JdbcTarget target) {
        this(target, new LoadStop());
    }

    /** A loader that ends with {@link LoadStop.Interrupted} soon after {@code stop} is requested. */
    public QosLoader(JdbcTarget target, LoadStop stop) {
        this.target = target;
        this.stop = stop;
    }

    /** Loads {@code dataSet} into schema {@code schema}'s tables {@code qos<n>_...}. */
    public Result load(QosSchema schema, QosReadDataSet dataSet) throws SQLException {
        String scratch = QosSchema.READ_BASE + schema.number() + "__loading_";
        String prefix = schema.prefix(QosSchema.READ_BASE);
        long started = System.nanoTime();
        results = null;
        try (Connection c = target.connectForLoading(); Statement s = c.createStatement()) {
            stop.running(s);
            boolean replacing = false;
            try {
                dropAll(s, schema, scratch);
                for (String create : schema.createSql(scratch)) {
                    s.execute(create);
                }
                long rows = fill(s, schema, scratch, dataSet);
                stop.check(""); // the last point of return: after it the schema's tables are replaced as a whole
                stop.running(null); // a cancel between the DROP and the RENAME would leave no tables at all
                replacing = true;
                s.execute(String.format(Locale.ROOT, "ALTER TABLE %s COMMENT='queuelab seed 000 read data set: schema %d, scale %s, seed %d, %d runs, %d rows'",
                        schema.results(scratch), schema.number(), dataSet.scale(), dataSet.seed(), dataSet.runs().size(), rows));
                dropAll(s, schema, prefix);
                List<String> renames = new ArrayList<>();
                List<String> from = schema.tables(scratch);
                List<String> to = schema.tables(prefix);
                for (int i = 0; i < from.size(); i++) {
                    renames.add(from.get(i) + " TO " + to.get(i));
                }
                s.execute("RENAME TABLE " + String.join(", ", renames));
                // statistics of the full tables: with those InnoDB kept from the first rows, MariaDB 11.4 joins
                // schema 2 by scanning averageStats for every block of measurementsId rows (docs/experiments.md)
                try (ResultSet ignored = s.executeQuery("ANALYZE TABLE " + String.join(", ", to))) {
                    // the result is one status row per table
                }
                return new Result(schema, dataSet, dataSet.runs().size(), rows, Duration.ofNanos(System.nanoTime() - started));
            } catch (SQLException e) {
                try {
                    dropAll(s, schema, scratch);
                } catch (SQLException ignored) {
                    // the connection may be gone; the next load drops the scratch tables first
                }
                if (stop.requested() && !replacing) {
                    // a cancelled statement fails with the server's "interrupted": what counts is what is left
                    throw new LoadStop.Interrupted(String.format(Locale.ROOT, "schema %d: %,d of %,d result rows had been sent"
                            + " into its scratch tables (%s*), which are dropped; nothing of it was loaded: its tables are as"
                            + " they were before the load", schema.number(), results == null ? 0 : results.sent, dataSet.totalRows(), scratch));
                }
                throw e;
            } finally {
                stop.running(null);
            }
        }
    }

    /**
     * The data set a schema's read tables were loaded with, from their results table's comment;
     * a one-line error when the schema is not loaded.
     */
    public static QosReadDataSet loaded(JdbcTarget target, QosSchema schema) throws SQLException {
        String table = schema.results(schema.prefix(QosSchema.READ_BASE));
        try (Connection c = target.connect(0); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT table_comment FROM information_schema.tables WHERE table_schema = DATABASE()"
                     + " AND table_name = '" + table + "'")) {
            java.util.regex.Matcher m = r.next() ? java.util.regex.Pattern.compile("scale ([0-9.Ee-]+), seed (-?[0-9]+)")
                    .matcher(r.getString(1)) : null;
            if (m == null || !m.find()) {
                throw new IllegalArgumentException("schema " + schema.number() + " has no read data set here (" + table
                        + "): run 'queuelab load --relation qos' first");
            }
            return new QosReadDataSet(Double.parseDouble(m.group(1)), Long.parseLong(m.group(2)));
        }
    }

    /** Drops a schema's tables under a prefix, children first. */
    static void dropAll(Statement s, QosSchema schema, String prefix) throws SQLException {
        List<String> tables = new ArrayList<>(schema.tables(prefix));
        java.util.Collections.reverse(tables);
        for (String t : tables) {
            s.execute("DROP TABLE IF EXISTS " + t);
        }
    }

    private long fill(Statement s, QosSchema schema, String prefix, QosReadDataSet dataSet) throws SQLException {
        results = new Batch(s, "INSERT INTO " + schema.results(prefix) + " (" + resultHead(schema) + ") VALUES ");
        Batch secondary = schema == QosSchema.THREE ? new Batch(s, "INSERT INTO " + schema.secondary(prefix)
                + " (result_id, measurement_id, " + String.join(", ", QosColumns.SECONDARY) + ") VALUES ") : null;
        Batch measurements = schema == QosSchema.ONE ? null : new Batch(s, "INSERT INTO " + schema.measurements(prefix)
                + " (measurement_id, " + String.join(", ", QosColumns.ID) + ") VALUES ");
        int mainCount = QosColumns.MAIN.size();
        long resultId = 0;
        for (QosReadDataSet.Run run : dataSet.runs()) {
            stop.check("");
            QosReadDataSet.RunRows rows = dataSet.rows(run);
            long[] id = rows.id();
            if (measurements != null) {
                StringBuilder row = measurements.row().append(run.customerId());
                for (long v : id) {
                    row.append(',').append(v);
                }
                measurements.endRow();
                measurements.flush(); // parents before children: the foreign keys are checked
            }
            while (rows.hasNext()) {
                int[] values = rows.next();
                resultId++;
                StringBuilder row = results.row().append(resultId);
                if (schema == QosSchema.ONE) {
                    for (long v : id) {
                        row.append(',').append(v);
                    }
                } else {
                    row.append(',').append(run.customerId());
                }
                int last = schema == QosSchema.THREE ? mainCount : values.length;
                for (int i = 0; i < last; i++) {
                    row.append(',').append(values[i]);
                }
                results.endRow();
                if (secondary != null) {
                    StringBuilder second = secondary.row().append(resultId).append(',').append(run.customerId());
                    for (int i = mainCount; i < values.length; i++) {
                        second.append(',').append(values[i]);
                    }
                    secondary.endRow(); // flushes right after results did: its mainStats rows exist
                }
            }
        }
        results.flush();
        if (secondary != null) {
            secondary.flush();
        }
        return resultId;
    }

    private static String resultHead(QosSchema schema) {
        return "result_id, " + (schema == QosSchema.ONE ? String.join(", ", QosColumns.ID) : "measurement_id")
                + ", " + String.join(", ", schema.resultColumns());
    }

    /** A multi-row INSERT being built; sent when it holds {@value #ROWS_PER_INSERT} rows. */
    private static final class Batch {
        private final Statement statement;
        private final String head;
        private final StringBuilder sql = new StringBuilder(ROWS_PER_INSERT * 400);
        private int rows;
        private long sent; // rows sent to the server, the INSERT under way included

        Batch(Statement statement, String head) {
            this.statement = statement;
            this.head = head;
        }

        StringBuilder row() {
            sql.append(rows == 0 ? head : ",").append('(');
            return sql;
        }

        boolean full() {
            return rows >= ROWS_PER_INSERT;
        }

        void endRow() throws SQLException {
            sql.append(')');
            rows++;
            if (full()) {
                flush();
            }
        }

        void flush() throws SQLException {
            if (rows > 0) {
                sent += rows;
                statement.executeUpdate(sql.toString());
                sql.setLength(0);
                rows = 0;
            }
        }
    }
}
