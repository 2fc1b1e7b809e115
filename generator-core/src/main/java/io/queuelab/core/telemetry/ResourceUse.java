package io.queuelab.core.telemetry;

import io.queuelab.core.log.InputErrors;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What each sampled process of a run used, read back from {@value HostResourceSampler#FILE_NAME}:
 * the time series (for the response-time timeline) and, per process, seed 002's resource table
 * over the sampled span (first to last sample): mean CPU, resident memory, disk read and write
 * rates, data-directory growth and network rate.
 *
 * @param processes role -> its samples, in file order
 */
public record ResourceUse(Map<String, Samples> processes) {
    static final int COLUMNS = HostResourceSampler.HEADER.split(",").length;

    /**
     * One process's samples; counters as written (cumulative or levels), NaN where unknown.
     *
     * @param epochNanos sample instants (the generator's wall clock)
     */
    public record Samples(String role, long pid, long[] epochNanos, double[] cpuNanos, double[] rssBytes, double[] readBytes,
                          double[] writeBytes, double[] netRxBytes, double[] netTxBytes, double[] dataDirBytes) {
        public int size() {
            return epochNanos.length;
        }

        /** Seconds from the first to the last sample. */
        public double spanSeconds() {
            return size() < 2 ? 0 : (epochNanos[size() - 1] - epochNanos[0]) / 1e9;
        }

        /** CPU over the span in percent of one core (100 = one core busy), as {@code ps -o %cpu} counts it. */
        public double cpuPercent() {
            return 100 * increase(cpuNanos) / 1e9 / spanSeconds();
        }

        /** Mean and largest resident memory of the samples. */
        public double meanRssBytes() {
            return Arrays.stream(rssBytes).filter(v -> !Double.isNaN(v)).average().orElse(Double.NaN);
        }

        public double maxRssBytes() {
            return Arrays.stream(rssBytes).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
        }

        /** Bytes per second read from and written to storage (pidstat's kB_rd/s and kB_wr/s, in bytes). */
        public double readBytesPerSecond() {
            return increase(readBytes) / spanSeconds();
        }

        public double writeBytesPerSecond() {
            return increase(writeBytes) / spanSeconds();
        }

        /** Growth of the data directory from the first to the last sample (du before and after). */
        public double dataDirGrowthBytes() {
            return increase(dataDirBytes);
        }

        /** Received + sent bytes per second of the process's network namespace. */
        public double netBytesPerSecond() {
            return (increase(netRxBytes) + increase(netTxBytes)) / spanSeconds();
        }

        /** CPU in percent of one core between consecutive samples: {instants (epoch ns), values}. */
        public double[][] cpuPercentSeries() {
            List<double[]> points = new ArrayList<>();
            for (int i = 1; i < size(); i++) {
                double dt = (epochNanos[i] - epochNanos[i - 1]) / 1e9, used = cpuNanos[i] - cpuNanos[i - 1];
                if (dt > 0 && used >= 0) {
                    points.add(new double[] {epochNanos[i], 100 * used / 1e9 / dt});
                }
            }
            return new double[][] {points.stream().mapToDouble(p -> p[0]).toArray(), points.stream().mapToDouble(p -> p[1]).toArray()};
        }

        /** Last known value minus first known value; NaN if fewer than two are known. */
        private static double increase(double[] values) {
            double first = Double.NaN, last = Double.NaN;
            for (double v : values) {
                if (!Double.isNaN(v)) {
                    if (Double.isNaN(first)) {
                        first = v;
                    }
                    last = v;
                }
            }
            return last - first;
        }
    }

    /** The run's resource use, or empty when it has no {@value HostResourceSampler#FILE_NAME}. */
    public static Optional<ResourceUse> read(Path runDirectory) throws IOException {
        Path csv = runDirectory.resolve(HostResourceSampler.FILE_NAME);
        if (!Files.isRegularFile(csv)) {
            return Optional.empty();
        }
        Map<String, List<String[]>> rows = new LinkedHashMap<>();
        // decoded leniently: bytes that are not UTF-8 become U+FFFD, which the error below escapes (a number column with one fails wellFormed)
        try (BufferedReader in = InputErrors.lenientReader(csv)) {
            String header = in.readLine();
            if (header == null || !header.startsWith("epoch_ns,process,pid,")) {
                throw new IOException(csv + " is not a host-resources file (" + InputErrors.describeHeader(header) + ")");
            }
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String[] f = line.split(",", -1);
                if (f.length == COLUMNS && wellFormed(f)) { // a torn last line (a crash mid-write) is left out
                    rows.computeIfAbsent(f[1], k -> new ArrayList<>()).add(f);
                }
            }
        }
        Map<String, Samples> processes = new LinkedHashMap<>();
        rows.forEach((role, r) -> processes.put(role, samples(role, r)));
        return Optional.of(new ResourceUse(processes));
    }

    private static boolean wellFormed(String[] f) {
        for (int i = 0; i < f.length; i++) {
            if (i != 1 && !f[i].matches("-?[0-9]*") || (i == 0 || i == 2) && f[i].isEmpty()) {
                return false;
            }
        }
        return true;
    }

    private static Samples samples(String role, List<String[]> rows) {
        int n = rows.size();
        long[] at = new long[n];
        double[][] columns = new double[7][n];
        for (int i = 0; i < n; i++) {
            String[] f = rows.get(i);
            at[i] = Long.parseLong(f[0]);
            for (int c = 0; c < 7; c++) {
                columns[c][i] = f[3 + c].isEmpty() ? Double.NaN : Double.parseDouble(f[3 + c]);
            }
        }
        return new Samples(role, Long.parseLong(rows.get(0)[2]), at, columns[0], columns[1], columns[2], columns[3], columns[4],
                columns[5], columns[6]);
    }

    /** Seed 002's table, one line per process, for the run's summary. */
    public String render() {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-22s %8s %9s %11s %11s %11s %11s%n",
                "resources (host)", "CPU %", "RSS MB", "disk rd/s", "disk wr/s", "data dir +", "net/s"));
        for (Samples s : processes.values()) {
            b.append(String.format(Locale.ROOT, "  %-20s %8s %9s %11s %11s %11s %11s%n", s.role() + " " + s.pid(),
                    fixed(s.cpuPercent(), 1), fixed(s.maxRssBytes() / 1e6, 1), bytes(s.readBytesPerSecond()),
                    bytes(s.writeBytesPerSecond()), bytes(s.dataDirGrowthBytes()), bytes(s.netBytesPerSecond())));
        }
        return b.toString();
    }

    private static String fixed(double v, int decimals) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    /** 1234567 -> "1.23 MB"; unknown -> "-". */
    static String bytes(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "-";
        }
        double a = Math.abs(v);
        return a >= 1e9 ? fixed(v / 1e9, 2) + " GB" : a >= 1e6 ? fixed(v / 1e6, 2) + " MB" : a >= 1e3 ? fixed(v / 1e3, 1) + " kB"
                : fixed(v, 0) + " B";
    }
}
