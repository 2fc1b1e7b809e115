package io.queuelab.cli;

import io.queuelab.jdbc.JdbcEnvironment;
import io.queuelab.jdbc.LoadStop;
import io.queuelab.jdbc.WisconsinLoader;
import io.queuelab.jdbc.WisconsinRelation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code queuelab load}: creates and fills a benchmark relation on the embedded or a given server. */
@Command(name = "load", mixinStandardHelpOptions = true,
        description = {"Create and fill a benchmark relation: the scalable Wisconsin relation of seeds 001/004 (wisc),"
                + " or seed 000's QoS measurement data in its three schemas (qos: --schema, --scale).",
                "The table is filled under a scratch name and renamed into place when complete; an existing table of the name is replaced."})
public final class LoadCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    JdbcConnectionOptions connection = new JdbcConnectionOptions();

    @Option(names = "--relation", paramLabel = "wisc|qos", description = "The relation to load: wisc (default) or qos (seed 000).")
    String relation = "wisc";

    @Option(names = "--tuples", paramLabel = "N", description = "wisc: number of tuples (1 to 2147483647), required.")
    Long tuples;

    @Mixin
    QosLoadOptions qos = new QosLoadOptions();

    @Option(names = "--engine", paramLabel = "InnoDB|MyISAM", description = "Storage engine (default InnoDB).")
    String engine = "InnoDB";

    @Option(names = "--table", paramLabel = "NAME", description = "Table name (default: the relation's name, wisc).")
    String table;

    @Option(names = "--seed", paramLabel = "S", description = "Seed of unique1's random permutation (default 1).")
    long seed = 1;

    @Option(names = "--method", paramLabel = "auto|infile|insert",
            description = "LOAD DATA LOCAL from a stream, multi-row INSERTs, or auto (infile where the server allows it).")
    String method = "auto";

    @Override
    public Integer call() throws Exception {
        if (relation.equals("qos")) {
            if (tuples != null || table != null || !engine.equals("InnoDB") || !method.equals("auto")) {
                throw new IllegalArgumentException("--tuples, --table, --engine and --method apply to --relation wisc;"
                        + " qos takes --schema and --scale");
            }
            return qos.load(connection, seed, spec.commandLine().getOut(), spec.commandLine().getErr());
        }
        if (!relation.equals("wisc")) {
            throw new IllegalArgumentException("unknown relation '" + relation + "' (expected wisc or qos)");
        }
        if (qos.given()) {
            throw new IllegalArgumentException("--schema and --scale apply to --relation qos");
        }
        if (tuples == null) {
            throw new IllegalArgumentException("--relation wisc needs --tuples N");
        }
        if (tuples < 1 || tuples > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--tuples must be between 1 and " + Integer.MAX_VALUE + ": " + tuples);
        }
        WisconsinRelation.Engine storage = WisconsinRelation.Engine.parse(engine);
        WisconsinRelation wisc = new WisconsinRelation(table == null ? WisconsinRelation.DEFAULT_TABLE : table, tuples.intValue(), seed);
        WisconsinLoader.Method chosen = switch (method.toLowerCase(Locale.ROOT)) {
            case "auto" -> null;
            case "infile" -> WisconsinLoader.Method.LOCAL_INFILE;
            case "insert" -> WisconsinLoader.Method.MULTI_ROW_INSERT;
            default -> throw new IllegalArgumentException("--method must be auto, infile or insert, not '" + method + "'");
        };
        try (JdbcEnvironment db = connection.open(spec.commandLine().getErr(), "load", "nothing was loaded")) {
            // from here a signal stops the load itself, and the server (an embedded one) is stopped as the command ends;
            // before, the JVM's own handling stopped the server under the load, which died with "Communications link failure"
            LoadStop stop = new LoadStop();
            try (RunSignals signals = signals(spec.commandLine().getErr(), stop)) {
                WisconsinLoader loader = new WisconsinLoader(db.target(), stop);
                WisconsinLoader.Result r;
                try {
                    r = chosen == null ? loader.load(wisc, storage) : loader.load(wisc, storage, chosen);
                } catch (LoadStop.Interrupted e) {
                    interrupted(spec.commandLine().getErr(), stop, signals, e);
                    return signals.exitCode();
                }
                spec.commandLine().getOut().printf(Locale.ROOT,
                        "loaded %d tuples into %s (%s) at %s in %.1f s (fill %.1f s by %s, unique1 index %.1f s)%n",
                        wisc.tuples(), wisc.table(), storage.sqlName(), db.target().redactedUrl(),
                        r.total().toNanos() / 1e9, r.fill().toNanos() / 1e9, r.method(), r.index().toNanos() / 1e9);
                return signals.exitCode();
            }
        }
    }

    /** Ctrl-C, SIGTERM and SIGHUP stop the load: its statement is cancelled and its scratch tables dropped. */
    static RunSignals signals(PrintWriter err, LoadStop stop) {
        return RunSignals.install(err, "stopping the load (cancelling its statement on the server)",
                "a scratch table (NAME__loading) may be left on the server; the next load drops it", stop::request);
    }

    /** The one line an interrupted load ends with: why, when, and what was kept. */
    static void interrupted(PrintWriter err, LoadStop stop, RunSignals signals, LoadStop.Interrupted e) {
        err.printf(Locale.ROOT, "queuelab: load %s after %.1f s: %s%n", stop.reason(), signals.secondsSinceInstalled(), e.getMessage());
        err.flush();
    }
}
