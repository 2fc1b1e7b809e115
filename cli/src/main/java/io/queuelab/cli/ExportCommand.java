package io.queuelab.cli;

import io.queuelab.core.log.AtomicFile;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.summary.CsvExport;
import io.queuelab.core.summary.HlogExport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code queuelab export}: a run's request log as CSV, and as HdrHistogram interval logs. */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = "Export a run's request log as CSV (one row a request) and/or HdrHistogram interval logs (.hlog) per operation.")
public final class ExportCommand implements Callable<Integer> {
    @Parameters(paramLabel = "RUN_DIR", description = "A run directory.")
    Path dir;

    @Option(names = "--csv", paramLabel = "FILE", arity = "0..1", fallbackValue = "-",
            description = "Write CSV to FILE (default: standard output).")
    String csv;

    @Option(names = "--hlog", paramLabel = "DIR", arity = "0..1", fallbackValue = "",
            description = "Write <operation>.hlog files into DIR (default: the run directory).")
    String hlog;

    @Option(names = "--interval", converter = DurationConverter.class, defaultValue = "1s",
            description = "Interval of the .hlog histograms (default ${DEFAULT-VALUE}).")
    Duration interval;

    @Option(names = "--force", description = "Replace an existing CSV file or .hlog files.")
    boolean force;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if (csv == null && hlog == null) {
            throw new IllegalArgumentException("say what to export: --csv [FILE] and/or --hlog [DIR]");
        }
        if (csv != null && !csv.equals("-")) {
            OutputPath.requireNew(Path.of(csv), "--csv", force);
            OutputPath.requireWritable(Path.of(csv), "--csv");
        }
        RunDirectory run = RunDirectory.open(dir);
        Path hlogDir = hlog == null ? null : hlog.isEmpty() ? run.path() : Path.of(hlog);
        // first, on stderr (the CSV may be going to stdout): an incomplete run or a damaged log
        Completeness.ofRun(run).forEach(spec.commandLine().getErr()::println);
        spec.commandLine().getErr().flush();
        // the .hlog files before the CSV: HlogExport refuses an existing one (without --force) before it writes any,
        // so a refusal leaves nothing written, the CSV included, and the log is read once for each output
        if (hlogDir != null) {
            Files.createDirectories(hlogDir);
            try (RequestLogReader reader = run.openLog()) {
                List<Path> files = HlogExport.write(reader, hlogDir, interval.toNanos(), force);
                spec.commandLine().getErr().println("wrote " + files);
            } catch (FileAlreadyExistsException e) {
                OutputPath.requireNew(Path.of(e.getFile()), ".hlog file", false); // refuses in the words of every output: the file is there
                throw e;
            }
        }
        if (csv != null) {
            try (RequestLogReader reader = run.openLog()) {
                if (csv.equals("-")) {
                    Writer w = spec.commandLine().getOut();
                    CsvExport.write(reader, w);
                } else {
                    Path file = Path.of(csv);
                    long[] rows = new long[1];
                    AtomicFile.replace(file, tmp -> {
                        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                            rows[0] = CsvExport.write(reader, w);
                        }
                    });
                    spec.commandLine().getErr().println("wrote " + rows[0] + " rows to " + file);
                }
            }
        }
        return 0;
    }
}
