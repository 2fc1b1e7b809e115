package io.queuelab.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.queuelab.core.log.AtomicFile;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code sweep.json} of a sweep directory: its kind ({@code open} or {@code closed}), its runs
 * (directory name, rate or job count) and settings; {@code complete: true} only once every run is done.
 */
final class SweepManifest {
    static final String FILE_NAME = "sweep.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path dir;
    private final ObjectNode root = JSON.createObjectNode();
    private final ArrayNode runs;

    private SweepManifest(Path dir, String loop) {
        this.dir = dir;
        root.put("format", "queuelab-sweep");
        root.put("loop", loop);
        root.put("complete", false);
        runs = root.putArray("runs");
    }

    static SweepManifest create(Path dir, String loop) throws IOException {
        if (Files.exists(dir)) {
            throw new FileAlreadyExistsException(dir.toString(), null, "sweep directory already exists");
        }
        Files.createDirectories(dir);
        SweepManifest m = new SweepManifest(dir, loop);
        m.write();
        return m;
    }

    void add(String runDir, double rate, int jobs) throws IOException {
        ObjectNode run = runs.addObject().put("dir", runDir);
        if (jobs > 0) {
            run.put("concurrency", jobs);
        } else {
            run.put("rate", rate);
        }
        write();
    }

    void complete(Map<String, Object> settings) throws IOException {
        root.set("settings", JSON.valueToTree(settings));
        root.put("complete", true);
        write();
    }

    /** Replaces sweep.json as a whole; a failed write (a full disk) leaves the earlier one and no sweep.json.tmp. */
    private void write() throws IOException {
        AtomicFile.replace(dir.resolve(FILE_NAME), tmp -> JSON.writeValue(tmp.toFile(), root));
    }
}
