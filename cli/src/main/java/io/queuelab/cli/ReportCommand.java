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
        OutputPath.requireNew(out, "report", force);
        OutputPath.requireWritable(out, "report");
        for (Path run : runs) {
            Completeness.of(run).forEach(System.out::println); // first: what is incomplete or damaged
        }
        System.out.println(Report.write(runs, out));
        return 0;
    }
}
