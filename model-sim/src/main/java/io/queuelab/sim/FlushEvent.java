package io.queuelab.sim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One flush of the dirty-page buffer, as written to {@code flushes.tsv} of a simulated DPB run
 * directory (replication 0): from {@code startNanos} to {@code endNanos} after simulated time 0.
 */
public record FlushEvent(long startNanos, long endNanos, int pages) {

    /** The flushes of a simulated DPB run directory, in time order. */
    public static List<FlushEvent> read(Path runDir) throws IOException {
        Path file = runDir.resolve(SimulatedManifest.FLUSH_FILE);
        if (!Files.isRegularFile(file)) {
            throw new IOException("no flush log in " + runDir + " (only simulated dpb runs have " + SimulatedManifest.FLUSH_FILE + ")");
        }
        List<FlushEvent> events = new ArrayList<>();
        List<String> lines = Files.readAllLines(file);
        for (int i = 1; i < lines.size(); i++) { // line 0 is the header
            String[] f = lines.get(i).split("\t");
            if (f.length != 3) {
                throw new IOException("malformed line " + (i + 1) + " in " + file);
            }
            events.add(new FlushEvent(Long.parseLong(f[0]), Long.parseLong(f[1]), Integer.parseInt(f[2])));
        }
        return events;
    }
}
