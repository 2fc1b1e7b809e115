package io.queuelab.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.queuelab.core.log.AtomicFile;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code sweep.json} of a sweep directory, written as it goes: its loop ({@code open} or
 * {@code closed}), its runs in order (directory name, rate or job count), its settings once done,
 * and {@code complete: true} only once every run is done. Replaced atomically after every run.
 */
final class SweepManifest {
    static final String FILE_NAME = "sweep.json";
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .build();

    /**
     * What {@code sweep.json} holds.
     *
     * @param format   {@code queuelab-sweep}
     * @param settings the sweep's options; null until it is complete
     */
    record Contents(String format, String loop, boolean complete, List<Run> runs, Map<String, Object> settings) {
        Contents {
            runs = runs == null ? List.of() : List.copyOf(runs);
        }
    }

    /**
     * One run of the sweep.
     *
     * @param dir         its directory, relative to the sweep's
     * @param concurrency a closed run's job count; null in an open sweep
     * @param rate        an open run's arrival rate, per s; null in a closed sweep
     */
    record Run(String dir, Integer concurrency, Double rate) {
    }

    private final Path dir;
    private Contents contents;

    private SweepManifest(Path dir, String loop) {
        this.dir = dir;
        this.contents = new Contents("queuelab-sweep", loop, false, List.of(), null);
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

    /** The {@code sweep.json} of a sweep directory; empty when there is none or it cannot be read. */
    static Optional<Contents> read(Path sweep) {
        Path file = sweep.resolve(FILE_NAME);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(file.toFile(), Contents.class));
        } catch (IOException unreadable) {
            return Optional.empty();
        }
    }

    void add(String runDir, double rate, int jobs) throws IOException {
        List<Run> runs = new ArrayList<>(contents.runs());
        runs.add(jobs > 0 ? new Run(runDir, jobs, null) : new Run(runDir, null, rate));
        contents = new Contents(contents.format(), contents.loop(), false, runs, contents.settings());
        write();
    }

    void complete(Map<String, Object> settings) throws IOException {
        contents = new Contents(contents.format(), contents.loop(), true, contents.runs(), settings);
        write();
    }

    /** Replaces sweep.json as a whole; a failed write (a full disk) leaves the earlier one and no sweep.json.tmp. */
    private void write() throws IOException {
        AtomicFile.replace(dir.resolve(FILE_NAME), tmp -> JSON.writeValue(tmp.toFile(), contents));
    }
}
