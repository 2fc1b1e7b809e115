package io.queuelab.cassandra.node;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The last lines of a log file, joined into one line for an error message. */
final class LogTail {
    private LogTail() {
    }

    static String lastLines(Path file, int count) {
        try {
            if (!Files.exists(file)) {
                return "(no output in " + file + ")";
            }
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                    .filter(line -> !line.isBlank())
                    .toList();
            List<String> tail = lines.subList(Math.max(0, lines.size() - count), lines.size());
            return String.join(" | ", tail) + " (see " + file + ")";
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e.getMessage() + ")";
        }
    }
}
