package io.queuelab.jdbc.qos;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seed 000's read data set (its Table 4.3): 556 measurement runs, 1 of 600,000 rows, 5 of 86,400,
 * 50 of 10,000 and 500 of 1,000 (2,032,000 rows), customer_id = the run's number (1 to 556, the
 * long run first), at {@code scale} times those row counts (at least one row a run).
 *
 * <p>Guarantees, for a scale and a seed: the values are the same on every call and in every
 * schema (each run draws from its own stream, seeded by the seed and the run, so the order in
 * which runs are generated does not matter); in row k (0-based) of a run the counting columns
 * ({@link QosColumns#COUNTING}) are k, so {@code ul_delay < x} selects min(x, rows) rows of every
 * run; the identification values are the same for all rows of a run; all other results are
 * uniform in [0, 1,000,000).
 */
public record QosReadDataSet(double scale, long seed) {
    /** Table 4.3: number of runs and rows per run. */
    private static final int[][] GROUPS = {{1, 600_000}, {5, 86_400}, {50, 10_000}, {500, 1_000}};
    /** 2013-01-01T00:00:00Z in ms: the first run's start. */
    private static final long EPOCH_MS = 1_356_998_400_000L;

    public QosReadDataSet {
        if (!(scale > 0 && scale <= 1)) {
            throw new IllegalArgumentException("--scale must be in (0, 1] (1 = the seed's 2,032,000 rows), not " + scale);
        }
    }

    /** One measurement run: its customer id (= its number) and row count. */
    public record Run(int customerId, int rows) {
    }

    /** The runs in customer-id order. */
    public List<Run> runs() {
        List<Run> runs = new ArrayList<>();
        int customer = 1;
        for (int[] group : GROUPS) {
            int rows = Math.max(1, (int) Math.round(group[1] * scale));
            for (int i = 0; i < group[0]; i++) {
                runs.add(new Run(customer++, rows));
            }
        }
        return runs;
    }

    /** Rows of all runs. */
    public long totalRows() {
        return runs().stream().mapToLong(Run::rows).sum();
    }

    /** The rows of one run, generated in order. */
    public RunRows rows(Run run) {
        return new RunRows(run, seed);
    }

    /** A run's identification values and its result rows, drawn from the run's own stream. */
    public static final class RunRows {
        private final Run run;
        private final SplittableRandom random;
        private final long[] id;
        private final int[] results = new int[QosColumns.RESULTS.size()];
        private int next;

        RunRows(Run run, long seed) {
            this.run = run;
            this.random = new SplittableRandom(seed * 1_000_003L + run.customerId());
            this.id = identification(run.customerId(), run.rows(), random);
        }

        /** The 13 identification values, in {@link QosColumns#ID} order. */
        public long[] id() {
            return id;
        }

        public boolean hasNext() {
            return next < run.rows();
        }

        /** The next row's 48 results in {@link QosColumns#RESULTS} order (the array is reused). */
        public int[] next() {
            QosColumns.line(results, next++, random);
            return results;
        }
    }

    /** Identification values of a measurement with plausible ranges; customer_id and the times as given. */
    static long[] identification(int customerId, int rows, SplittableRandom random) {
        long start = EPOCH_MS + customerId * 3_600_000L + random.nextInt(3_600_000);
        return new long[] {
                customerId,
                1 + random.nextInt(1000),                       // probe_id
                random.nextLong(1L << 32),                      // primary_address
                random.nextLong(1L << 32),                      // secondary_address
                1024 + random.nextInt(64_512),                  // primary_port
                1024 + random.nextInt(64_512),                  // secondary_port
                random.nextBoolean() ? 6 : 17,                  // protocol
                random.nextInt(64),                             // dscp
                random.nextInt(8),                              // traffic_type
                random.nextInt(3),                              // direction
                1000,                                           // averaging_ms: one result a second
                start,
                start + rows * 1000L                            // end_time
        };
    }
}
