package io.queuelab.cassandra.workload;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The sensor time-series workload of seed 003, as data.
 *
 * <p>Sensor {@code s} has values 0, 1, 2, ... at timestamps {@code BASE + i * STEP} ms. A partition
 * holds {@code timewidth} consecutive values of one sensor (count-based bucket; key = sensor and the
 * bucket's first timestamp); rows cluster by timestamp. Before a run, {@code preload} values of each
 * sensor are written; reads pick a sensor, a range length uniform in [{@code rangeMin},
 * {@code rangeMax}] and a uniform start inside the preloaded values, and ask for at most
 * {@code limit} values. Writes append after the preloaded values, round-robin over the sensors.
 *
 * @param layout     one typed value per cell, or {@code batchSize} values joined into one blob cell
 * @param batchSize  values per blob in the batched layout (150 in seed 003); 1 in the typed layout
 * @param index      how a reader finds a range's partitions
 * @param scenario   write, read or mixed
 * @param readRatio  share of reads in the mixed scenario
 */
public record TimeSeriesSpec(Layout layout, int batchSize, IndexTechnique index, Scenario scenario,
                             double readRatio, int sensors, int timewidth, int preload,
                             int rangeMin, int rangeMax, int limit) {

    /** How values are stored. */
    public enum Layout { TYPED, BATCHED }

    /** How a reader finds the partitions of a time range (seed 003: SCF, DCF, none). */
    public enum IndexTechnique {
        /** Metadata rows in the same table: partition (sensor, -1) lists the bucket starts. */
        SAME_TABLE,
        /** Metadata in a separate table {@code <table>_meta} (sensor, bucket). */
        SEPARATE_TABLE,
        /** No index: scan the distinct partition keys of the table. */
        NONE,
        /**
         * Storage-attached secondary indexes (Cassandra 5's SAI) on {@code sensor} and {@code ts}: a
         * range read is one query naming no partition, and the server finds the rows (seed 003's
         * "secondary indexing" variant, there with a legacy index and ALLOW FILTERING).
         */
        SECONDARY
    }

    public TimeSeriesSpec {
        require(sensors >= 1, "--sensors must be >= 1, was " + sensors);
        require(layout == Layout.TYPED ? batchSize == 1 : batchSize >= 2,
                "--batch-size must be >= 2 for the batched layout (and is 1 for typed), was " + batchSize);
        require(timewidth >= 1 && timewidth % batchSize == 0,
                "--timewidth must be a positive multiple of --batch-size " + batchSize + ", was " + timewidth);
        require(preload >= 0 && preload % batchSize == 0,
                "--preload must be a multiple of --batch-size " + batchSize + ", was " + preload);
        require(rangeMin >= 1 && rangeMin <= rangeMax, "need 1 <= --range-min <= --range-max, was "
                + rangeMin + ".." + rangeMax);
        require(limit >= 1, "--limit must be >= 1, was " + limit);
        require(scenario == Scenario.WRITE || preload >= rangeMax,
                "reads need --preload >= --range-max (" + preload + " < " + rangeMax + ")");
    }

    /** Seed 003's values: typed layout, metadata in the same table, timewidth 100,000, ranges 9,000-10,000, LIMIT 10,000. */
    public static TimeSeriesSpec seedDefaults(Scenario scenario) {
        return new TimeSeriesSpec(Layout.TYPED, 1, IndexTechnique.SAME_TABLE, scenario, 0.25, 4, 100_000,
                30_000, 9_000, 10_000, 10_000);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    /** Values per written cell: 1 (typed) or the batch size. */
    int valuesPerCell() {
        return batchSize;
    }

    /** The table name, unique per layout, batch size, index technique and timewidth. */
    public String table() {
        String layoutName = layout == Layout.TYPED ? "typed" : "batched" + batchSize;
        String indexName = switch (index) {
            case SAME_TABLE -> "same";
            case SEPARATE_TABLE -> "separate";
            case NONE -> "none";
            case SECONDARY -> "sai";
        };
        return "ts_" + layoutName + "_" + indexName + "_tw" + timewidth;
    }

    Map<String, Object> describe() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("schema", "timeseries");
        d.put("table", table());
        d.put("layout", layout.name().toLowerCase(Locale.ROOT));
        d.put("batch_size", batchSize);
        d.put("index", index.name().toLowerCase(Locale.ROOT));
        d.put("scenario", scenario.name().toLowerCase(Locale.ROOT));
        if (scenario == Scenario.MIXED) {
            d.put("read_ratio", readRatio);
        }
        d.put("sensors", sensors);
        d.put("timewidth", timewidth);
        d.put("preload_per_sensor", preload);
        d.put("range_min", rangeMin);
        d.put("range_max", rangeMax);
        d.put("limit", limit);
        return d;
    }
}
