package io.queuelab.core.summary;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes HdrHistogram interval logs ({@code <operation>.hlog}), one per operation, of the
 * response time (completion - intended, ns) of successful non-warm-up requests, in intervals of
 * completion time. HdrHistogram's own {@code HistogramLogProcessor} reads them. Memory is bounded:
 * an interval is written once completions have moved {@value #LATE_INTERVALS} intervals past it.
 */
public final class HlogExport {
    private static final int LATE_INTERVALS = 10;

    private HlogExport() {
    }

    /** Returns the files written. */
    public static List<Path> write(RequestLogReader reader, Path dir, long intervalNanos) throws IOException {
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("interval must be positive");
        }
        Map<Integer, Series> series = new HashMap<>();
        try {
            while (reader.next()) {
                if (reader.outcome() != LogFormat.OK || reader.warmup()) {
                    continue;
                }
                int op = reader.operation();
                Series s = series.get(op);
                if (s == null) {
                    s = new Series(dir.resolve(fileName(reader.operationName(op))), reader.anchorEpochNanos(), intervalNanos);
                    series.put(op, s);
                }
                s.record(reader.completed(), reader.completed() - reader.intended());
            }
        } finally {
            for (Series s : series.values()) {
                s.close();
            }
        }
        List<Path> files = new ArrayList<>();
        for (Series s : series.values()) {
            files.add(s.file);
        }
        return files;
    }

    static String fileName(String operation) {
        return operation.replaceAll("[^A-Za-z0-9._-]", "_") + ".hlog";
    }

    private static final class Series {
        final Path file;
        final PrintStream out;
        final HistogramLogWriter log;
        final long intervalNanos;
        final long anchorMillis;
        final TreeMap<Long, Histogram> open = new TreeMap<>();

        Series(Path file, long anchorEpochNanos, long intervalNanos) throws IOException {
            this.file = file;
            this.out = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8);
            this.log = new HistogramLogWriter(out);
            this.intervalNanos = intervalNanos;
            this.anchorMillis = anchorEpochNanos / 1_000_000;
            log.outputLogFormatVersion();
            log.outputStartTime(anchorMillis);
            log.setBaseTime(anchorMillis);
            log.outputBaseTime(anchorMillis);
            log.outputLegend();
        }

        void record(long completed, long response) {
            long interval = Math.floorDiv(completed, intervalNanos);
            open.computeIfAbsent(interval, k -> LatencyStats.newHistogram()).recordValue(Math.max(0, response));
            while (open.firstKey() < open.lastKey() - LATE_INTERVALS) {
                emit(open.pollFirstEntry());
            }
        }

        private void emit(Map.Entry<Long, Histogram> e) {
            Histogram h = e.getValue();
            long startMs = anchorMillis + e.getKey() * intervalNanos / 1_000_000;
            h.setStartTimeStamp(startMs);
            h.setEndTimeStamp(startMs + intervalNanos / 1_000_000);
            log.outputIntervalHistogram(h);
        }

        void close() {
            while (!open.isEmpty()) {
                emit(open.pollFirstEntry());
            }
            out.close();
        }
    }
}
