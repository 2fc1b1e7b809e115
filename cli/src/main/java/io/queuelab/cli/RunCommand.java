package io.queuelab.cli;

import io.queuelab.core.backend.Backend;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.run.LoadRun;
import io.queuelab.core.run.RunCompanion;
import io.queuelab.core.run.RunConfig;
import io.queuelab.core.run.ManifestNotWritten;
import io.queuelab.core.run.RunResult;
import io.queuelab.core.summary.RunSummary;
import io.queuelab.core.summary.SummaryText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code queuelab run}: one run of a load against a backend, leaving a run directory and printing its summary. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Apply an open-loop (Poisson or constant) or closed-loop load to a backend and log every request.")
public final class RunCommand implements Callable<Integer> {
    @Mixin
    LoadOptions load;

    @Mixin
    GeneratorOptions generator;

    @Mixin
    BackendOptions backend;

    @Mixin
    ServerCoresOption serverCores;

    @Option(names = "--out", paramLabel = "DIR", description = "Run directory to create (must not exist); default runs/run-<time>.")
    Path out;

    @Option(names = "--strict", description = "Exit with code 1 when the self-check fails.")
    boolean strict;

    @Option(names = "--print-plan",
            description = "Print the load's length ('plan: N s of phases, drain timeout D s') and exit "
                    + "without running or creating anything (scripts/distributed-run sets its deadline by it).")
    boolean printPlan;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Integer statedCores = serverCores.value();
        backend.checkServerPackaged();
        if (printPlan) {
            spec.commandLine().getOut().printf(java.util.Locale.ROOT, "plan: %.3f s of phases, drain timeout %.3f s%n",
                    load.plan().totalDuration().toNanos() / 1e9, generator.drainTimeout.toNanos() / 1e9);
            spec.commandLine().getOut().flush();
            return 0;
        }
        Path dir = out != null ? out : defaultRunDir("run");
        generator.defaultWorkers(backend.defaultWorkers());
        RunConfig config = generator.config(load.plan(), dir);
        backend.checkNodeCount(config.nodeCount());
        backend.checkTelemetry(config.nodeIndex()); // before open() starts a server
        Map<String, Object> settings = new LinkedHashMap<>(load.settings());
        settings.putAll(generator.settings());
        settings.putAll(backend.settings());
        RunResult result;
        try (BackendOptions server = backend; Backend b = server.open(config.seed())) {
            RunConfig placed = config.withPlacement(server.place(statedCores, spec.commandLine().getErr()));
            result = execute(placed, b, settings, spec.commandLine().getOut(), server.companion(config.nodeIndex()));
        }
        return strict && !result.selfCheck().keptUp() ? 1 : 0;
    }

    /** A run that a signal ended early: its directory is complete; the command exits with the signal's code. */
    static final class Interrupted extends RuntimeException {
        final int exitCode;

        Interrupted(int exitCode, String message) {
            super(message);
            this.exitCode = exitCode;
        }
    }

    /** Runs and prints the run's summary; shared by every command that runs a load. */
    static RunResult execute(RunConfig config, Backend backend, Map<String, Object> settings, java.io.PrintWriter out,
                             RunCompanion companion) throws Exception {
        out.println("run " + config.outputDir() + ": " + describe(config));
        out.flush();
        PrintStream progress = new PrintStream(new WriterOutputStream(out), true);
        RunResult result;
        try (RunSignals signals = RunSignals.install(new java.io.PrintWriter(System.err, true))) {
            try {
                result = LoadRun.execute(config, backend, settings, progress, companion, signals.stop());
            } catch (ManifestNotWritten e) {
                // a full disk: the console is all that is left to say what the run counted and concluded
                RunDirectory dir = e.result().directory();
                out.println("the run's manifest could not be written; the totals and the self-check it would hold:");
                out.print(SummaryText.render(RunSummary.of(dir), e.manifest()));
                out.flush();
                throw new IllegalStateException(e.getMessage() + ": the totals and the verdict above are not saved; "
                        + dir.manifestFile() + " stays marked incomplete and the log keeps the records written before");
            }
            RunDirectory dir = result.directory();
            out.print(SummaryText.render(RunSummary.of(dir), dir.manifest()));
            ResourceLines.print(out, dir.path());
            out.flush();
            if (signals.interrupted()) {
                throw new Interrupted(signals.exitCode(), dir.path() + " is complete up to the interruption ("
                        + dir.manifest().stopReason().orElse("") + ")");
            }
        }
        return result;
    }

    static String describe(RunConfig config) {
        StringBuilder b = new StringBuilder();
        config.plan().phases().forEach(p -> b.append(b.length() == 0 ? "" : ", ")
                .append(p.closedLoop() ? "N=" + p.concurrency() : String.format(java.util.Locale.ROOT, "%.2f/s", p.rate()))
                .append(" for ").append(p.duration().toNanos() / 1e9).append("s").append(p.warmup() ? " (warm-up)" : ""));
        return b.toString();
    }

    static Path defaultRunDir(String prefix) {
        return Path.of("runs", prefix + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS")));
    }

    /** Progress lines go to the command's own output writer. */
    private static final class WriterOutputStream extends java.io.OutputStream {
        private final java.io.PrintWriter out;
        private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();

        WriterOutputStream(java.io.PrintWriter out) {
            this.out = out;
        }

        @Override
        public synchronized void write(int b) {
            line.write(b);
            if (b == '\n') {
                flush();
            }
        }

        @Override
        public synchronized void flush() {
            out.print(line.toString(java.nio.charset.StandardCharsets.UTF_8));
            out.flush();
            line.reset();
        }
    }
}
