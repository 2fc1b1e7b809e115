package io.queuelab.cli;

import io.queuelab.reports.report.Report;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code queuelab report RUN-OR-SWEEP... --out report.html}: the self-contained HTML report. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Write one self-contained HTML report (inline SVG charts, PNGs beside it) of runs and sweeps:",
                "fits, measured vs simulated with verdicts, response time vs time with flushes, N/T and N/P."})
public final class ReportCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "RUN", description = "Run directories, sweep directories or CSV request logs.")
    List<Path> runs;

    @Option(names = "--out", defaultValue = "report.html", description = "The HTML file (default ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--force", description = "Replace an existing report.")
    boolean force;

    @Override
    public Integer call() throws IOException {
        String name = out.getFileName().toString();
        if (!name.endsWith(".html")) {
            throw new IllegalArgumentException("--out must name an .html file, got " + out);
        }
        Path parent = out.toAbsolutePath().getParent();
        if (!Files.isDirectory(parent)) {
            throw new IllegalArgumentException("no directory " + parent + " for --out");
        }
        OutputPath.requireNew(out, "--out", force);
        OutputPath.requireWritable(out, "--out");
        for (Path run : runs) {
            Completeness.of(run).forEach(System.out::println); // first: what is incomplete or damaged
            if (measuredNothing(run)) { // a sweep's warning names its own such runs
                System.out.println("note: run " + run + " measured no request (none outside warm-up): left out of the report's"
                        + " fits, not a point of them (see its verdict)");
            }
        }
        System.out.println(Report.write(runs, out));
        return 0;
    }

    /** A complete run directory whose self-check says no request was measured. */
    private static boolean measuredNothing(Path run) {
        if (!Files.isRegularFile(run.resolve(io.queuelab.core.log.LogFormat.FILE_NAME))) {
            return false; // a sweep or a CSV log
        }
        try {
            io.queuelab.core.manifest.Manifest m = io.queuelab.core.manifest.Manifest.read(run);
            return m.complete() && m.selfCheck().map(io.queuelab.core.run.SelfCheck::measuredNothing).orElse(false);
        } catch (IOException noManifest) {
            return false; // said by Completeness
        }
    }
}
