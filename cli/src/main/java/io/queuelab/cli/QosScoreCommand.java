package io.queuelab.cli;

import io.queuelab.jdbc.qos.QosPoints;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code queuelab qos-score}: seed 000's points (Tables 5.6 and 5.7) from a measured write grid and read test. */
@Command(name = "qos-score", mixinStandardHelpOptions = true,
        description = "Seed 000's points (its section 5.3, equations 4-10): writing from qos-write's grid.csv, reading from"
                + " qos-read's reads.csv, total = 2 x writing + reading; prints the seed's Tables 5.6 and 5.7 for these measurements.")
public final class QosScoreCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--write", required = true, paramLabel = "GRID_CSV", description = "grid.csv of queuelab qos-write (all three schemas).")
    Path write;

    @Option(names = "--read", required = true, paramLabel = "READS_CSV", description = "reads.csv of queuelab qos-read (all three schemas).")
    Path read;

    @Override
    public Integer call() throws Exception {
        List<QosPoints.WriteSample> writes = new ArrayList<>();
        for (Map<String, String> row : csv(write, "schema", "lines_per_second")) {
            writes.add(new QosPoints.WriteSample(Integer.parseInt(row.get("schema")), Double.parseDouble(row.get("lines_per_second"))));
        }
        List<QosPoints.ReadSample> reads = new ArrayList<>();
        for (Map<String, String> row : csv(read, "query", "case_number", "straight_join", "schema", "clients", "seconds_per_client")) {
            reads.add(new QosPoints.ReadSample(row.get("query"), Integer.parseInt(row.get("case_number")),
                    Boolean.parseBoolean(row.get("straight_join")), Integer.parseInt(row.get("schema")),
                    Integer.parseInt(row.get("clients")), Double.parseDouble(row.get("seconds_per_client"))));
        }
        QosPoints.Points p = QosPoints.score(writes, reads);
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-28s %10s %10s %10s%n", "", "schema 1", "schema 2", "schema 3"));
        p.readingByQuery().forEach((q, x) -> b.append(row("reading " + q + " (Table 5.6)", x)));
        b.append(row("points for writing", p.writing()));
        b.append(row("weighted points for writing", Arrays.stream(p.writing()).map(x -> 2 * x).toArray()));
        b.append(row("points for reading", p.reading()));
        b.append(row("total points", p.total()));
        spec.commandLine().getOut().print(b);
        spec.commandLine().getOut().flush();
        return 0;
    }

    private static String row(String name, double[] x) {
        return String.format(Locale.ROOT, "%-28s %10.2f %10.2f %10.2f%n", name, x[0], x[1], x[2]);
    }

    /** The rows of a CSV with a header line, as maps; the named columns must be there. */
    private static List<Map<String, String>> csv(Path file, String... required) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + " does not exist");
        }
        if (lines.isEmpty()) {
            throw new IllegalArgumentException(file + " is empty");
        }
        List<String> header = List.of(lines.get(0).split(","));
        for (String r : required) {
            if (!header.contains(r)) {
                throw new IllegalArgumentException(file + " has no column '" + r + "'");
            }
        }
        List<Map<String, String>> rows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            String[] cells = lines.get(i).split(",", -1);
            if (cells.length != header.size()) {
                throw new IllegalArgumentException(file + " line " + (i + 1) + " has " + cells.length + " fields, the header " + header.size());
            }
            Map<String, String> row = new java.util.HashMap<>();
            for (int c = 0; c < cells.length; c++) {
                row.put(header.get(c), cells[c]);
            }
            rows.add(row);
        }
        return rows;
    }
}
