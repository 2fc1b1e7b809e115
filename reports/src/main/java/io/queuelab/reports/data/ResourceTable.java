package io.queuelab.reports.data;

import io.queuelab.core.telemetry.ResourceUse;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Seed 002's Table IV and weighted score for a set of runs, one row per run, from each run's
 * host resources (and, for the network, the server's own byte counters: MariaDB's in
 * {@code server-status.csv}, InfluxDB's in {@code influxdb-stats.csv}).
 *
 * <p>The score is the paper's: each column divided by its maximum over the rows, multiplied by the
 * column's weight ({@link #WEIGHTS}: server CPU 2, server RAM 0.25, client CPU 2.5, client RAM 0.25,
 * disk I/O 2.5, disk footprint 0.5, network 1.5) and summed to points; score = max(points) - points,
 * as a percentage of the largest score. The paper's eighth column, the subjective difficulty of
 * writing the client (weight 0.2), is not measured and left out.
 *
 * @param rows one per run, in the order given
 */
public record ResourceTable(List<Row> rows) {
    static final double[] WEIGHTS = {2, 0.25, 2.5, 0.25, 2.5, 0.5, 1.5};
    static final String SERVER_STATUS = "server-status.csv";
    static final String INFLUXDB_STATS = "influxdb-stats.csv";

    /**
     * One run's resource use over its sampled span.
     *
     * @param serverCpuPercent  server CPU, percent of one core
     * @param serverRssBytes    server resident memory, largest sample
     * @param clientCpuPercent  client (generator) CPU, percent of one core
     * @param clientRssBytes    client resident memory, largest sample
     * @param diskIoBytesPerSecond server bytes read + written to storage per second
     * @param diskGrowthBytes   growth of the server's data directory
     * @param netBytesPerSecond received + sent per second
     * @param netSource         where the network figure comes from
     */
    public record Row(String run, double seconds, double serverCpuPercent, double serverRssBytes, double clientCpuPercent,
                      double clientRssBytes, double diskIoBytesPerSecond, double diskGrowthBytes, double netBytesPerSecond,
                      String netSource) {
        double[] columns() {
            return new double[] {serverCpuPercent, serverRssBytes, clientCpuPercent, clientRssBytes, diskIoBytesPerSecond,
                    diskGrowthBytes, netBytesPerSecond};
        }
    }

    /** The table of the given run directories; a run without host resources or a server process is an error. */
    public static ResourceTable of(List<Path> runs) throws IOException {
        List<Row> rows = new ArrayList<>();
        for (Path run : runs) {
            ResourceUse use = ResourceUse.read(run).orElseThrow(() -> new IOException(
                    run + " has no host-resources.csv (run it with --telemetry-interval)"));
            ResourceUse.Samples server = use.processes().get("server");
            ResourceUse.Samples client = use.processes().get("client");
            if (server == null || client == null) {
                throw new IOException(run + ": host-resources.csv has no " + (server == null ? "server" : "client")
                        + " process (a local server: the embedded MariaDB, an influxd the run started, or --server-pid)");
            }
            double[] mariadb = counterRate(run.resolve(SERVER_STATUS), "Bytes_received", "Bytes_sent");
            double[] influx = counterRate(run.resolve(INFLUXDB_STATS), "writeReqBytes", "queryRespBytes");
            boolean own = !Double.isNaN(mariadb[0]) || !Double.isNaN(influx[0]);
            double[] ownNet = !Double.isNaN(mariadb[0]) ? mariadb : influx;
            String ownSource = !Double.isNaN(mariadb[0]) ? "server's Bytes_received + Bytes_sent"
                    : "InfluxDB's writeReqBytes + queryRespBytes (HTTP bodies)";
            rows.add(new Row(run.getFileName().toString(), server.spanSeconds(), server.cpuPercent(), server.maxRssBytes(),
                    client.cpuPercent(), client.maxRssBytes(), server.readBytesPerSecond() + server.writeBytesPerSecond(),
                    server.dataDirGrowthBytes(), own ? ownNet[0] : server.netBytesPerSecond(),
                    own ? ownSource : "network namespace (every process on it)"));
        }
        return new ResourceTable(rows);
    }

    /** {bytes per second} of two byte counters of a server's own statistics file summed, NaN without them. */
    static double[] counterRate(Path csv, String receivedCounter, String sentCounter) throws IOException {
        if (!Files.isRegularFile(csv)) {
            return new double[] {Double.NaN};
        }
        List<String[]> rows = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(csv)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                rows.add(line.split(",", -1));
            }
        }
        List<String> header = rows.isEmpty() ? List.of() : Arrays.asList(rows.get(0));
        int received = header.indexOf(receivedCounter), sent = header.indexOf(sentCounter);
        if (received < 0 || sent < 0 || rows.size() < 3) {
            return new double[] {Double.NaN};
        }
        String[] first = rows.get(1), last = rows.get(rows.size() - 1);
        double seconds = (Long.parseLong(last[0]) - Long.parseLong(first[0])) / 1e9;
        double bytes = Double.parseDouble(last[received]) + Double.parseDouble(last[sent])
                - Double.parseDouble(first[received]) - Double.parseDouble(first[sent]);
        return new double[] {bytes / seconds};
    }

    /** The paper's points of each row (weighted sum of the columns relative to their maxima). */
    public double[] points() {
        double[] max = new double[WEIGHTS.length];
        for (Row r : rows) {
            double[] c = r.columns();
            for (int i = 0; i < c.length; i++) {
                max[i] = Math.max(max[i], c[i]);
            }
        }
        double[] points = new double[rows.size()];
        for (int k = 0; k < rows.size(); k++) {
            double[] c = rows.get(k).columns();
            for (int i = 0; i < c.length; i++) {
                points[k] += max[i] > 0 ? WEIGHTS[i] * c[i] / max[i] : 0;
            }
        }
        return points;
    }

    /** Score = max(points) - points, in percent of the largest score (all 0 when the rows tie). */
    public double[] scores() {
        double[] points = points();
        double top = Arrays.stream(points).max().orElse(0);
        double[] scores = Arrays.stream(points).map(p -> top - p).toArray();
        double best = Arrays.stream(scores).max().orElse(0);
        return Arrays.stream(scores).map(s -> best > 0 ? 100 * s / best : 0).toArray();
    }

    /** The table, the score and the ratios of the first run to each other, as text. */
    public String render() {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-16s %7s %9s %9s %9s %9s %11s %11s %11s %7s %7s%n",
                "run", "span s", "CPU_S %", "RSS_S MB", "CPU_C %", "RSS_C MB", "IO kB/s", "disk MB", "net Mbit/s", "points", "score"));
        double[] points = points(), scores = scores();
        for (int k = 0; k < rows.size(); k++) {
            Row r = rows.get(k);
            b.append(String.format(Locale.ROOT, "%-16s %7.0f %9.2f %9.1f %9.2f %9.1f %11.1f %11.1f %11.3f %7.2f %7.0f%n", r.run(),
                    r.seconds(), r.serverCpuPercent(), r.serverRssBytes() / 1e6, r.clientCpuPercent(), r.clientRssBytes() / 1e6,
                    r.diskIoBytesPerSecond() / 1e3, r.diskGrowthBytes() / 1e6, r.netBytesPerSecond() * 8 / 1e6, points[k], scores[k]));
        }
        b.append("weights 2, 0.25, 2.5, 0.25, 2.5, 0.5, 1.5 (seed 002; its difficulty column, weight 0.2, is not measured)\n");
        for (Row r : rows) {
            b.append("network of ").append(r.run()).append(": ").append(r.netSource()).append('\n');
        }
        Row first = rows.get(0);
        for (Row r : rows.subList(1, rows.size())) {
            b.append(String.format(Locale.ROOT, "%s / %s: server CPU %.1fx, disk I/O %.1fx, disk footprint %.1fx, network %.1fx,"
                            + " client CPU %.1fx%n", first.run(), r.run(), first.serverCpuPercent() / r.serverCpuPercent(),
                    first.diskIoBytesPerSecond() / r.diskIoBytesPerSecond(), first.diskGrowthBytes() / r.diskGrowthBytes(),
                    first.netBytesPerSecond() / r.netBytesPerSecond(), first.clientCpuPercent() / r.clientCpuPercent()));
        }
        return b.toString();
    }
}
