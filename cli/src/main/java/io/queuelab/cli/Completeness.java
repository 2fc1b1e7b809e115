package io.queuelab.cli;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.MergeInfo;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.summary.RunSummary;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What {@code summary}, {@code export} and {@code report} say first about a run or sweep on disk
 * that is not complete (crashed, interrupted, partial) or whose log is damaged, with what is there:
 * one "WARNING:" line each, none for a complete and intact one.
 */
final class Completeness {
    private Completeness() {
    }

    /** The warnings for a run directory, a sweep directory, or nothing (a CSV log, say). */
    static List<String> of(Path path) throws IOException {
        if (Files.isRegularFile(path.resolve(LogFormat.FILE_NAME))) {
            return ofRun(RunDirectory.open(path));
        }
        if (isSweep(path)) {
            return ofSweep(path);
        }
        return List.of();
    }

    /** A sweep directory: one with {@code sweep.json}, or with run directories and no log of its own. */
    static boolean isSweep(Path path) throws IOException {
        return Files.isDirectory(path) && !Files.exists(path.resolve(LogFormat.FILE_NAME))
                && (Files.isRegularFile(path.resolve(SweepManifest.FILE_NAME)) || !runsOnDisk(path).isEmpty());
    }

    /** Warnings for one run: not finished (with the records on disk), and every problem of its log. */
    static List<String> ofRun(RunDirectory run) throws IOException {
        List<String> warnings = new ArrayList<>();
        Manifest manifest = Files.exists(run.manifestFile()) ? run.manifest() : null;
        long expected = RunSummary.expectedRecords(run);
        long records;
        List<String> problems;
        long[] outcomes = new long[LogFormat.MAX_OUTCOME + 1];
        try (RequestLogReader log = run.openLog()) {
            while (log.next()) {
                outcomes[log.outcome()]++;
            }
            records = log.recordsRead();
            problems = log.problems(manifest != null && manifest.complete() ? expected : -1);
        }
        if (manifest != null && manifest.inProgress()) {
            // its writer is alive: not a crash (before: "it crashed or was interrupted")
            warnings.add("WARNING: run " + run + " is still in progress (queuelab pid " + manifest.jvm().orElseThrow().pid()
                    + " is writing it); on disk so far: " + records + " requests logged");
        } else if (manifest == null || !manifest.complete()) {
            warnings.add("WARNING: run " + run + " is incomplete: it crashed or was interrupted "
                    + (manifest == null ? "before writing its manifest" : "(its manifest is not marked complete)")
                    + "; on disk: " + records + " requests logged (" + outcomes[LogFormat.OK] + " ok, "
                    + (records - outcomes[LogFormat.OK] - outcomes[LogFormat.DROPPED] - outcomes[LogFormat.UNFINISHED]) + " failed, "
                    + outcomes[LogFormat.DROPPED] + " dropped, " + outcomes[LogFormat.UNFINISHED] + " unfinished)");
        }
        if (manifest != null && manifest.complete()) {
            manifest.merge().filter(MergeInfo::partial).ifPresent(merge -> warnings.add("WARNING: run " + run + " is "
                    + merge.partialText() + "; its counts and rates are those of the nodes present"));
            manifest.stopReason().ifPresent(reason -> warnings.add("WARNING: run " + run + " was cut short (" + reason
                    + "); on disk: its " + records + " requests, complete up to there"));
        }
        boolean inProgress = manifest != null && manifest.inProgress();
        for (String problem : problems) {
            if (inProgress && problem.startsWith("the log has no end mark")) {
                continue; // its writer has not closed it yet: not "a crash"
            }
            warnings.add("WARNING: run " + run + ": " + problem);
        }
        return warnings;
    }

    /** Warnings for a sweep: not complete (with its finished and unfinished runs on disk). */
    static List<String> ofSweep(Path sweep) throws IOException {
        boolean complete = SweepManifest.read(sweep).map(SweepManifest.Contents::complete).orElse(false);
        Path file = sweep.resolve(SweepManifest.FILE_NAME);
        List<String> warnings = new ArrayList<>();
        List<Path> runs = runsOf(sweep);
        List<String> finished = new ArrayList<>();
        List<String> unfinished = new ArrayList<>();
        List<String> empty = new ArrayList<>(); // complete, but nothing outside warm-up: no point of the sweep
        for (Path run : runs) {
            List<String> into;
            try {
                Manifest m = Manifest.read(run);
                into = !m.complete() ? unfinished
                        : m.selfCheck().map(io.queuelab.core.run.SelfCheck::measuredNothing).orElse(false) ? empty : finished;
            } catch (IOException noManifest) {
                into = unfinished;
            }
            into.add(run.getFileName().toString());
        }
        String finishedRuns = finished.size() + " finished run" + (finished.size() == 1 ? "" : "s")
                + (finished.isEmpty() ? "" : " (" + String.join(", ", finished) + ")");
        String emptyRuns = empty.isEmpty() ? "" : "; " + String.join(", ", empty) + " measured no request (not a point of the "
                + "sweep: see " + (empty.size() == 1 ? "its" : "their") + " verdict)";
        if (!complete || !unfinished.isEmpty()) {
            warnings.add("WARNING: sweep " + sweep + " is incomplete: it was killed or failed before its end ("
                    + (Files.exists(file) ? SweepManifest.FILE_NAME + " is not marked complete" : "no " + SweepManifest.FILE_NAME)
                    + "); on disk: " + finishedRuns
                    + (unfinished.isEmpty() ? "" : " and " + unfinished.size() + " unfinished (" + String.join(", ", unfinished) + ")")
                    + emptyRuns);
        } else if (!empty.isEmpty()) {
            warnings.add("WARNING: sweep " + sweep + ": " + finishedRuns + emptyRuns);
        }
        return warnings;
    }

    /**
     * The run directories of a sweep: those {@code sweep.json} lists, in its order, then any other
     * run directory on disk (the run a killed sweep was in, which it had not listed yet).
     */
    static List<Path> runsOf(Path sweep) throws IOException {
        Set<Path> runs = new LinkedHashSet<>();
        // an unreadable sweep.json lists nothing: the runs on disk still say what there is
        for (SweepManifest.Run run : SweepManifest.read(sweep).map(SweepManifest.Contents::runs).orElse(List.of())) {
            Path dir = run.dir() == null ? null : sweep.resolve(run.dir());
            if (dir != null && Files.isRegularFile(dir.resolve(LogFormat.FILE_NAME))) {
                runs.add(dir);
            }
        }
        runs.addAll(runsOnDisk(sweep));
        return new ArrayList<>(runs);
    }

    private static List<Path> runsOnDisk(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.filter(p -> Files.isRegularFile(p.resolve(LogFormat.FILE_NAME))).sorted().toList();
        }
    }
}
