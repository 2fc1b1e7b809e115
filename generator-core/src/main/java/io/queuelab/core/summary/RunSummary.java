package io.queuelab.core.summary;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.log.RunDirectory;

import io.queuelab.core.run.LogTotals;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * The figures of one run: the one definition that {@code queuelab summary} prints and the report
 * ({@code reports/data/RunData}) shows, so the two cannot disagree on a run. Built by one pass of
 * an {@link Accumulator} over the records, in memory constant in the log's length.
 *
 * <p>Definitions (every figure but the log's accounting is of the records outside warm-up, the
 * <em>measured</em> records):
 * <ul>
 *   <li><b>accounting</b>: {@link #records}, {@link #warmupRecords} and {@link #outcomes} count
 *       every record of the log, warm-up included: what the manifest's totals count.</li>
 *   <li><b>outcomes</b>: {@link #measuredOutcomes}, the measured records by outcome name. A
 *       request is <b>ok</b> when its outcome is ok and it has both an intended and a completion
 *       instant (an ok record without them, which no reader gives, counts as unfinished).</li>
 *   <li><b>latency</b>: of the ok measured requests only: response time = completed - intended
 *       (coordinated-omission safe; a negative one counts as 0), service time = completed - sent
 *       and queue wait = sent - intended where the send instant is known; HdrHistograms for the
 *       percentiles, exact sums for the means.</li>
 *   <li><b>measured span</b>: from the first intended instant of a measured record to the last
 *       instant of one (its completion, or its intended instant when it never completed), so
 *       every counted arrival and completion lies inside it.</li>
 *   <li><b>arrival rate</b>: (arrivals - 1) / (last - first intended instant) of the measured
 *       records, the rate of the schedule that ran (n arrivals span n - 1 gaps).</li>
 *   <li><b>throughput</b>: ok measured requests / the measured span: completions per second,
 *       X = C / T with every completion counted inside T.</li>
 * </ul>
 */
public final class RunSummary {
    /** Per operation name. */
    public final Map<String, LatencyStats> byOperation = new TreeMap<>();
    public final LatencyStats all = new LatencyStats();
    /** Every record per outcome name (ok, dropped, unfinished, error classes), warm-up included: the log's accounting. */
    public final Map<String, Long> outcomes = new TreeMap<>();
    /** The measured records (outside warm-up) per outcome name. */
    public final Map<String, Long> measuredOutcomes = new TreeMap<>();
    /** The measured records that did not succeed per outcome name (dropped, unfinished, errors). */
    private final Map<String, Long> notOk = new TreeMap<>();
    /** The warm-up records per outcome name. */
    public final Map<String, Long> warmupOutcomes = new TreeMap<>();
    public long records;
    public long warmupRecords;
    /** Measured records with an intended instant. */
    public long arrivals;
    /** Measured window (ns after anchor): first and last intended instant, and the last instant of a measured record. */
    public long firstIntended = Long.MAX_VALUE;
    public long lastIntended = Long.MIN_VALUE;
    public long lastInstant = Long.MIN_VALUE;
    public long truncatedBytes;
    /** One line per problem of the log (damage, torn tail, no end mark, a count that differs from the manifest's). */
    public List<String> logProblems = List.of();
    /** Per outcome name other than ok: the intended instants (ns after the anchor) of its first and last measured request. */
    public final Map<String, long[]> outcomeWindows = new TreeMap<>();
    public long anchorEpochNanos;

    private RunSummary() {
    }

    /** The summary of a run directory, its log checked against the manifest's count where there is one. */
    public static RunSummary of(RunDirectory dir) throws IOException {
        try (RequestLogReader reader = dir.openLog()) {
            return of(reader, expectedRecords(dir));
        }
    }

    /** The manifest's count of scheduled requests, or -1 when the run has no readable manifest or no totals. */
    public static long expectedRecords(RunDirectory dir) {
        try {
            return dir.manifest().totals().map(LogTotals::scheduled).orElse(-1L);
        } catch (IOException noManifest) {
            return -1;
        }
    }

    public static RunSummary of(RequestLogReader reader) throws IOException {
        return of(reader, -1);
    }

    private static RunSummary of(RequestLogReader reader, long expectedRecords) throws IOException {
        Accumulator figures = new Accumulator();
        while (reader.next()) {
            figures.add(reader.intended(), reader.sent(), reader.completed(), reader.operation(), reader.outcome(), reader.warmup());
        }
        RunSummary s = figures.finish(reader::operationName, reader::outcomeName);
        s.anchorEpochNanos = reader.anchorEpochNanos();
        s.truncatedBytes = reader.truncatedBytes();
        s.logProblems = reader.problems(expectedRecords);
        return s;
    }

    /**
     * Takes the records of a log one by one, whatever reads them (a request log, a CSV log of
     * another tool), and gives the {@link RunSummary} of them. Nothing is allocated per record.
     */
    public static final class Accumulator {
        private static final int CODES = 256;
        private final LatencyStats[] ops = new LatencyStats[CODES];
        private final long[] outcomeCounts = new long[CODES];
        private final long[] measuredCounts = new long[CODES];
        private final long[] warmupCounts = new long[CODES];
        private final long[] firstOf = new long[CODES];
        private final long[] lastOf = new long[CODES];
        private long records;
        private long warmupRecords;
        private long arrivals;
        private long firstIntended = Long.MAX_VALUE;
        private long lastIntended = Long.MIN_VALUE;
        private long lastInstant = Long.MIN_VALUE;

        public Accumulator() {
            java.util.Arrays.fill(firstOf, Long.MAX_VALUE);
            java.util.Arrays.fill(lastOf, Long.MIN_VALUE);
        }

        /**
         * One record: its instants (ns after the log's origin, {@link LogFormat#NONE} when they never
         * happened), operation and outcome codes, and whether it belongs to a warm-up phase.
         */
        public void add(long intended, long sent, long completed, int operation, int outcome, boolean warmup) {
            records++;
            boolean ok = outcome == LogFormat.OK && intended != LogFormat.NONE && completed != LogFormat.NONE;
            int counted = outcome == LogFormat.OK && !ok ? LogFormat.UNFINISHED : outcome;
            outcomeCounts[counted]++;
            if (warmup) {
                warmupRecords++;
                warmupCounts[counted]++;
                return;
            }
            measuredCounts[counted]++;
            if (intended != LogFormat.NONE) {
                arrivals++;
                firstIntended = Math.min(firstIntended, intended);
                lastIntended = Math.max(lastIntended, intended);
                lastInstant = Math.max(lastInstant, intended);
                firstOf[counted] = Math.min(firstOf[counted], intended);
                lastOf[counted] = Math.max(lastOf[counted], intended);
            }
            if (completed != LogFormat.NONE) {
                lastInstant = Math.max(lastInstant, completed);
            }
            if (!ok) {
                return;
            }
            LatencyStats stats = ops[operation & 0xFF];
            if (stats == null) {
                stats = ops[operation & 0xFF] = new LatencyStats();
            }
            stats.record(completed - intended, sent == LogFormat.NONE ? -1 : completed - sent,
                    sent == LogFormat.NONE ? -1 : sent - intended);
        }

        /** The summary of the records added, operations and outcomes named by the log's dictionaries. */
        public RunSummary finish(IntFunction<String> operationName, IntFunction<String> outcomeName) {
            RunSummary s = new RunSummary();
            s.records = records;
            s.warmupRecords = warmupRecords;
            s.arrivals = arrivals;
            s.firstIntended = firstIntended;
            s.lastIntended = lastIntended;
            s.lastInstant = lastInstant;
            for (int op = 0; op < CODES; op++) {
                if (ops[op] != null) {
                    s.byOperation.put(operationName.apply(op), ops[op]);
                    s.all.add(ops[op]);
                }
            }
            for (int code = 0; code < CODES; code++) {
                if (outcomeCounts[code] == 0) {
                    continue;
                }
                String name = outcomeName.apply(code);
                put(s.outcomes, name, outcomeCounts[code]);
                put(s.measuredOutcomes, name, measuredCounts[code]);
                put(s.warmupOutcomes, name, warmupCounts[code]);
                if (code != LogFormat.OK) {
                    put(s.notOk, name, measuredCounts[code]);
                }
                if (code != LogFormat.OK && measuredCounts[code] > 0 && firstOf[code] <= lastOf[code]) {
                    s.outcomeWindows.put(name, new long[] {firstOf[code], lastOf[code]});
                }
            }
            return s;
        }

        private static void put(Map<String, Long> counts, String name, long count) {
            if (count > 0) {
                counts.merge(name, count, Long::sum);
            }
        }
    }

    /** Every record of this outcome, warm-up included (the log's accounting). */
    public long count(String outcome) {
        return outcomes.getOrDefault(outcome, 0L);
    }

    /** The measured records (outside warm-up) of this outcome. */
    public long measuredCount(String outcome) {
        return measuredOutcomes.getOrDefault(outcome, 0L);
    }

    /** Successful measured requests: the population of the latency figures. */
    public long okCount() {
        return all.response.getTotalCount();
    }

    /** The measured requests that did not succeed, by outcome name (dropped, unfinished, errors). */
    public Map<String, Long> notOkByOutcome() {
        return java.util.Collections.unmodifiableMap(notOk);
    }

    /** Measured requests that did not succeed (dropped, unfinished, errors). */
    public long notOkCount() {
        return records - warmupRecords - okCount();
    }

    /** The measured span in seconds (class comment); 0 without measured arrivals. */
    public double spanSeconds() {
        return arrivals == 0 ? 0 : (lastInstant - firstIntended) / 1e9;
    }

    /** Arrivals per second of the measured records (class comment); NaN with fewer than two or no span. */
    public double arrivalRate() {
        double span = (lastIntended - firstIntended) / 1e9;
        return arrivals < 2 || span <= 0 ? Double.NaN : (arrivals - 1) / span;
    }

    /** Successful measured requests per second over the measured span (class comment); NaN without a span. */
    public double throughput() {
        double span = spanSeconds();
        return span <= 0 ? Double.NaN : okCount() / span;
    }

    /** Exact mean response time of the ok measured requests, seconds; NaN without any. */
    public double meanResponseSeconds() {
        return all.meanResponseNanos() / 1e9;
    }
}
