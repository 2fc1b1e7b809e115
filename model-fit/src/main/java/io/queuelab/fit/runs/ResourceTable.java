package io.queuelab.fit.runs;

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
 * <p>Every column is a rate or a level, so runs of different lengths compare: CPU in percent of a
 * core, disk I/O and network per second, and the disk footprint as growth per hour (the paper's
 * runs were all one hour) and per datapoint where the run's backend says how many datapoints a
 * request carries. Runs whose sampled spans differ by more than 10 % are still tabulated, and
 * {@link #render()} says so on its first line.
 *
 * <p>The score is the paper's (its Table III): each column divided by its maximum over the rows,
 * multiplied by the column's weight ({@link #WEIGHTS}: server CPU 2, server RAM 0.25, client CPU
 * 2.5, client RAM 0.25, disk I/O 2.5, disk footprint 0.5, network 1.5) and summed to points, plus
 * 0.2 x the difficulty grade (1 easy to 5 most difficult, the paper's subjective eighth column) when
 * every row has one; score = (most points possible - points) / most points possible x 100, so 100
 * would be a row that uses nothing. (This reproduces the paper's Table III from its Table IV within
 * 2 points: 3, 75, 55, 70, 63 against its 3, 73, 54, 70, 64.)
 *
 * @param rows one per run, in the order given
 */
public record ResourceTable(List<Row> rows) {
    static final double[] WEIGHTS = {2, 0.25, 2.5, 0.25, 2.5, 0.5, 1.5};
    /** The measured columns (the criteria before the difficulty grade), each weighted by the paper. */
    public static final int MEASURED_COLUMNS = WEIGHTS.length;
    /** The paper's weight of the difficulty grade, and the grade's largest value. */
    static final double DIFFICULTY_WEIGHT = 0.2;
    static final int MAX_DIFFICULTY = 5;
    /** The columns of {@code server-status.csv} with the sampler's own session bytes, not the load's. */
    static final String SAMPLER_RECEIVED = "sampler_bytes_received";
    static final String SAMPLER_SENT = "sampler_bytes_sent";
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
     * @param diskGrowthBytes   growth of the server's data directory over the span
     * @param netBytesPerSecond received + sent per second
     * @param netSource         where the network figure comes from
     * @param datapoints        datapoints the run wrote (NaN when its backend does not say)
     * @param difficulty        the paper's difficulty grade 1-5, 0 when not given
     */
    public record Row(String run, double seconds, double serverCpuPercent, double serverRssBytes, double clientCpuPercent,
                      double clientRssBytes, double diskIoBytesPerSecond, double diskGrowthBytes, double netBytesPerSecond,
                      String netSource, double datapoints, int difficulty) {
        /** The data directory's growth per hour of the span. */
        public double diskGrowthBytesPerHour() {
            return diskGrowthBytes / seconds * 3600;
        }

        /** The data directory's growth per datapoint written (NaN when the count is unknown). */
        public double diskGrowthBytesPerDatapoint() {
            return diskGrowthBytes / datapoints;
        }

        double[] columns() {
            return new double[] {serverCpuPercent, serverRssBytes, clientCpuPercent, clientRssBytes, diskIoBytesPerSecond,
                    diskGrowthBytesPerHour(), netBytesPerSecond};
        }
    }

    /** The table of the given run directories, without difficulty grades. */
    public static ResourceTable of(List<Path> runs) throws IOException {
        return of(runs, java.util.Map.of());
    }

    /**
     * The table of the given run directories; a run without host resources or a server process is an
     * error. {@code difficulty} maps a run's directory name to its grade 1-5.
     */
    public static ResourceTable of(List<Path> runs, java.util.Map<String, Integer> difficulty) throws IOException {
        for (java.util.Map.Entry<String, Integer> d : difficulty.entrySet()) {
            if (d.getValue() < 1 || d.getValue() > MAX_DIFFICULTY) {
                throw new IllegalArgumentException("a difficulty grade is 1 to 5 (the paper's scale), not " + d.getValue()
                        + " for " + d.getKey());
            }
            if (runs.stream().noneMatch(r -> r.getFileName().toString().equals(d.getKey()))) {
                throw new IllegalArgumentException("--difficulty names " + d.getKey() + ", which is none of the runs");
            }
        }
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
            java.util.Optional<ServerTraffic> traffic = serverTraffic(run);
            rows.add(new Row(run.getFileName().toString(), server.spanSeconds(), server.cpuPercent(), server.maxRssBytes(),
                    client.cpuPercent(), client.maxRssBytes(), server.readBytesPerSecond() + server.writeBytesPerSecond(),
                    server.dataDirGrowthBytes(), traffic.map(ServerTraffic::bytesPerSecond).orElse(server.netBytesPerSecond()),
                    traffic.map(ServerTraffic::source).orElse("network namespace (every process on it)"), datapoints(run),
                    difficulty.getOrDefault(run.getFileName().toString(), 0)));
        }
        return new ResourceTable(rows);
    }

    /** A server's traffic with its clients, from its own byte counters, and which counters. */
    public record ServerTraffic(double bytesPerSecond, String source) {
    }

    /**
     * The server's own count of the bytes it exchanged with its clients over a run: MariaDB's
     * Bytes_received + Bytes_sent less the telemetry session's own (when the sampler recorded it),
     * or InfluxDB's HTTP bodies; empty when the run has neither. Unlike the network namespace's
     * counters, it holds no other process's loopback traffic.
     */
    public static java.util.Optional<ServerTraffic> serverTraffic(Path run) throws IOException {
        double[] mariadb = counterRate(run.resolve(SERVER_STATUS), "Bytes_received", "Bytes_sent");
        if (!Double.isNaN(mariadb[0])) {
            double[] sampler = counterRate(run.resolve(SERVER_STATUS), SAMPLER_RECEIVED, SAMPLER_SENT);
            boolean samplerKnown = !Double.isNaN(sampler[0]);
            // the telemetry's own SHOW GLOBAL STATUS is not the load's traffic
            return java.util.Optional.of(new ServerTraffic(mariadb[0] - (samplerKnown ? sampler[0] : 0),
                    "server's Bytes_received + Bytes_sent" + (samplerKnown ? " less the telemetry session's own"
                            : " (the telemetry's own SHOW GLOBAL STATUS included)")));
        }
        double[] influx = counterRate(run.resolve(INFLUXDB_STATS), "writeReqBytes", "queryRespBytes");
        if (Double.isNaN(influx[0])) {
            return java.util.Optional.empty();
        }
        // with --influx-protocol udp the points arrive as datagrams: the UDP listener's bytesRx
        double[] udp = counterRate(run.resolve(INFLUXDB_STATS), "udpBytesRx");
        return Double.isNaN(udp[0])
                ? java.util.Optional.of(new ServerTraffic(influx[0], "InfluxDB's writeReqBytes + queryRespBytes (HTTP bodies)"))
                : java.util.Optional.of(new ServerTraffic(influx[0] + udp[0],
                        "InfluxDB's UDP bytesRx + writeReqBytes + queryRespBytes (datagrams, HTTP bodies)"));
    }

    /** The datapoints stored: the backend's own count (backend.server.delivery.pointsStored, InfluxDB over UDP), else OK requests x its pointsPerRequest; NaN when the manifest has neither. */
    static double datapoints(Path run) {
        try {
            io.queuelab.core.manifest.Manifest m = io.queuelab.core.log.RunDirectory.open(run).manifest();
            Object workload = m.backend().map(b -> b.server().get("workload")).orElse(null);
            Object points = workload instanceof java.util.Map<?, ?> w ? w.get("pointsPerRequest") : null;
            // a fire-and-forget protocol (InfluxDB over UDP) counted the points the server stored itself
            Object delivery = m.backend().map(b -> b.server().get("delivery")).orElse(null);
            Object stored = delivery instanceof java.util.Map<?, ?> d ? d.get("pointsStored") : null;
            if (stored instanceof Number n) {
                return n.doubleValue();
            }
            if (points instanceof Number n && m.totals().isPresent()) {
                return n.doubleValue() * m.totals().get().ok();
            }
        } catch (IOException | RuntimeException e) {
            // no manifest (a bare telemetry directory): the count is unknown
        }
        return Double.NaN;
    }

    /** Whether every row has a difficulty grade, so that the score includes the paper's eighth column. */
    public boolean graded() {
        return rows.stream().allMatch(r -> r.difficulty() > 0);
    }

    /** Whether the sampled spans differ by more than 10 %. */
    public boolean mixedLengths() {
        double min = rows.stream().mapToDouble(Row::seconds).min().orElse(0);
        double max = rows.stream().mapToDouble(Row::seconds).max().orElse(0);
        return max > 1.1 * min;
    }

    /** {bytes per second} of two byte counters of a server's own statistics file summed, NaN without them. */
    static double[] counterRate(Path csv, String... counters) throws IOException {
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
        if (rows.size() < 3) {
            return new double[] {Double.NaN};
        }
        String[] first = rows.get(1), last = rows.get(rows.size() - 1);
        double bytes = 0;
        for (String counter : counters) {
            int column = header.indexOf(counter);
            // a counter the server did not report (e.g. InfluxDB's UDP without a UDP listener) is an empty field
            if (column < 0 || column >= first.length || column >= last.length || first[column].isEmpty() || last[column].isEmpty()) {
                return new double[] {Double.NaN};
            }
            bytes += Double.parseDouble(last[column]) - Double.parseDouble(first[column]);
        }
        double seconds = (Long.parseLong(last[0]) - Long.parseLong(first[0])) / 1e9;
        return new double[] {bytes / seconds};
    }

    /** The criteria in the paper's Figure 3 and 4 order of {@link Row#columns()}, then the difficulty grade. */
    public static final List<String> CRITERIA = List.of("CPU server", "RAM server", "CPU client", "RAM client", "disk I/O",
            "disk growth", "network", "difficulty");

    /** Each row's columns relative to the column's maximum over the rows, 0 to 1 (the paper's Figure 3). */
    public double[][] relativeToMax() {
        double[] max = new double[WEIGHTS.length];
        for (Row r : rows) {
            double[] c = r.columns();
            for (int i = 0; i < c.length; i++) {
                max[i] = Math.max(max[i], c[i]);
            }
        }
        double[][] relative = new double[rows.size()][WEIGHTS.length];
        for (int k = 0; k < rows.size(); k++) {
            double[] c = rows.get(k).columns();
            for (int i = 0; i < c.length; i++) {
                relative[k][i] = max[i] > 0 ? c[i] / max[i] : 0;
            }
        }
        return relative;
    }

    /**
     * Each row's points by criterion ({@link #CRITERIA}): the relative column times its weight, and
     * 0.2 x the difficulty grade when every row has one (the paper's Figure 4, before aggregation).
     */
    public double[][] components() {
        double[][] relative = relativeToMax();
        double[][] components = new double[rows.size()][CRITERIA.size()];
        for (int k = 0; k < rows.size(); k++) {
            for (int i = 0; i < WEIGHTS.length; i++) {
                components[k][i] = WEIGHTS[i] * relative[k][i];
            }
            components[k][WEIGHTS.length] = graded() ? DIFFICULTY_WEIGHT * rows.get(k).difficulty() : 0;
        }
        return components;
    }

    /** The paper's points of each row: the sum of its {@link #components()}. */
    public double[] points() {
        return Arrays.stream(components()).mapToDouble(c -> Arrays.stream(c).sum()).toArray();
    }

    /** The paper's score: (most points possible - points) / most points possible x 100. */
    public double[] scores() {
        double possible = Arrays.stream(WEIGHTS).sum() + (graded() ? DIFFICULTY_WEIGHT * MAX_DIFFICULTY : 0);
        return Arrays.stream(points()).map(p -> 100 * (possible - p) / possible).toArray();
    }

    /** The table, the score and the ratios of the first run to each other, as text. */
    public String render() {
        StringBuilder b = new StringBuilder();
        if (mixedLengths()) {
            b.append("runs of different lengths (").append(String.join(", ", rows.stream().map(r -> String.format(Locale.ROOT, "%s %.0f s",
                    r.run(), r.seconds())).toList())).append("): every column is a rate or per hour, but a short run's disk growth"
                    + " leaves out what an hour's checkpoints and compactions add\n");
        }
        b.append(String.format(Locale.ROOT, "%-16s %7s %9s %9s %9s %9s %11s %11s %9s %11s %4s %7s %7s%n",
                "run", "span s", "CPU_S %", "RSS_S MB", "CPU_C %", "RSS_C MB", "IO kB/s", "disk MB/h", "B/point", "net Mbit/s", "diff",
                "points", "score"));
        double[] points = points(), scores = scores();
        for (int k = 0; k < rows.size(); k++) {
            Row r = rows.get(k);
            b.append(String.format(Locale.ROOT, "%-16s %7.0f %9.2f %9.1f %9.2f %9.1f %11.1f %11.1f %9.1f %11.3f %4s %7.2f %7.0f%n", r.run(),
                    r.seconds(), r.serverCpuPercent(), r.serverRssBytes() / 1e6, r.clientCpuPercent(), r.clientRssBytes() / 1e6,
                    r.diskIoBytesPerSecond() / 1e3, r.diskGrowthBytesPerHour() / 1e6, r.diskGrowthBytesPerDatapoint(),
                    r.netBytesPerSecond() * 8 / 1e6, r.difficulty() > 0 ? Integer.toString(r.difficulty()) : "-", points[k], scores[k]));
        }
        b.append("weights 2, 0.25, 2.5, 0.25, 2.5, 0.5, 1.5").append(graded() ? ", difficulty 0.2 x grade" : "")
                .append(" (seed 002); score = (most points possible - points) / most possible x 100, the paper's scale")
                .append(graded() ? "" : " without its difficulty column (--difficulty RUN=GRADE for every run adds it)").append('\n');
        for (Row r : rows) {
            b.append("network of ").append(r.run()).append(": ").append(r.netSource()).append('\n');
        }
        Row first = rows.get(0);
        for (Row r : rows.subList(1, rows.size())) {
            b.append(String.format(Locale.ROOT, "%s / %s: server CPU %.1fx, disk I/O %.1fx, disk footprint %.1fx, network %.1fx,"
                            + " client CPU %.1fx%n", first.run(), r.run(), first.serverCpuPercent() / r.serverCpuPercent(),
                    first.diskIoBytesPerSecond() / r.diskIoBytesPerSecond(), first.diskGrowthBytesPerHour() / r.diskGrowthBytesPerHour(),
                    first.netBytesPerSecond() / r.netBytesPerSecond(), first.clientCpuPercent() / r.clientCpuPercent()));
        }
        return b.toString();
    }
}
