package io.queuelab.fit.runs;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * What a MariaDB/MySQL server counted of its commits and fsyncs over a run, from the
 * {@code server-status.csv} its sampler wrote beside the log: the commits (Com_update + Com_insert,
 * each an autocommit statement's commit; Com_commit for explicit ones) and the fsyncs
 * (Innodb_data_fsyncs: the redo log's, and the few of the data files) between the file's first
 * and last samples. Their ratio is the commits one fsync carried on average: a group commit's
 * size, which a group-commit model predicts apart from any response time.
 *
 * @param commits the commits counted between the first and the last sample
 * @param fsyncs  the fsyncs counted between them
 * @param seconds the time between them
 */
public record LogCounters(long commits, long fsyncs, double seconds) {
    /** The fewest fsyncs a ratio is taken from: below, one fsync more or less moves it by more than 1 %. */
    public static final long MIN_FSYNCS = 100;

    /** Commits per fsync over the run. */
    public double commitsPerFsync() {
        return (double) commits / fsyncs;
    }

    /**
     * The counters of {@code run}: empty without a server-status file, without the counters in it,
     * with fewer than two samples, or with fewer than {@link #MIN_FSYNCS} fsyncs or no commit
     * between them (a read-only workload), or when a counter went down (the server restarted).
     */
    public static Optional<LogCounters> of(RunData run) throws IOException {
        Path file = run.source().resolve(ServerTelemetry.JDBC_FILE);
        if (!Files.isDirectory(run.source()) || !Files.isRegularFile(file)) {
            return Optional.empty();
        }
        String[] first = null;
        String[] last = null;
        List<String> header;
        try (BufferedReader in = Files.newBufferedReader(file)) {
            String line = in.readLine();
            if (line == null) {
                return Optional.empty();
            }
            header = Arrays.asList(line.split(",", -1));
            for (line = in.readLine(); line != null; line = in.readLine()) {
                if (!line.isBlank()) {
                    last = line.split(",", -1);
                    first = first == null ? last : first;
                }
            }
        }
        int time = header.indexOf("epoch_ns"), fsync = header.indexOf("Innodb_data_fsyncs");
        List<Integer> commitColumns = java.util.stream.Stream.of("Com_update", "Com_insert", "Com_commit").map(header::indexOf)
                .filter(i -> i >= 0).toList();
        if (first == null || first == last || time < 0 || fsync < 0 || commitColumns.isEmpty()) {
            return Optional.empty();
        }
        try {
            long commits = 0;
            for (int c : commitColumns) {
                commits += increase(first, last, c);
            }
            long fsyncs = increase(first, last, fsync);
            double seconds = (Long.parseLong(last[time]) - Long.parseLong(first[time])) / 1e9;
            if (commits <= 0 || fsyncs < MIN_FSYNCS || !(seconds > 0)) {
                return Optional.empty();
            }
            return Optional.of(new LogCounters(commits, fsyncs, seconds));
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException unreadable) {
            return Optional.empty(); // a torn last line, or a counter the server did not give: no counters
        }
    }

    private static long increase(String[] first, String[] last, int column) {
        if (first[column].isEmpty() || last[column].isEmpty()) {
            return 0;
        }
        long d = Long.parseLong(last[column]) - Long.parseLong(first[column]);
        if (d < 0) {
            throw new NumberFormatException("counter went down");
        }
        return d;
    }
}
