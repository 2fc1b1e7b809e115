package io.queuelab.core.summary;

import io.queuelab.core.log.AtomicFile;
import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
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
 *
 * <p>All or nothing: the files are written beside their names ({@code NAME.tmp}) and moved over
 * them only once every one is complete, so a failure (a disk that fills) leaves no file cut short
 * and names the file it could not write.
 */
public final class HlogExport {
    private static final int LATE_INTERVALS = 10;

    private HlogExport() {
    }

    /** Returns the files written; replaces existing ones (as {@code write(reader, dir, intervalNanos, true)}). */
    public static List<Path> write(RequestLogReader reader, Path dir, long intervalNanos) throws IOException {
        return write(reader, dir, intervalNanos, true);
    }

    /**
     * Returns the files written. Unless {@code replace}, an existing target found when the files
     * are complete is refused ({@link FileAlreadyExistsException}) and none is written.
     */
    public static List<Path> write(RequestLogReader reader, Path dir, long intervalNanos, boolean replace) throws IOException {
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
            for (Series s : series.values()) {
                s.finish();
            }
            if (!replace) {
                for (Series s : series.values()) {
                    if (Files.exists(s.file, LinkOption.NOFOLLOW_LINKS)) {
                        throw new FileAlreadyExistsException(s.file.toString(), null,
                                "already exists (choose a new one, or --force to replace it)");
                    }
                }
            }
            List<Path> files = new ArrayList<>();
            for (Series s : series.values()) {
                AtomicFile.commit(s.temporary, s.file);
                files.add(s.file);
            }
            return files;
        } catch (IOException | RuntimeException e) {
            for (Series s : series.values()) {
                s.discard();
            }
            throw e;
        }
    }

    static String fileName(String operation) {
        return operation.replaceAll("[^A-Za-z0-9._-]", "_") + ".hlog";
    }

    private static final class Series {
        final Path file;
        final Path temporary;
        final FailureKeepingStream sink;
        final PrintStream out;
        final HistogramLogWriter log;
        final long intervalNanos;
        final long anchorMillis;
        final TreeMap<Long, Histogram> open = new TreeMap<>();

        Series(Path file, long anchorEpochNanos, long intervalNanos) throws IOException {
            this.file = file;
            this.temporary = AtomicFile.temporary(file);
            this.sink = new FailureKeepingStream(new BufferedOutputStream(Files.newOutputStream(temporary)));
            this.out = new PrintStream(sink, false, StandardCharsets.UTF_8);
            this.log = new HistogramLogWriter(out);
            this.intervalNanos = intervalNanos;
            this.anchorMillis = anchorEpochNanos / 1_000_000;
            log.outputLogFormatVersion();
            log.outputStartTime(anchorMillis);
            log.setBaseTime(anchorMillis);
            log.outputBaseTime(anchorMillis);
            log.outputLegend();
        }

        void record(long completed, long response) throws IOException {
            long interval = Math.floorDiv(completed, intervalNanos);
            open.computeIfAbsent(interval, k -> LatencyStats.newHistogram()).recordValue(Math.max(0, response));
            while (open.firstKey() < open.lastKey() - LATE_INTERVALS) {
                emit(open.pollFirstEntry());
            }
            failIfWriteFailed();
        }

        private void emit(Map.Entry<Long, Histogram> e) {
            Histogram h = e.getValue();
            long startMs = anchorMillis + e.getKey() * intervalNanos / 1_000_000;
            h.setStartTimeStamp(startMs);
            h.setEndTimeStamp(startMs + intervalNanos / 1_000_000);
            log.outputIntervalHistogram(h);
        }

        /** Writes the intervals still open and closes the file; throws if any write failed. */
        void finish() throws IOException {
            while (!open.isEmpty()) {
                emit(open.pollFirstEntry());
            }
            out.close();
            failIfWriteFailed();
        }

        // PrintStream (which HistogramLogWriter writes through) swallows write errors
        private void failIfWriteFailed() throws IOException {
            if (out.checkError()) {
                IOException failure = sink.failure != null ? sink.failure : new IOException("a write failed");
                throw AtomicFile.naming(file, failure);
            }
        }

        void discard() throws IOException {
            out.close();
            Files.deleteIfExists(temporary);
        }
    }

    /** Keeps the first write failure, which the PrintStream above it would otherwise swallow. */
    private static final class FailureKeepingStream extends FilterOutputStream {
        IOException failure;

        FailureKeepingStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                keep(e);
                throw e;
            }
        }

        @Override
        public void write(int b) throws IOException {
            try {
                out.write(b);
            } catch (IOException e) {
                keep(e);
                throw e;
            }
        }

        @Override
        public void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                keep(e);
                throw e;
            }
        }

        @Override
        public void close() throws IOException {
            try {
                out.close();
            } catch (IOException e) {
                keep(e);
                throw e;
            }
        }

        private void keep(IOException e) {
            if (failure == null) {
                failure = e;
            }
        }
    }
}
