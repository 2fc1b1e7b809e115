package io.queuelab.fit.runs;

import io.queuelab.core.log.LogFormat;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A cursor over the requests of one run, whatever stored them (a queuelab request log or a CSV
 * log of another tool). Times are nanoseconds after a fixed origin of the source; a time that is
 * unknown is {@link LogFormat#NONE}. Nothing is allocated per record.
 */
public interface RequestSource extends Closeable {

    /** Advances to the next request; false at the end. */
    boolean next() throws IOException;

    /** Scheduled (intended) instant, or the start instant when the tool knows no schedule. */
    long intended();

    /** Send instant, or {@link LogFormat#NONE}. */
    long sent();

    /** Completion instant, or {@link LogFormat#NONE} for a request that never completed. */
    long completed();

    /** Outcome code: {@link LogFormat#OK}, dropped, unfinished or an error class. */
    int outcome();

    String outcomeName(int code);

    boolean warmup();

    /** Operation code; 0 where the source knows one operation only. */
    default int operation() {
        return 0;
    }

    /** The name of an operation code. */
    default String operationName(int code) {
        return "request";
    }

    /** Index of the run's phase the request belongs to; 0 where the source knows no phases. */
    default int phase() {
        return 0;
    }

    /**
     * Opens a run directory (holding {@code requests.qlog}), a queuelab request log file, or a
     * CSV request log ({@code docs/csv-logs.md}).
     */
    /**
     * After the last {@link #next()}: one line per problem of the log (damage, a torn tail, a count
     * that differs from {@code expectedRecords}, -1 when unknown); none for an intact log, or for a
     * format that cannot tell.
     */
    default java.util.List<String> problems(long expectedRecords) {
        return java.util.List.of();
    }

    static RequestSource open(Path path) throws IOException {
        if (Files.isDirectory(path)) {
            return QlogRequestSource.open(path.resolve(LogFormat.FILE_NAME));
        }
        if (!Files.isRegularFile(path)) {
            throw new IOException("no run directory or request log at " + path);
        }
        String name = path.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        if (name.endsWith(".csv") || name.endsWith(".csv.gz") || name.endsWith(".jtl")) {
            return CsvRequestSource.open(path);
        }
        return QlogRequestSource.open(path);
    }
}
