package io.queuelab.cli;

import io.queuelab.jdbc.JdbcEnvironment;
import io.queuelab.jdbc.LoadStop;
import io.queuelab.jdbc.qos.QosLoader;
import io.queuelab.jdbc.qos.QosReadDataSet;
import io.queuelab.jdbc.qos.QosSchema;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The options of {@code queuelab load --relation qos} (seed 000's read data set in its three schemas). */
public final class QosLoadOptions {
    @Option(names = "--schema", split = ",", paramLabel = "1|2|3",
            description = "qos: the schema(s) to create and fill, e.g. 2 or 1,2,3 (default: all three).")
    List<Integer> schemas;

    @Option(names = "--scale", paramLabel = "F",
            description = "qos: the fraction of the seed's Table 4.3 row counts (default 1: 556 runs, 2,032,000 rows; 0.01 gives 20,320).")
    Double scale;

    /** Whether any qos option was given (they are refused for other relations). */
    boolean given() {
        return schemas != null || scale != null;
    }

    /** Loads the chosen schemas; returns the exit code (130, 143 or 129 after a signal, which ends the load early). */
    int load(JdbcConnectionOptions connection, long seed, PrintWriter out, PrintWriter err) throws Exception {
        QosReadDataSet data = new QosReadDataSet(scale == null ? 1 : scale, seed);
        List<QosSchema> chosen = schemas == null ? List.of(QosSchema.values()) : schemas.stream().map(QosSchema::of).toList();
        try (JdbcEnvironment db = connection.open(err, "load", "nothing was loaded")) {
            LoadStop stop = new LoadStop();
            try (RunSignals signals = LoadCommand.signals(err, stop)) {
                List<String> loaded = new ArrayList<>();
                for (QosSchema schema : chosen) {
                    QosLoader.Result r;
                    try {
                        r = load(db, schema, data, stop);
                    } catch (LoadStop.Interrupted e) {
                        LoadCommand.interrupted(err, stop, signals, new LoadStop.Interrupted(e.getMessage()
                                + (loaded.isEmpty() ? "" : "; schema " + String.join(", ", loaded) + " was loaded before (above)")));
                        return signals.exitCode();
                    }
                    loaded.add(Integer.toString(schema.number()));
                    out.printf(Locale.ROOT, "loaded schema %d (%s): %d runs, %d rows at %s in %.1f s%n", schema.number(),
                            String.join(", ", schema.tables(schema.prefix(QosSchema.READ_BASE))), r.runs(), r.rows(),
                            db.target().redactedUrl(), r.duration().toNanos() / 1e9);
                    out.flush();
                }
                return signals.exitCode();
            }
        }
    }

    private static QosLoader.Result load(JdbcEnvironment db, QosSchema schema, QosReadDataSet data, LoadStop stop) throws SQLException {
        return new QosLoader(db.target(), stop).load(schema, data);
    }
}
