package io.queuelab.cli;

import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.log.RunDirectory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code queuelab read-speed}: how fast the streaming reader reads a run's log (a benchmark, see
 * docs/benchmarks.md). Each pass touches every field of every record; the first passes warm the
 * JIT and the page cache, the best of the rest is reported.
 */
@Command(name = "read-speed", hidden = true, mixinStandardHelpOptions = true,
        description = "Benchmark: records per second of the streaming log reader on a run directory.")
public final class ReadSpeedCommand implements Callable<Integer> {
    @Parameters(paramLabel = "RUN_DIR")
    Path dir;

    @Option(names = "--passes", defaultValue = "7")
    int passes;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        RunDirectory run = RunDirectory.open(dir);
        double best = 0;
        long records = 0;
        long checksum = 0;
        for (int pass = 0; pass < passes; pass++) {
            long t0 = System.nanoTime();
            records = 0;
            try (RequestLogReader r = run.openLog()) {
                while (r.next()) {
                    checksum += r.intended() ^ r.dequeued() ^ r.sent() ^ r.completed()
                            ^ r.node() ^ r.worker() ^ r.operation() ^ r.outcome() ^ r.phase() ^ r.flags();
                    records++;
                }
            }
            double perSecond = records / ((System.nanoTime() - t0) / 1e9);
            if (pass >= 2) {
                best = Math.max(best, perSecond);
            }
        }
        spec.commandLine().getOut().printf(Locale.ROOT, "%d records, best of %d passes: %.2f million records/s (checksum %x)%n",
                records, Math.max(1, passes - 2), best / 1e6, checksum);
        return 0;
    }
}
