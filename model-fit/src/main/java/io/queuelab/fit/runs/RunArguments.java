package io.queuelab.fit.runs;

import io.queuelab.core.log.LogFormat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Finds the runs named on a command line: run directories, log files, or sweep directories of runs. */
public final class RunArguments {
    private RunArguments() {
    }

    /**
     * Each path as a run (a directory with a request log, a .qlog or .csv file), or, for a directory
     * without a request log, every run directly inside it (a sweep), in name order.
     */
    public static List<Path> expand(List<Path> paths) throws IOException {
        List<Path> runs = new ArrayList<>();
        for (Path path : paths) {
            if (isRun(path)) {
                runs.add(path);
            } else if (Files.isDirectory(path)) {
                try (Stream<Path> children = Files.list(path)) {
                    List<Path> inside = children.filter(RunArguments::isRunInSweep).sorted().toList();
                    if (inside.isEmpty()) {
                        throw new IOException("no runs in " + path + " (no " + LogFormat.FILE_NAME + " in it or its subdirectories)");
                    }
                    runs.addAll(inside);
                }
            } else {
                throw new IOException("no run directory or request log at " + path);
            }
        }
        return runs;
    }

    /** Inside a sweep directory: run directories, and request logs by their extension (not sweep.json). */
    static boolean isRunInSweep(Path path) {
        String name = path.getFileName().toString();
        return Files.isDirectory(path) ? isRun(path)
                : Files.isRegularFile(path) && (name.endsWith(".qlog") || name.endsWith(".csv") || name.endsWith(".csv.gz") || name.endsWith(".jtl"));
    }

    static boolean isRun(Path path) {
        if (Files.isDirectory(path)) {
            return Files.isRegularFile(path.resolve(LogFormat.FILE_NAME));
        }
        return Files.isRegularFile(path);
    }

    /**
     * Refuses a run given twice, by any spelling (a second path, a symlink, in a sweep and alone):
     * it would be two identical points of one fit, counted as two measurements. {@code runs} as
     * {@link #expand} gives them; {@code why} ends the message ("each run is one point of the fit").
     */
    public static void refuseTwice(List<Path> runs, String why) throws IOException {
        java.util.Map<Path, Path> seen = new java.util.HashMap<>();
        for (Path run : runs) {
            Path earlier = seen.putIfAbsent(run.toRealPath(), run);
            if (earlier != null) {
                throw new IllegalArgumentException("run " + run + " is given twice" + (earlier.equals(run) ? "" : " (also as " + earlier + ")")
                        + ": " + why);
            }
        }
    }

    public static List<RunData> read(List<Path> runs) throws IOException {
        List<RunData> out = new ArrayList<>();
        for (Path run : runs) {
            out.add(RunData.read(run));
        }
        return out;
    }
}
