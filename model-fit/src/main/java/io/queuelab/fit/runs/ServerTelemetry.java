package io.queuelab.fit.runs;

import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.ScheduleStart;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The server telemetry of a measured run, on the clock of its request log: instants in seconds
 * after the log's anchor (the manifest's {@code start.anchorEpochNanos}), the x axis of the
 * response-time-vs-time chart. Reads what the samplers write into the run directory:
 * {@code server-status.csv} of the JDBC backend (InnoDB dirty pages, and pages flushed per second
 * from the counter's increments) and {@code cassandra-thread-pools.csv} of the Cassandra backend
 * (memtable flushes per second and compactions running, summed over the nodes).
 *
 * @param axisTitle what the values measure (one axis for all series)
 * @param series    name -> {instants (s), values}, each non-empty
 */
public record ServerTelemetry(String axisTitle, Map<String, double[][]> series) {
    static final String JDBC_FILE = "server-status.csv";
    static final String CASSANDRA_FILE = "cassandra-thread-pools.csv";

    /** The run's telemetry, if its directory has any and its manifest gives the log's anchor. */
    public static Optional<ServerTelemetry> of(RunData run) throws IOException {
        Path dir = run.source();
        long anchor = run.manifest().flatMap(Manifest::start).map(ScheduleStart::anchorEpochNanos).orElse(Long.MIN_VALUE);
        if (!Files.isDirectory(dir) || anchor == Long.MIN_VALUE) {
            return Optional.empty();
        }
        if (Files.isRegularFile(dir.resolve(JDBC_FILE))) {
            return Optional.of(innodb(dir.resolve(JDBC_FILE), anchor)).filter(t -> !t.series().isEmpty());
        }
        if (Files.isRegularFile(dir.resolve(CASSANDRA_FILE))) {
            return Optional.of(cassandra(dir.resolve(CASSANDRA_FILE), anchor)).filter(t -> !t.series().isEmpty());
        }
        return Optional.empty();
    }

    static ServerTelemetry innodb(Path csv, long anchorEpochNanos) throws IOException {
        List<String[]> rows = read(csv);
        List<String> header = Arrays.asList(rows.get(0));
        int dirty = header.indexOf("Innodb_buffer_pool_pages_dirty");
        int flushed = header.indexOf("Innodb_buffer_pool_pages_flushed");
        List<double[]> samples = new ArrayList<>(); // {t, dirty, flushed}
        for (String[] row : rows.subList(1, rows.size())) {
            samples.add(new double[] {(Long.parseLong(row[0]) - anchorEpochNanos) / 1e9, value(row, dirty), value(row, flushed)});
        }
        Map<String, double[][]> series = new LinkedHashMap<>();
        putIfAny(series, "dirty pages", gauge(samples, 1));
        putIfAny(series, "pages flushed/s", rate(samples, 2));
        return new ServerTelemetry("InnoDB pages", series);
    }

    static ServerTelemetry cassandra(Path csv, long anchorEpochNanos) throws IOException {
        List<String[]> rows = read(csv);
        List<String> header = Arrays.asList(rows.get(0));
        int epoch = header.indexOf("epoch_ns"), pool = header.indexOf("pool"), active = header.indexOf("active"),
                completed = header.indexOf("completed");
        // one sample instant per epoch_ns: the nodes' values summed
        TreeMap<Long, double[]> byInstant = new TreeMap<>(); // {flushes completed, compactions active}
        for (String[] row : rows.subList(1, rows.size())) {
            double[] sums = byInstant.computeIfAbsent(Long.parseLong(row[epoch]), k -> new double[2]);
            if (row[pool].equals("MemtableFlushWriter")) {
                sums[0] += value(row, completed);
            } else if (row[pool].equals("CompactionExecutor")) {
                sums[1] += value(row, active);
            }
        }
        List<double[]> samples = new ArrayList<>(); // {t, flushes completed, compactions active}
        byInstant.forEach((t, sums) -> samples.add(new double[] {(t - anchorEpochNanos) / 1e9, sums[0], sums[1]}));
        Map<String, double[][]> series = new LinkedHashMap<>();
        putIfAny(series, "memtable flushes/s", rate(samples, 1));
        putIfAny(series, "compactions running", gauge(samples, 2));
        return new ServerTelemetry("Cassandra", series);
    }

    private static List<String[]> read(Path csv) throws IOException {
        List<String[]> rows = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(csv)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (!line.isBlank()) {
                    rows.add(line.split(",", -1));
                }
            }
        }
        if (rows.isEmpty() || !rows.get(0)[0].equals("epoch_ns")) {
            throw new IOException(csv + " is not a telemetry file (no epoch_ns header)");
        }
        return rows;
    }

    private static double value(String[] row, int column) {
        return column < 0 || column >= row.length || row[column].isEmpty() ? Double.NaN : Double.parseDouble(row[column]);
    }

    private static double[][] gauge(List<double[]> samples, int column) {
        return points(samples.stream().filter(s -> !Double.isNaN(s[column])).map(s -> new double[] {s[0], s[column]}).toList());
    }

    /** A counter's increase per second between consecutive samples, drawn at the later one; a reset (restart) is skipped. */
    private static double[][] rate(List<double[]> samples, int column) {
        List<double[]> points = new ArrayList<>();
        for (int i = 1; i < samples.size(); i++) {
            double[] a = samples.get(i - 1), b = samples.get(i);
            double dt = b[0] - a[0], increase = b[column] - a[column];
            if (dt > 0 && increase >= 0) {
                points.add(new double[] {b[0], increase / dt});
            }
        }
        return points(points);
    }

    private static double[][] points(List<double[]> points) {
        return new double[][] {points.stream().mapToDouble(p -> p[0]).toArray(), points.stream().mapToDouble(p -> p[1]).toArray()};
    }

    private static void putIfAny(Map<String, double[][]> series, String name, double[][] xy) {
        if (xy[0].length > 0) {
            series.put(name, xy);
        }
    }
}
