package io.queuelab.cli;

import io.queuelab.core.log.AtomicFile;
import io.queuelab.jdbc.JdbcEnvironment;
import io.queuelab.jdbc.qos.QosSchema;
import io.queuelab.jdbc.qos.QosWriteGrid;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.awt.Color;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code queuelab qos-write}: seed 000's write grid (clients x rows per client x schema), each cell
 * repeated until the standard error of its cycle times is below the limit, as a table, a CSV and
 * one chart per schema.
 */
@Command(name = "qos-write", mixinStandardHelpOptions = true,
        description = {"Seed 000's write test: N clients each write R result lines into schema 1, 2 or 3 and leave (a closed"
                + " run with finite work per client); each cell is repeated until the standard error of the mean cycle time is"
                + " below --max-error of it (at least --min-rounds); lines/s = N x R / mean cycle time.",
                "Each cell begins with a warm-up round (round-00), kept apart from the mean.",
                "Leaves <out>/grid.csv, grid.txt, grid-schema<n>.png and a run directory per round (<out>/schema<n>-c<N>-r<R>/round-NN);"
                        + " an interrupted grid leaves the cells measured so far as grid-incomplete.csv, grid.txt saying so."})
public final class QosWriteCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    JdbcConnectionOptions connection = new JdbcConnectionOptions();

    @Option(names = "--schemas", split = ",", paramLabel = "1,2,3", defaultValue = "1,2,3", description = "Schemas (default: ${DEFAULT-VALUE}).")
    List<Integer> schemas;

    @Option(names = "--clients", split = ",", paramLabel = "N,...", defaultValue = "1,2,3,4,5,6,8,16,32,64,128",
            description = "Client counts (default: the seed's ${DEFAULT-VALUE}).")
    List<Integer> clients;

    @Option(names = "--rows", split = ",", paramLabel = "R,...", defaultValue = "1,5,10,50,100,500,1000,5000,10000",
            description = "Rows per client (default: the seed's ${DEFAULT-VALUE}).")
    List<Integer> rows;

    @Option(names = "--min-rounds", paramLabel = "K", description = "Rounds at least (default: the seed's ${DEFAULT-VALUE}).")
    int minRounds = 5;

    @Option(names = "--max-rounds", paramLabel = "K", description = "Rounds at most; a cell still above the limit is marked (default: ${DEFAULT-VALUE}).")
    int maxRounds = 30;

    @Option(names = "--max-error", paramLabel = "F", description = "Limit of standard error / mean (default: the seed's ${DEFAULT-VALUE}).")
    double maxError = 0.05;

    @Option(names = "--round-limit", converter = DurationConverter.class, defaultValue = "10m",
            description = "A round that takes longer fails the grid (default: ${DEFAULT-VALUE}).")
    Duration roundLimit;

    @Option(names = "--telemetry-interval", converter = DurationConverter.class, paramLabel = "D",
            description = "Sample the host, this client and the server (CPU, disk I/O, memory) every D in each round, as the seed"
                    + " ran sar beside its 10,000-row cells; adds grid-host.csv and the seed's Figures 5.4-5.7 as write-host-cpu.png,"
                    + " write-server-io.png and write-server-memory.png (per schema against clients, at the largest --rows); and sar's"
                    + " own host figures (user/system/iowait CPU, disk writes/s from /proc/stat and /proc/diskstats, host-sar.csv in"
                    + " each round, on the same samples) as write-host-sar-cpu.png and write-host-sar-disk.png.")
    Duration telemetryInterval;

    @Option(names = "--seed", paramLabel = "S", description = "Seed of the written values (default: ${DEFAULT-VALUE}).")
    long seed = 1;

    @Option(names = "--out", paramLabel = "DIR", description = "Directory to create (must not exist); default runs/qos-write-<time>.")
    Path out;

    @Override
    public Integer call() throws Exception {
        List<QosWriteGrid.Cell> cells = new ArrayList<>();
        for (int s : schemas) {
            QosSchema schema = QosSchema.of(s);
            for (int r : rows) {
                for (int n : clients) {
                    cells.add(new QosWriteGrid.Cell(schema, n, r));
                }
            }
        }
        QosWriteGrid.Rules rules = new QosWriteGrid.Rules(minRounds, maxRounds, maxError, roundLimit);
        if (telemetryInterval != null) {
            io.queuelab.core.telemetry.SampleTimer.requirePositive(telemetryInterval);
        }
        Path dir = out != null ? out : RunCommand.defaultRunDir("qos-write");
        OutputPath.requireCreatable(dir, "output directory");
        PrintWriter w = spec.commandLine().getOut();
        List<QosWriteGrid.CellResult> results;
        boolean interrupted;
        int exitCode;
        try (JdbcEnvironment db = connection.open(); RunSignals signals = RunSignals.install(new PrintWriter(System.err, true))) {
            Files.createDirectories(dir);
            PrintStream progress = new PrintStream(new java.io.OutputStream() {
                @Override
                public void write(int b) {
                    w.write(b);
                    if (b == '\n') {
                        w.flush();
                    }
                }
            }, true, StandardCharsets.UTF_8);
            io.queuelab.core.run.RunCompanion companion = telemetryInterval == null ? io.queuelab.core.run.RunCompanion.NONE
                    : io.queuelab.core.telemetry.HostResourceSampler.companion(db::serverProcesses, telemetryInterval, true);
            results = new QosWriteGrid(db.target(), rules, dir, seed, progress, signals.stop(), companion).run(cells);
            interrupted = signals.interrupted();
            exitCode = signals.exitCode();
        }
        // an interrupted grid keeps its cells under a name that says so, never as a complete grid.csv
        String csv = interrupted ? "grid-incomplete.csv" : "grid.csv";
        QosWriteGrid.writeCsv(dir.resolve(csv), results);
        String table = (interrupted ? "INCOMPLETE: interrupted after " + results.size() + " of " + cells.size() + " cells\n" : "")
                + table(results);
        AtomicFile.replace(dir.resolve("grid.txt"), tmp -> Files.writeString(tmp, table));
        for (int s : results.stream().map(r -> r.cell().schema().number()).distinct().toList()) {
            chart(QosSchema.of(s), results, dir.resolve("grid-schema" + s + ".png"));
        }
        if (telemetryInterval != null) {
            QosWriteHost.write(results, dir);
        }
        w.print(table);
        w.println("wrote " + dir.resolve(csv) + ", grid.txt and grid-schema<n>.png" + (telemetryInterval != null
                ? ", grid-host.csv and write-host-cpu.png, write-server-io.png, write-server-memory.png, write-host-sar-cpu.png,"
                + " write-host-sar-disk.png" : ""));
        w.flush();
        if (interrupted) {
            throw new RunCommand.Interrupted(exitCode, dir + " holds the " + results.size() + " of " + cells.size()
                    + " cells completed before the interruption");
        }
        return 0;
    }

    /** Lines/s per schema: one line per client count, one column per rows-per-client value; * = above the error limit. */
    static String table(List<QosWriteGrid.CellResult> results) {
        StringBuilder b = new StringBuilder();
        List<Integer> rowValues = results.stream().map(r -> r.cell().rowsPerClient()).distinct().sorted().toList();
        List<Integer> clientValues = results.stream().map(r -> r.cell().clients()).distinct().sorted().toList();
        for (QosSchema schema : results.stream().map(r -> r.cell().schema()).distinct().toList()) {
            b.append("schema ").append(schema.number()).append(": lines/s (rows per client across, clients down)\n");
            b.append(String.format(Locale.ROOT, "%8s", "clients"));
            rowValues.forEach(r -> b.append(String.format(Locale.ROOT, " %9d", r)));
            b.append('\n');
            for (int n : clientValues) {
                b.append(String.format(Locale.ROOT, "%8d", n));
                for (int r : rowValues) {
                    b.append(results.stream().filter(x -> x.cell().schema() == schema && x.cell().clients() == n
                                    && x.cell().rowsPerClient() == r).findFirst()
                            .map(x -> String.format(Locale.ROOT, " %8.0f%s", x.linesPerSecond(), x.converged() ? " " : "*"))
                            .orElse(String.format(Locale.ROOT, " %9s", "-")));
                }
                b.append('\n');
            }
        }
        if (results.stream().anyMatch(r -> !r.converged())) {
            b.append("* standard error still above the limit after the last round\n");
        }
        return b.toString();
    }

    private static void chart(QosSchema schema, List<QosWriteGrid.CellResult> results, Path png) throws java.io.IOException {
        XYChart chart = new XYChartBuilder().width(800).height(500).title("Write throughput, schema " + schema.number())
                .xAxisTitle("clients").yAxisTitle("lines/s").build();
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
        for (int r : results.stream().map(x -> x.cell().rowsPerClient()).distinct().sorted().toList()) {
            List<QosWriteGrid.CellResult> line = results.stream()
                    .filter(x -> x.cell().schema() == schema && x.cell().rowsPerClient() == r)
                    .sorted(java.util.Comparator.comparingInt(x -> x.cell().clients())).toList();
            if (!line.isEmpty()) {
                chart.addSeries(r + " rows", line.stream().mapToDouble(x -> x.cell().clients()).toArray(),
                        line.stream().mapToDouble(QosWriteGrid.CellResult::linesPerSecond).toArray());
            }
        }
        io.queuelab.reports.report.PngFile.write(png, chart);
    }
}
