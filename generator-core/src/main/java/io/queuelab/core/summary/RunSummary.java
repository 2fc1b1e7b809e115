package io.queuelab.core.summary;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.log.RunDirectory;

import io.queuelab.core.run.LogTotals;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One pass over a request log: counts per outcome, and per operation the latency histograms of
 * successful requests outside warm-up phases. Constant memory in the log's length.
 */
public final class RunSummary {
    /** Per operation name. */
    public final Map<String, LatencyStats> byOperation = new TreeMap<>();
    public final LatencyStats all = new LatencyStats();
    /** Requests per outcome name (ok, dropped, unfinished, error classes), warm-up included. */
    public final Map<String, Long> outcomes = new TreeMap<>();
    public long records;
    public long warmupRecords;
    /** Measured window: first intended to last completion of a non-warm-up request (ns after anchor). */
    public long firstIntended = Long.MAX_VALUE;
    public long lastCompleted = Long.MIN_VALUE;
    public long truncatedBytes;
    /** One line per problem of the log (damage, torn tail, no end mark, a count that differs from the manifest's). */
    public List<String> logProblems = List.of();
    /** Per outcome name other than ok: the intended instants (ns after the anchor) of its first and last request. */
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
        RunSummary s = new RunSummary();
        s.anchorEpochNanos = reader.anchorEpochNanos();
        LatencyStats[] ops = new LatencyStats[128];
        long[] outcomeCounts = new long[256];
        long[] firstOf = new long[256];
        long[] lastOf = new long[256];
        while (reader.next()) {
            s.records++;
            int outcome = reader.outcome();
            if (outcomeCounts[outcome]++ == 0) {
                firstOf[outcome] = reader.intended();
            }
            firstOf[outcome] = Math.min(firstOf[outcome], reader.intended());
            lastOf[outcome] = Math.max(lastOf[outcome], reader.intended());
            if (reader.warmup()) {
                s.warmupRecords++;
                continue;
            }
            s.firstIntended = Math.min(s.firstIntended, reader.intended());
            if (reader.completed() != LogFormat.NONE) {
                s.lastCompleted = Math.max(s.lastCompleted, reader.completed());
            }
            if (reader.outcome() != LogFormat.OK) {
                continue;
            }
            int op = reader.operation();
            LatencyStats stats = ops[op];
            if (stats == null) {
                stats = ops[op] = new LatencyStats();
            }
            long sent = reader.sent();
            stats.record(reader.completed() - reader.intended(),
                    sent == LogFormat.NONE ? -1 : reader.completed() - sent,
                    sent == LogFormat.NONE ? -1 : sent - reader.intended());
        }
        for (int op = 0; op < ops.length; op++) {
            if (ops[op] != null) {
                s.byOperation.put(reader.operationName(op), ops[op]);
                s.all.add(ops[op]);
            }
        }
        for (int code = 0; code < outcomeCounts.length; code++) {
            if (outcomeCounts[code] > 0) {
                s.outcomes.put(reader.outcomeName(code), outcomeCounts[code]);
                if (code != LogFormat.OK) {
                    s.outcomeWindows.put(reader.outcomeName(code), new long[] {firstOf[code], lastOf[code]});
                }
            }
        }
        s.truncatedBytes = reader.truncatedBytes();
        s.logProblems = reader.problems(expectedRecords);
        return s;
    }

    public long count(String outcome) {
        return outcomes.getOrDefault(outcome, 0L);
    }

    /** Successful non-warm-up requests per second over the measured window. */
    public double okRate() {
        long n = all.response.getTotalCount();
        if (n == 0 || lastCompleted <= firstIntended) {
            return 0;
        }
        return n * 1e9 / (lastCompleted - firstIntended);
    }
}
