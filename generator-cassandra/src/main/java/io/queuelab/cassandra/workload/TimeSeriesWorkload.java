package io.queuelab.cassandra.workload;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.queuelab.cassandra.WrongResultException;
import io.queuelab.cassandra.workload.TimeSeriesSpec.IndexTechnique;
import io.queuelab.cassandra.workload.TimeSeriesSpec.Layout;
import io.queuelab.core.backend.OperationMix;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Seed 003's sensor time series (see {@link TimeSeriesSpec}). Every value is a pure function of
 * (sensor, index), so a range read checks each returned timestamp and value against what was
 * written; a mismatch fails the request with {@link WrongResultException}.
 */
public final class TimeSeriesWorkload implements CqlWorkload {
    static final long BASE_TIMESTAMP = 1_600_000_000_000L;
    static final long STEP_MILLIS = 10;
    static final String READ = "range_read";
    static final String WRITE = "write";

    private final TimeSeriesSpec spec;

    public TimeSeriesWorkload(TimeSeriesSpec spec) {
        this.spec = spec;
    }

    public TimeSeriesSpec spec() {
        return spec;
    }

    @Override
    public OperationMix operations() {
        return spec.scenario().mix(READ, WRITE, spec.readRatio());
    }

    @Override
    public List<String> schema() {
        String valueType = spec.layout() == Layout.TYPED ? "double" : "blob";
        List<String> ddl = new ArrayList<>();
        ddl.add("CREATE TABLE IF NOT EXISTS " + spec.table() + " (sensor int, bucket bigint, ts bigint, value "
                + valueType + ", PRIMARY KEY ((sensor, bucket), ts))");
        if (spec.index() == IndexTechnique.SEPARATE_TABLE) {
            ddl.add("CREATE TABLE IF NOT EXISTS " + spec.table() + "_meta (sensor int, bucket bigint, PRIMARY KEY (sensor, bucket))");
        }
        if (spec.index() == IndexTechnique.SECONDARY) {
            for (String column : List.of("sensor", "ts")) {
                ddl.add("CREATE INDEX IF NOT EXISTS " + spec.table() + "_" + column + " ON " + spec.table()
                        + " (" + column + ") USING 'sai'");
            }
        }
        return ddl;
    }

    @Override
    public String datasetKey() {
        return spec.table() + "/sensors=" + spec.sensors() + "/preload=" + spec.preload();
    }

    @Override
    public Map<String, Object> describe() {
        return spec.describe();
    }

    @Override
    public PreparedWorkload prepare(CqlContext context) {
        return new Prepared(context);
    }

    /** The timestamp (ms) of value {@code index} of every sensor. */
    public static long timestamp(long index) {
        return BASE_TIMESTAMP + index * STEP_MILLIS;
    }

    static long indexAt(long timestamp) {
        return (timestamp - BASE_TIMESTAMP) / STEP_MILLIS;
    }

    /** Value {@code index} of sensor {@code sensor}: the same on every run. */
    public static double value(int sensor, long index) {
        return new SplittableRandom(((long) sensor << 40) ^ index).nextDouble() * 100;
    }

    private final class Prepared implements PreparedWorkload {
        private final CqlContext context;
        private final int valuesPerCell = spec.valuesPerCell();
        private final long preloadedCells = spec.preload() / valuesPerCell;
        private final AtomicLong writesIssued = new AtomicLong();
        private final PreparedStatement insert;
        private final PreparedStatement insertMeta;
        private final PreparedStatement findBuckets;
        private final PreparedStatement readRange;
        private final PreparedStatement readIndexed;

        Prepared(CqlContext context) {
            this.context = context;
            String table = spec.table();
            insert = context.prepare("INSERT INTO " + table + " (sensor, bucket, ts, value) VALUES (?, ?, ?, ?)");
            readRange = context.prepare("SELECT ts, value FROM " + table
                    + " WHERE sensor = ? AND bucket = ? AND ts >= ? AND ts <= ? LIMIT ?");
            switch (spec.index()) {
                case SAME_TABLE -> {
                    insertMeta = context.prepare("INSERT INTO " + table + " (sensor, bucket, ts) VALUES (?, -1, ?)");
                    findBuckets = context.prepare("SELECT ts FROM " + table
                            + " WHERE sensor = ? AND bucket = -1 AND ts <= ? ORDER BY ts DESC LIMIT ?");
                }
                case SEPARATE_TABLE -> {
                    insertMeta = context.prepare("INSERT INTO " + table + "_meta (sensor, bucket) VALUES (?, ?)");
                    findBuckets = context.prepare("SELECT bucket FROM " + table
                            + "_meta WHERE sensor = ? AND bucket <= ? ORDER BY bucket DESC LIMIT ?");
                }
                case NONE -> {
                    insertMeta = null;
                    findBuckets = context.prepare("SELECT DISTINCT sensor, bucket FROM " + table);
                }
                default -> {
                    insertMeta = null;
                    findBuckets = null;
                }
            }
            // The index returns partitions in token order, not in time order, so a server-side LIMIT
            // would keep an arbitrary part of a range that crosses buckets: it asks for every cell of
            // the longest range, and the client applies the LIMIT after sorting by time.
            readIndexed = spec.index() != IndexTechnique.SECONDARY ? null : context.prepare("SELECT ts, value FROM "
                    + table + " WHERE sensor = ? AND ts >= ? AND ts <= ? LIMIT " + (spec.rangeMax() / valuesPerCell + 2));
        }

        @Override
        public void load() throws Exception {
            int sensors = spec.sensors();
            context.loadAll(sensors * preloadedCells,
                    k -> writeCell((int) (k % sensors), k / sensors, context::load));
        }

        @Override
        public OperationIssuer issuer(long seed) {
            SplittableRandom random = new SplittableRandom(seed);
            return operation -> {
                if (spec.scenario().isRead(operation)) {
                    int sensor = random.nextInt(spec.sensors());
                    int length = random.nextInt(spec.rangeMin(), spec.rangeMax() + 1);
                    long start = random.nextLong(spec.preload() - length + 1);
                    return rangeRead(sensor, start, length);
                }
                // appends after the preloaded values, round-robin over the sensors, never twice the same cell
                long write = writesIssued.getAndIncrement();
                return writeCell((int) (write % spec.sensors()), preloadedCells + write / spec.sensors(),
                        context::write);
            };
        }

        /** Writes cell {@code cell} of a sensor, plus the bucket's metadata when the cell opens a bucket. */
        private CompletionStage<Void> writeCell(int sensor, long cell,
                                                Function<BoundStatement, CompletionStage<AsyncResultSet>> execute) {
            long first = cell * valuesPerCell;
            long bucket = timestamp(first / spec.timewidth() * spec.timewidth());
            Object value = spec.layout() == Layout.TYPED ? (Object) value(sensor, first) : blob(sensor, first);
            CompletionStage<Void> data = execute.apply(insert.bind(sensor, bucket, timestamp(first), value))
                    .thenApply(ignored -> null);
            if (insertMeta == null || first % spec.timewidth() != 0) {
                return data;
            }
            return data.thenCombine(execute.apply(insertMeta.bind(sensor, bucket)), (a, b) -> null);
        }

        private ByteBuffer blob(int sensor, long first) {
            ByteBuffer blob = ByteBuffer.allocate(valuesPerCell * Double.BYTES);
            for (int j = 0; j < valuesPerCell; j++) {
                blob.putDouble(value(sensor, first + j));
            }
            return blob.flip();
        }

        private CompletionStage<Void> rangeRead(int sensor, long start, int length) {
            long end = start + length - 1;
            if (readIndexed != null) {
                int cells = spec.rangeMax() / valuesPerCell + 2;
                return context.read(readIndexed.bind(sensor, firstCellTimestamp(start), timestamp(end)), cells)
                        .thenAccept(rows -> check(sensor, start, end, rows.stream()
                                .sorted(Comparator.comparingLong(row -> row.getLong(0))).toList()));
            }
            return bucketsOverlapping(sensor, timestamp(start), timestamp(end))
                    .thenCompose(buckets -> readBuckets(sensor, buckets, start, end))
                    .thenAccept(rows -> check(sensor, start, end, rows));
        }

        private CompletionStage<List<Long>> bucketsOverlapping(int sensor, long startTs, long endTs) {
            CompletionStage<List<Long>> starts;
            if (spec.index() == IndexTechnique.NONE) {
                starts = context.read(findBuckets.bind(), 5_000).thenApply(rows -> rows.stream()
                        .filter(row -> row.getInt(0) == sensor)
                        .map(row -> row.getLong(1))
                        .toList());
            } else {
                // count-based buckets: a range of n values spans at most n / timewidth + 2 buckets
                int bucketsNeeded = spec.rangeMax() / spec.timewidth() + 2;
                starts = context.read(findBuckets.bind(sensor, endTs, bucketsNeeded), bucketsNeeded)
                        .thenApply(rows -> rows.stream().map(row -> row.getLong(0)).toList());
            }
            return starts.thenApply(list -> overlapping(sensor, list, startTs, endTs));
        }

        private CompletionStage<List<Row>> readBuckets(int sensor, List<Long> buckets, long start, long end) {
            long low = firstCellTimestamp(start);
            int cells = spec.layout() == Layout.TYPED ? spec.limit() : spec.limit() / valuesPerCell + 2;
            List<CompletableFuture<List<Row>>> reads = new ArrayList<>();
            for (long bucket : buckets) {
                reads.add(context.read(readRange.bind(sensor, bucket, low, timestamp(end), cells), cells)
                        .toCompletableFuture());
            }
            return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(ignored -> {
                List<Row> rows = new ArrayList<>();
                reads.forEach(read -> rows.addAll(read.join()));
                return rows;
            });
        }

        /** The timestamp of the cell holding value {@code start} (a blob may begin before it). */
        private long firstCellTimestamp(long start) {
            return timestamp(start / valuesPerCell * valuesPerCell);
        }

        private void check(int sensor, long start, long end, List<Row> rows) {
            long expected = Math.min(end - start + 1, spec.limit());
            long checked = 0;
            for (Row row : rows) {
                long first = indexAt(row.getLong(0));
                double[] values = decode(row);
                for (int j = 0; j < values.length && checked < expected; j++) {
                    long index = first + j;
                    if (index < start) {
                        continue; // a blob may begin before the range
                    }
                    if (index != start + checked || values[j] != value(sensor, index)) {
                        throw new WrongResultException("sensor " + sensor + " range [" + start + ", " + end
                                + "]: value " + (start + checked) + " expected " + value(sensor, start + checked)
                                + ", got index " + index + " = " + values[j]);
                    }
                    checked++;
                }
            }
            if (checked != expected) {
                throw new WrongResultException("sensor " + sensor + " range [" + start + ", " + end + "]: expected "
                        + expected + " values, got " + checked);
            }
        }

        private double[] decode(Row row) {
            if (spec.layout() == Layout.TYPED) {
                return new double[] {row.getDouble(1)};
            }
            ByteBuffer blob = row.getByteBuffer(1);
            if (blob == null || blob.remaining() != valuesPerCell * Double.BYTES) {
                throw new WrongResultException("a blob cell holds " + (blob == null ? 0 : blob.remaining())
                        + " bytes, expected " + valuesPerCell * Double.BYTES);
            }
            double[] values = new double[valuesPerCell];
            blob.asDoubleBuffer().get(values);
            return values;
        }
    }

    /** The bucket starts from {@code starts} whose buckets hold part of [startTs, endTs], ascending. */
    static List<Long> overlapping(int sensor, List<Long> starts, long startTs, long endTs) {
        List<Long> sorted = starts.stream().sorted().toList();
        long floor = Long.MIN_VALUE;
        for (long start : sorted) {
            if (start <= startTs) {
                floor = start;
            }
        }
        if (floor == Long.MIN_VALUE) {
            throw new WrongResultException("no partition of sensor " + sensor + " holds timestamp " + startTs);
        }
        long from = floor;
        return sorted.stream().filter(start -> start >= from && start <= endTs).toList();
    }
}
