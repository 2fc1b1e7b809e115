package io.queuelab.cassandra.workload;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
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
import java.util.function.Consumer;
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

    /** Rows per page of a range read: the driver's default page, so a long range streams through the check. */
    static final int PAGE_ROWS = 5_000;

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
            long last = start + Math.min(length, spec.limit()) - 1; // the LIMIT keeps the first values
            if (readIndexed != null) {
                // partitions come in token order: the rows are sorted by time before the check
                int cells = spec.rangeMax() / valuesPerCell + 2;
                return context.read(readIndexed.bind(sensor, firstCellTimestamp(start), timestamp(end)), cells)
                        .thenAccept(rows -> {
                            RangeCheck check = new RangeCheck(sensor, start, last);
                            rows.stream().sorted(Comparator.comparingLong(row -> row.getLong(0))).forEach(check);
                            check.finish();
                        });
            }
            return bucketsOverlapping(sensor, timestamp(start), timestamp(end))
                    .thenCompose(buckets -> readBuckets(sensor, buckets, start, end, last));
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

        /**
         * Reads the buckets in parallel, each checked as its pages arrive against the part of the
         * range it holds (a bucket holds values [first, first + timewidth) of its sensor).
         */
        private CompletionStage<Void> readBuckets(int sensor, List<Long> buckets, long start, long end, long last) {
            long low = firstCellTimestamp(start);
            int cells = spec.layout() == Layout.TYPED ? spec.limit() : spec.limit() / valuesPerCell + 2;
            List<CompletableFuture<Void>> reads = new ArrayList<>();
            for (long bucket : buckets) {
                long first = indexAt(bucket);
                RangeCheck check = new RangeCheck(sensor, Math.max(start, first), Math.min(last, first + spec.timewidth() - 1));
                reads.add(context.stream(readRange.bind(sensor, bucket, low, timestamp(end), cells), PAGE_ROWS, check)
                        .thenRun(check::finish).toCompletableFuture());
            }
            return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new));
        }

        /** The timestamp of the cell holding value {@code start} (a blob may begin before it). */
        private long firstCellTimestamp(long start) {
            return timestamp(start / valuesPerCell * valuesPerCell);
        }

        /**
         * The check of one range read, row by row as they arrive in time order: values
         * [from, to] of a sensor, each exactly once, each equal to what was written. A blob cell
         * may begin before the range, and cells after {@code to} (beyond the LIMIT, or in the
         * next bucket) are not this check's. No object per row or value.
         */
        private final class RangeCheck implements Consumer<Row> {
            private final int sensor;
            private final long from;
            private final long to;
            private long next;

            RangeCheck(int sensor, long from, long to) {
                this.sensor = sensor;
                this.from = from;
                this.to = to;
                this.next = from;
            }

            @Override
            public void accept(Row row) {
                // the columns' own codecs on their raw bytes: Row.getLong/getDouble would look the
                // codec up in the registry for every cell, a third of a 10,000-row read's client CPU
                ProtocolVersion version = row.protocolVersion();
                long first = indexAt(TypeCodecs.BIGINT.decodePrimitive(row.getBytesUnsafe(0), version));
                if (spec.layout() == Layout.TYPED) {
                    ByteBuffer cell = row.getBytesUnsafe(1);
                    if (cell == null) {
                        throw new WrongResultException("value " + first + " of sensor " + sensor + " is null");
                    }
                    value(first, TypeCodecs.DOUBLE.decodePrimitive(cell, version));
                    return;
                }
                ByteBuffer blob = row.getBytesUnsafe(1);
                if (blob == null || blob.remaining() != valuesPerCell * Double.BYTES) {
                    throw new WrongResultException("a blob cell holds " + (blob == null ? 0 : blob.remaining())
                            + " bytes, expected " + valuesPerCell * Double.BYTES);
                }
                int at = blob.position();
                for (int j = 0; j < valuesPerCell; j++) {
                    value(first + j, blob.getDouble(at + j * Double.BYTES));
                }
            }

            private void value(long index, double value) {
                if (index < from || index > to) {
                    return;
                }
                if (index != next || value != TimeSeriesWorkload.value(sensor, index)) {
                    throw new WrongResultException("sensor " + sensor + " range [" + from + ", " + to + "]: value " + next
                            + " expected " + TimeSeriesWorkload.value(sensor, next) + ", got index " + index + " = " + value);
                }
                next++;
            }

            void finish() {
                if (next != to + 1 && from <= to) {
                    throw new WrongResultException("sensor " + sensor + " range [" + from + ", " + to + "]: expected "
                            + (to - from + 1) + " values, got " + (next - from));
                }
            }
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
