package io.queuelab.cli;

import io.queuelab.core.log.AtomicFile;
import io.queuelab.jdbc.JdbcEnvironment;
import io.queuelab.jdbc.qos.QosReadBench;
import io.queuelab.jdbc.qos.QosReadCase;
import io.queuelab.jdbc.qos.QosReadDataSet;
import io.queuelab.jdbc.qos.QosSchema;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code queuelab qos-read}: seed 000's read test, Q1-Q5 with N clients on the loaded schemas. */
@Command(name = "qos-read", mixinStandardHelpOptions = true,
        description = {"Seed 000's read test on the data 'queuelab load --relation qos' loaded: for each case of Q1-Q5 (the"
                + " seed's Tables 5.1-5.5, Q3 with the query cache on/off and one/all tables, Q1 on schema 2 also with"
                + " STRAIGHT_JOIN), each schema and each client count, N clients start the query at once and fetch the whole"
                + " result; a round's measure is the mean time per client, repeated --rounds times (the cache, when on, is"
                + " emptied before the first round only), reported as the mean with its 95 %% interval.",
                "Leaves <out>/reads.csv, reads.txt, a chart per case as the seed's Figures 5.8-5.27 (reads-<case>.png: seconds per"
                        + " client against clients, one line per schema, the 95 %% intervals as error bars) and a run directory per round (<out>/<case>-schema<n>-c<N>/round-NN); an"
                        + " interrupted test leaves the cells measured so far as reads-incomplete.csv, reads.txt saying so."})
public final class QosReadCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    JdbcConnectionOptions connection = new JdbcConnectionOptions();

    @Option(names = "--queries", split = ",", paramLabel = "Q1,...", defaultValue = "Q1,Q2,Q3,Q4,Q5",
            description = "Queries (default: ${DEFAULT-VALUE}); a case alone as Q3.5 or Q1.2-sj.")
    List<String> queries;

    @Option(names = "--schemas", split = ",", paramLabel = "1,2,3", defaultValue = "1,2,3", description = "Schemas (default: ${DEFAULT-VALUE}).")
    List<Integer> schemas;

    @Option(names = "--clients", split = ",", paramLabel = "N,...", defaultValue = "1,2,5,10,20,50",
            description = "Client counts (default: ${DEFAULT-VALUE}; the seed went from 1 to 50).")
    List<Integer> clients;

    @Option(names = "--rounds", paramLabel = "K", defaultValue = "5",
            description = "Rounds per measurement, at least 2 (default: the seed's ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--query-cache-mb", paramLabel = "MB", defaultValue = "64",
            description = "query_cache_size for the cases with the query cache on (default: ${DEFAULT-VALUE} MB).")
    int queryCacheMb;

    @Option(names = "--limit", converter = DurationConverter.class, defaultValue = "10m",
            description = "A measurement that takes longer fails the command (default: ${DEFAULT-VALUE}).")
    Duration limit;

    @Option(names = "--out", paramLabel = "DIR", description = "Directory to create (must not exist); default runs/qos-read-<time>.")
    Path out;

    @Override
    public Integer call() throws Exception {
        QosReadBench.requireRounds(rounds);
        List<QosSchema> chosenSchemas = schemas.stream().map(QosSchema::of).toList();
        cells(new QosReadDataSet(1, 1), chosenSchemas); // the queries and client counts, before a server starts
        if (queryCacheMb < 0) {
            throw new IllegalArgumentException("--query-cache-mb must be 0 or more");
        }
        Path dir = out != null ? out : RunCommand.defaultRunDir("qos-read");
        OutputPath.requireCreatable(dir, "output directory");
        PrintWriter w = spec.commandLine().getOut();
        List<QosReadBench.CellResult> results = new ArrayList<>();
        List<QosReadBench.Cell> cells;
        boolean interrupted;
        int exitCode;
        try (JdbcEnvironment db = connection.open(); RunSignals signals = RunSignals.install(new PrintWriter(System.err, true));
             QosReadBench bench = new QosReadBench(db.target(), dir, rounds, limit, (long) queryCacheMb << 20, 1, signals.stop())) {
            QosReadDataSet data = loadedDataSet(db, chosenSchemas);
            cells = cells(data, chosenSchemas);
            Files.createDirectories(dir);
            for (QosReadBench.Cell cell : cells) {
                QosReadBench.CellResult r = bench.run(cell);
                if (r == null) {
                    break;
                }
                results.add(r);
                w.printf(Locale.ROOT, "%-8s schema %d, %2d clients: %8d rows, %.4f +- %.4f s per client (%d rounds, %d query cache hits)%n",
                        cell.readCase().name(), cell.schema().number(), cell.clients(), r.rows(), r.secondsPerClient(), r.ci95Seconds(),
                        r.roundSeconds().size(), r.queryCacheHits());
                w.flush();
            }
            interrupted = signals.interrupted();
            exitCode = signals.exitCode();
        }
        // an interrupted read test keeps its cells under a name that says so, never as a complete reads.csv
        String csv = interrupted ? "reads-incomplete.csv" : "reads.csv";
        String csvText = QosReadBench.csv(results);
        AtomicFile.replace(dir.resolve(csv), tmp -> Files.writeString(tmp, csvText));
        String table = (interrupted ? "INCOMPLETE: interrupted after " + results.size() + " of " + cells.size() + " measurements\n" : "")
                + table(results);
        AtomicFile.replace(dir.resolve("reads.txt"), tmp -> Files.writeString(tmp, table));
        charts(results, dir);
        w.print(table);
        w.println("wrote " + dir.resolve(csv) + ", reads.txt and reads-<case>.png");
        w.flush();
        if (interrupted) {
            throw new RunCommand.Interrupted(exitCode, dir + " holds the " + results.size() + " of " + cells.size()
                    + " measurements completed before the interruption");
        }
        return 0;
    }

    /** The data set the chosen schemas hold, which must be one: the cases' conditions are made for its scale. */
    private static QosReadDataSet loadedDataSet(JdbcEnvironment db, List<QosSchema> chosen) throws java.sql.SQLException {
        QosReadDataSet data = null;
        for (QosSchema s : chosen) {
            QosReadDataSet d = io.queuelab.jdbc.qos.QosLoader.loaded(db.target(), s);
            if (data != null && !data.equals(d)) {
                throw new IllegalArgumentException("the schemas hold different data sets (" + data + ", " + d
                        + "): load them at one scale and seed");
            }
            data = d;
        }
        return data;
    }

    private List<QosReadBench.Cell> cells(QosReadDataSet data, List<QosSchema> chosenSchemas) {
        List<QosReadBench.Cell> cells = new ArrayList<>();
        for (String q : queries) {
            List<QosReadCase> matching = QosReadCase.seedCases(data).stream()
                    .filter(c -> c.query().equalsIgnoreCase(q) || c.name().equalsIgnoreCase(q)).toList();
            if (matching.isEmpty()) {
                throw new IllegalArgumentException("unknown query or case '" + q + "' (expected Q1 to Q5, or a case such as Q3.5 or Q1.2-sj)");
            }
            for (QosReadCase c : matching) {
                for (QosSchema s : chosenSchemas) {
                    if (c.appliesTo(s)) {
                        for (int n : clients) {
                            cells.add(new QosReadBench.Cell(c, s, n));
                        }
                    }
                }
            }
        }
        return cells;
    }

    /** The seed's Figures 5.8-5.27: per case, seconds per client against clients (log), one series per schema with its intervals. */
    static void charts(List<QosReadBench.CellResult> results, Path dir) throws java.io.IOException {
        for (QosReadCase c : results.stream().map(r -> r.cell().readCase()).distinct().toList()) {
            org.knowm.xchart.XYChart chart = new org.knowm.xchart.XYChartBuilder().width(800).height(500)
                    .title(c.name() + " (" + c.condition() + ", query cache " + (c.queryCache() ? "on" : "off") + ", "
                            + (c.allTables() ? "all tables" : "one table") + ")")
                    .xAxisTitle("clients").yAxisTitle("total execution time [s/client]").build();
            chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
            chart.getStyler().setXAxisLogarithmic(true);
            for (QosSchema s : QosSchema.values()) {
                List<QosReadBench.CellResult> line = results.stream().filter(r -> r.cell().readCase().equals(c) && r.cell().schema() == s)
                        .sorted(java.util.Comparator.comparingInt(r -> r.cell().clients())).toList();
                if (!line.isEmpty()) {
                    chart.addSeries("schema " + s.number(), line.stream().mapToDouble(r -> r.cell().clients()).toArray(),
                            line.stream().mapToDouble(QosReadBench.CellResult::secondsPerClient).toArray(),
                            line.stream().mapToDouble(QosReadBench.CellResult::ci95Seconds).toArray());
                }
            }
            io.queuelab.reports.report.PngFile.write(dir.resolve("reads-" + c.name() + ".png"), chart);
        }
    }

    /** Seconds per client: one line per case and schema, one column per client count. */
    static String table(List<QosReadBench.CellResult> results) {
        List<Integer> clientValues = results.stream().map(r -> r.cell().clients()).distinct().sorted().toList();
        StringBuilder b = new StringBuilder("seconds per client, mean over the rounds +- 95 % interval (clients across)\n");
        b.append(String.format(Locale.ROOT, "%-8s %-5s %-9s %6s %8s", "case", "cache", "tables", "schema", "rows"));
        clientValues.forEach(n -> b.append(String.format(Locale.ROOT, " %17d", n)));
        b.append('\n');
        List<String> keys = new ArrayList<>();
        for (QosReadBench.CellResult r : results) {
            String key = r.cell().readCase() + "/" + r.cell().schema();
            if (keys.contains(key)) {
                continue;
            }
            keys.add(key);
            QosReadCase c = r.cell().readCase();
            b.append(String.format(Locale.ROOT, "%-8s %-5s %-9s %6d %8d", c.name(), c.queryCache() ? "on" : "off",
                    c.allTables() ? "all" : "one", r.cell().schema().number(), r.rows()));
            for (int n : clientValues) {
                b.append(results.stream().filter(x -> (x.cell().readCase() + "/" + x.cell().schema()).equals(key) && x.cell().clients() == n)
                        .findFirst().map(x -> String.format(Locale.ROOT, " %8.4f+-%-7.4f", x.secondsPerClient(), x.ci95Seconds()))
                        .orElse(String.format(Locale.ROOT, " %17s", "-")));
            }
            b.append('\n');
        }
        return b.toString();
    }
}
