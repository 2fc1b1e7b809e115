package io.queuelab.fit.runs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Reads runs and prints their one-line summaries with the time taken and the heap in use: the
 * entry point of {@code scripts/bench-reports}.
 * Usage: {@code java -cp queuelab.jar io.queuelab.fit.runs.Summarize RUN...}
 */
public final class Summarize {
    private Summarize() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: Summarize RUN...");
            System.exit(2);
        }
        for (String arg : args) {
            long start = System.nanoTime();
            RunData run = RunData.read(Path.of(arg));
            double seconds = (System.nanoTime() - start) / 1e9;
            System.gc();
            Runtime rt = Runtime.getRuntime();
            System.out.printf(Locale.ROOT,
                    "%s: %d records, %d ok, rate %.5g/s, mean %.6g s, p50 %.6g s, p99 %.6g s, p99.9 %.6g s, %d intervals of %.4g s;"
                            + " read in %.3f s (%.3g records/s), heap in use after %.1f MiB%n",
                    arg, run.records(), run.okCount(), run.arrivalRate(), run.meanResponseSeconds(), run.quantileSeconds(0.5),
                    run.quantileSeconds(0.99), run.quantileSeconds(0.999), run.series().length(), run.series().intervalSeconds(),
                    seconds, run.records() / seconds, (rt.totalMemory() - rt.freeMemory()) / 1048576.0);
        }
    }
}
