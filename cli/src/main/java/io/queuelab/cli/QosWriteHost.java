package io.queuelab.cli;

import io.queuelab.core.log.AtomicFile;
import io.queuelab.core.telemetry.HostSar;
import io.queuelab.core.telemetry.ResourceUse;
import io.queuelab.jdbc.qos.QosSchema;
import io.queuelab.jdbc.qos.QosWriteGrid;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The host side of seed 000's write grid, its Figures 5.4-5.7 (sar beside the 10,000-row cells):
 * per cell the mean over its measured rounds (the warm-up round left out) of the host's CPU, the
 * server's CPU, bytes written to storage per second and largest RSS, from each round's
 * {@code host-resources.csv}; as {@code grid-host.csv} and, at the grid's largest rows per client,
 * three charts against clients, one line per schema; and sar's own figures of the host from each
 * round's {@code host-sar.csv} ({@link HostSar}: user, system and iowait shares of all CPUs' time,
 * disk writes completed per second), two more charts. A round too short to hold two samples
 * contributes nothing (its cell's values are then empty).
 */
final class QosWriteHost {
    private QosWriteHost() {
    }

    /** One cell's host figures; the sar ones ({@link HostSar}: shares of all CPUs' time, disk writes completed) NaN without host-sar.csv. */
    record CellHost(QosWriteGrid.CellResult cell, double hostCpuPercent, double serverCpuPercent, double serverWriteBytesPerSecond,
                    double serverRssBytes, double userPercent, double systemPercent, double iowaitPercent, double diskWritesPerSecond) {
    }

    static void write(List<QosWriteGrid.CellResult> results, Path dir) throws IOException {
        List<CellHost> cells = new ArrayList<>();
        StringBuilder csv = new StringBuilder("schema,clients,rows_per_client,host_cpu_percent,server_cpu_percent,"
                + "server_write_bytes_per_second,server_rss_bytes,host_user_percent,host_system_percent,host_iowait_percent,"
                + "host_disk_writes_per_second\n");
        for (QosWriteGrid.CellResult r : results) {
            Path cellDir = dir.resolve(r.cell().directoryName());
            CellHost h = new CellHost(r, mean(cellDir, r, "host", ResourceUse.Samples::cpuPercent),
                    mean(cellDir, r, "server", ResourceUse.Samples::cpuPercent),
                    mean(cellDir, r, "server", ResourceUse.Samples::writeBytesPerSecond),
                    mean(cellDir, r, "server", ResourceUse.Samples::maxRssBytes),
                    meanSar(cellDir, r, HostSar.Figures::userPercent), meanSar(cellDir, r, HostSar.Figures::systemPercent),
                    meanSar(cellDir, r, HostSar.Figures::iowaitPercent), meanSar(cellDir, r, HostSar.Figures::writeOpsPerSecond));
            cells.add(h);
            csv.append(row(h));
        }
        AtomicFile.replace(dir.resolve("grid-host.csv"), tmp -> Files.writeString(tmp, csv));
        int rows = results.stream().mapToInt(r -> r.cell().rowsPerClient()).max().orElse(0);
        chart(cells, rows, "CPU of the host (all cores) and of the server", "CPU [% of one core]", dir.resolve("write-host-cpu.png"),
                new Series("host", CellHost::hostCpuPercent), new Series("server", CellHost::serverCpuPercent));
        chart(cells, rows, "Server's bytes written to storage", "written [kB/s]", dir.resolve("write-server-io.png"),
                new Series("", h -> h.serverWriteBytesPerSecond() / 1e3));
        chart(cells, rows, "Server's memory", "largest RSS [MB]", dir.resolve("write-server-memory.png"),
                new Series("", h -> h.serverRssBytes() / 1e6));
        chart(cells, rows, "Host CPU by state (sar -u)", "% of all CPUs' time", dir.resolve("write-host-sar-cpu.png"),
                new Series("user", CellHost::userPercent), new Series("system", CellHost::systemPercent),
                new Series("iowait", CellHost::iowaitPercent));
        chart(cells, rows, "Host disk writes completed (sar -d)", "writes/s", dir.resolve("write-host-sar-disk.png"),
                new Series("", CellHost::diskWritesPerSecond));
    }

    /** The cell's line of grid-host.csv: a figure that is not a finite number (NaN: not measured) is an empty field. */
    static String row(CellHost h) {
        QosWriteGrid.Cell c = h.cell().cell();
        return c.schema().number() + "," + c.clients() + "," + c.rowsPerClient() + "," + field("%.2f", h.hostCpuPercent()) + ","
                + field("%.2f", h.serverCpuPercent()) + "," + field("%.0f", h.serverWriteBytesPerSecond()) + ","
                + field("%.0f", h.serverRssBytes()) + "," + field("%.2f", h.userPercent()) + "," + field("%.2f", h.systemPercent()) + ","
                + field("%.2f", h.iowaitPercent()) + "," + field("%.1f", h.diskWritesPerSecond()) + "\n";
    }

    private static String field(String format, double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, format, value) : "";
    }

    /** The mean of a sar figure over the cell's measured rounds; NaN where no round has host-sar.csv with two rows. */
    private static double meanSar(Path cellDir, QosWriteGrid.CellResult r, ToDoubleFunction<HostSar.Figures> figure) throws IOException {
        double sum = 0;
        int n = 0;
        for (int round = 1; round <= r.cycleSeconds().size(); round++) {
            Optional<HostSar.Figures> f = HostSar.of(cellDir.resolve(String.format(Locale.ROOT, "round-%02d", round)));
            double v = f.isEmpty() ? Double.NaN : figure.applyAsDouble(f.get());
            if (Double.isFinite(v)) {
                sum += v;
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    private record Series(String name, ToDoubleFunction<CellHost> value) {
    }

    /** The mean of a figure of one process over the cell's measured rounds; NaN without samples. */
    private static double mean(Path cellDir, QosWriteGrid.CellResult r, String role, ToDoubleFunction<ResourceUse.Samples> figure)
            throws IOException {
        double sum = 0;
        int n = 0;
        for (int round = 1; round <= r.cycleSeconds().size(); round++) {
            Optional<ResourceUse> use = ResourceUse.read(cellDir.resolve(String.format(Locale.ROOT, "round-%02d", round)));
            ResourceUse.Samples s = use.map(u -> u.processes().get(role)).orElse(null);
            double v = s == null || s.size() < 2 ? Double.NaN : figure.applyAsDouble(s);
            if (Double.isFinite(v)) {
                sum += v;
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    private static void chart(List<CellHost> cells, int rows, String title, String yTitle, Path png, Series... series)
            throws IOException {
        XYChart chart = new XYChartBuilder().width(800).height(500).title(title + ", " + rows + " rows per client")
                .xAxisTitle("clients").yAxisTitle(yTitle).build();
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setXAxisLogarithmic(true);
        for (QosSchema schema : QosSchema.values()) {
            List<CellHost> line = cells.stream().filter(h -> h.cell().cell().schema() == schema && h.cell().cell().rowsPerClient() == rows)
                    .sorted(java.util.Comparator.comparingInt(h -> h.cell().cell().clients())).toList();
            for (Series s : series) {
                double[] x = line.stream().filter(h -> Double.isFinite(s.value().applyAsDouble(h))).mapToDouble(h -> h.cell().cell().clients()).toArray();
                double[] y = line.stream().mapToDouble(s.value()).filter(Double::isFinite).toArray();
                if (x.length > 0) {
                    chart.addSeries((s.name().isEmpty() ? "" : s.name() + ", ") + "schema " + schema.number(), x, y);
                }
            }
        }
        if (!chart.getSeriesMap().isEmpty()) { // no cell had two samples: grid-host.csv says so with empty values
            io.queuelab.reports.report.PngFile.write(png, chart);
        }
    }
}
