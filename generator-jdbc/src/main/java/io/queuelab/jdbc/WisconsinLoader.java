package io.queuelab.jdbc;

import com.mysql.cj.jdbc.JdbcStatement;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * Creates and fills a {@link WisconsinRelation} fast: the tuples are generated in unique2 order
 * straight into the primary key (LOAD DATA LOCAL from an in-memory stream, or multi-row INSERTs
 * when the server forbids LOCAL), and the unique1 index is built once after the load.
 *
 * <p>Guarantees: the relation is filled under a scratch name and renamed into place only when
 * complete, so a failed or interrupted load never leaves a half-filled table under the relation's
 * name (it leaves no table of that name, or the previous one).
 */
public final class WisconsinLoader {
    private static final int ROWS_PER_INSERT = 2_000;

    /** How the tuples travel to the server. */
    public enum Method {
        /** LOAD DATA LOCAL INFILE from a generated stream (needs local_infile=ON on the server). */
        LOCAL_INFILE,
        /** INSERT statements of {@value #ROWS_PER_INSERT} rows each. */
        MULTI_ROW_INSERT
    }

    /** What a load did and how long its phases took. */
    public record Result(WisconsinRelation relation, WisconsinRelation.Engine engine, Method method,
                         Duration fill, Duration index) {
        public Duration total() {
            return fill.plus(index);
        }
    }

    private final JdbcTarget target;
    private final LoadStop stop;
    private final java.util.concurrent.atomic.AtomicLong sent = new java.util.concurrent.atomic.AtomicLong();

    public WisconsinLoader(JdbcTarget target) {
        this(target, new LoadStop());
    }

    /** A loader that ends with {@link LoadStop.Interrupted} soon after {@code stop} is requested. */
    public WisconsinLoader(JdbcTarget target, LoadStop stop) {
        this.target = target;
        this.stop = stop;
    }

    /** Loads with LOCAL_INFILE where the server allows it, else with multi-row INSERTs. */
    public Result load(WisconsinRelation relation, WisconsinRelation.Engine engine) throws SQLException {
        try (Connection c = target.connectForLoading()) {
            return load(c, relation, engine, localInfileAllowed(c) ? Method.LOCAL_INFILE : Method.MULTI_ROW_INSERT);
        }
    }

    /** Loads with the given method. */
    public Result load(WisconsinRelation relation, WisconsinRelation.Engine engine, Method method) throws SQLException {
        try (Connection c = target.connectForLoading()) {
            return load(c, relation, engine, method);
        }
    }

    private Result load(Connection c, WisconsinRelation relation, WisconsinRelation.Engine engine, Method method) throws SQLException {
        String scratch = relation.table() + "__loading";
        sent.set(0);
        try (Statement s = c.createStatement()) {
            stop.running(s);
            String kept = "the table " + relation.table() + " is as it was before the load";
            stop.check("nothing was loaded: " + kept);
            s.execute("SET SESSION unique_checks = 0");
            s.execute("DROP TABLE IF EXISTS " + scratch);
            s.execute(relation.createTableSql(scratch, engine));
            long start = System.nanoTime();
            int[] unique1 = relation.unique1ByUnique2();
            boolean replacing = false;
            try {
                if (method == Method.LOCAL_INFILE) {
                    // not cancelled on the server: a killed LOAD DATA rolls back every row it took (~40 s for 5
                    // million seen), while the stream's early end commits them at once into the scratch table dropped next
                    stop.running(null);
                    loadInfile(s, scratch, unique1);
                    stop.running(s);
                } else {
                    loadInserts(s, scratch, unique1);
                }
                long filled = System.nanoTime();
                stop.check("");
                s.execute(relation.addUnique1IndexSql(scratch));
                long indexed = System.nanoTime();
                stop.check(""); // the last point of return: after it the relation is replaced as a whole
                stop.running(null); // a DROP done and a RENAME cancelled would leave no relation at all
                replacing = true;
                s.execute("DROP TABLE IF EXISTS " + relation.table());
                s.execute("RENAME TABLE " + scratch + " TO " + relation.table());
                return new Result(relation, engine, method, Duration.ofNanos(filled - start), Duration.ofNanos(indexed - filled));
            } catch (SQLException e) {
                if (stop.requested() && !replacing) {
                    // a cancelled statement fails with the server's "interrupted": what counts is what is left
                    throw new LoadStop.Interrupted(String.format(java.util.Locale.ROOT,
                            "%,d of %,d tuples had been sent into the scratch table %s, which is dropped; nothing was loaded: %s",
                            sent.get(), unique1.length, scratch, kept));
                }
                throw e;
            }
        } catch (SQLException e) {
            dropQuietly(c, scratch);
            throw e;
        } finally {
            stop.running(null);
        }
    }

    private void loadInfile(Statement s, String table, int[] unique1) throws SQLException {
        s.unwrap(JdbcStatement.class).setLocalInfileInputStream(new TupleStream(unique1, stop, sent));
        long loaded = s.executeLargeUpdate("LOAD DATA LOCAL INFILE 'queuelab-wisconsin.tsv' INTO TABLE " + table
                + " CHARACTER SET latin1 (" + String.join(",", WisconsinRelation.COLUMNS) + ")");
        if (loaded != unique1.length) {
            stop.check(""); // the stream ended early at the request
            throw new SQLException("LOAD DATA loaded " + loaded + " of " + unique1.length + " tuples into " + table);
        }
    }

    private void loadInserts(Statement s, String table, int[] unique1) throws SQLException {
        String head = "INSERT INTO " + table + " (" + String.join(",", WisconsinRelation.COLUMNS) + ") VALUES ";
        StringBuilder sql = new StringBuilder(ROWS_PER_INSERT * 260);
        for (int from = 0; from < unique1.length; from += ROWS_PER_INSERT) {
            stop.check("");
            sql.setLength(0);
            sql.append(head);
            int to = Math.min(unique1.length, from + ROWS_PER_INSERT);
            for (int unique2 = from; unique2 < to; unique2++) {
                if (unique2 > from) {
                    sql.append(',');
                }
                WisconsinRelation.appendSqlRow(sql, unique1[unique2], unique2);
            }
            s.executeUpdate(sql.toString());
            sent.set(to);
        }
    }

    private static boolean localInfileAllowed(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT @@GLOBAL.local_infile")) {
            return r.next() && r.getInt(1) == 1;
        }
    }

    private static void dropQuietly(Connection c, String table) {
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + table);
        } catch (SQLException ignored) {
            // the connection itself may be gone; the scratch table is replaced by the next load
        }
    }

    /** The tuples as LOAD DATA text, generated on demand in unique2 order (no temporary file). */
    private static final class TupleStream extends InputStream {
        private static final int ROWS_PER_CHUNK = 1_000;
        private final int[] unique1;
        private final LoadStop stop;
        private final java.util.concurrent.atomic.AtomicLong sent;
        private final StringBuilder text = new StringBuilder(ROWS_PER_CHUNK * 240);
        private byte[] chunk = new byte[0];
        private int position;
        private int nextUnique2;

        TupleStream(int[] unique1, LoadStop stop, java.util.concurrent.atomic.AtomicLong sent) {
            this.unique1 = unique1;
            this.stop = stop;
            this.sent = sent;
        }

        @Override
        public int read() {
            if (!fill()) {
                return -1;
            }
            return chunk[position++] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            if (length == 0) {
                return 0;
            }
            if (!fill()) {
                return -1;
            }
            int n = Math.min(length, chunk.length - position);
            System.arraycopy(chunk, position, buffer, offset, n);
            position += n;
            return n;
        }

        private boolean fill() {
            if (position < chunk.length) {
                return true;
            }
            sent.set(nextUnique2); // every chunk before this one has been handed to the driver
            if (nextUnique2 >= unique1.length || stop.requested()) {
                return false; // at a stop request the stream ends early: the server's LOAD DATA ends with it
            }
            text.setLength(0);
            int to = Math.min(unique1.length, nextUnique2 + ROWS_PER_CHUNK);
            for (; nextUnique2 < to; nextUnique2++) {
                WisconsinRelation.appendTsv(text, unique1[nextUnique2], nextUnique2);
            }
            chunk = text.toString().getBytes(StandardCharsets.ISO_8859_1);
            position = 0;
            return true;
        }
    }
}
