package io.queuelab.cli;

import io.queuelab.core.log.AtomicFile;
import io.queuelab.jdbc.JdbcEnvironment;
import io.queuelab.jdbc.qos.QosEndToEnd;
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

/** {@code queuelab qos-ingest}: seed 000's end-to-end writing test (its section 5.4). */
@Command(name = "qos-ingest", mixinStandardHelpOptions = true,
        description = {"Seed 000's end-to-end writing test: C measurement clients each emit --lines-per-client result lines a"
                + " second (one constant-rate open-loop stream) into W writer processes (one connection each; the request queue"
                + " is their buffer), for each C and W. Reports the lines written per second in the measured window and the"
                + " backlog: how long after the producers stopped the last line was written, and the longest wait of a line.",
                "Leaves <out>/ingest.csv, ingest.txt and a run directory per point (<out>/c<C>-w<W>)."})
public final class QosIngestCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    JdbcConnectionOptions connection = new JdbcConnectionOptions();

    @Option(names = "--clients", split = ",", paramLabel = "C,...", defaultValue = "10,20,50,100,120,150,200,250,300,350",
            description = "Measurement clients (default: the seed's ${DEFAULT-VALUE}).")
    List<Integer> clients;

    @Option(names = "--writers", split = ",", paramLabel = "W,...", defaultValue = "1,2,3",
            description = "Writer processes (default: the seed's ${DEFAULT-VALUE}).")
    List<Integer> writers;

    @Option(names = "--schema", paramLabel = "1|2|3", defaultValue = "2", description = "Schema (default: ${DEFAULT-VALUE}, the seed's choice).")
    int schema;

    @Option(names = "--lines-per-client", paramLabel = "R", defaultValue = "20",
            description = "Lines a client emits per second (default: the seed's ${DEFAULT-VALUE}, a 50 ms averaging interval).")
    double linesPerClient;

    @Option(names = "--warmup", converter = DurationConverter.class, defaultValue = "5s", description = "Warm-up (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--duration", converter = DurationConverter.class, defaultValue = "30s",
            description = "Measured window, all clients emitting (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--drain", converter = DurationConverter.class, defaultValue = "120s",
            description = "How long the writers may work off their backlog after the producers stop (default: ${DEFAULT-VALUE}).")
    Duration drain;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Seed of the written values (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", paramLabel = "DIR", description = "Directory to create (must not exist); default runs/qos-ingest-<time>.")
    Path out;

    @Override
    public Integer call() throws Exception {
        QosSchema chosen = QosSchema.of(schema);
        for (int c : clients) {
            if (c < 1) {
                throw new IllegalArgumentException("--clients must be at least 1, not " + c);
            }
        }
        for (int w : writers) {
            if (w < 1) {
                throw new IllegalArgumentException("--writers must be at least 1, not " + w);
            }
        }
        if (duration.isZero() || duration.isNegative() || warmup.isNegative() || drain.isNegative()) {
            throw new IllegalArgumentException("--duration must be positive, --warmup and --drain zero or more");
        }
        Path dir = out != null ? out : RunCommand.defaultRunDir("qos-ingest");
        OutputPath.requireCreatable(dir, "output directory");
        PrintWriter w = spec.commandLine().getOut();
        List<QosEndToEnd.Result> results = new ArrayList<>();
        boolean interrupted;
        int exitCode;
        try (JdbcEnvironment db = connection.open(); RunSignals signals = RunSignals.install(new PrintWriter(System.err, true))) {
            QosEndToEnd test = new QosEndToEnd(db.target(), chosen, linesPerClient, warmup, duration, drain, signals.stop());
            Files.createDirectories(dir);
            w.println(QosEndToEnd.Result.header());
            w.flush();
            for (int writerCount : writers) {
                for (int c : clients) {
                    QosEndToEnd.Result r = test.run(c, writerCount, dir.resolve("c" + c + "-w" + writerCount), seed);
                    if (r == null) {
                        break;
                    }
                    results.add(r);
                    w.println(r.line());
                    w.flush();
                }
            }
            interrupted = signals.interrupted();
            exitCode = signals.exitCode();
        }
        StringBuilder table = new StringBuilder(QosEndToEnd.Result.header()).append('\n');
        StringBuilder csv = new StringBuilder("clients,writers,offered_per_second,written_per_second,backlog_seconds,max_wait_seconds,unwritten\n");
        for (QosEndToEnd.Result r : results) {
            table.append(r.line()).append('\n');
            csv.append(String.format(Locale.ROOT, "%d,%d,%.1f,%.1f,%.3f,%.3f,%d%n", r.clients(), r.writers(), r.offeredPerSecond(),
                    r.writtenPerSecond(), r.backlogSeconds(), r.maxWaitSeconds(), r.unfinished()));
        }
        AtomicFile.replace(dir.resolve("ingest.txt"), tmp -> Files.writeString(tmp, table));
        AtomicFile.replace(dir.resolve("ingest.csv"), tmp -> Files.writeString(tmp, csv));
        w.println("wrote " + dir.resolve("ingest.csv") + " and ingest.txt");
        w.flush();
        if (interrupted) {
            throw new RunCommand.Interrupted(exitCode, dir + " holds the " + results.size() + " points completed before the interruption");
        }
        return 0;
    }
}
