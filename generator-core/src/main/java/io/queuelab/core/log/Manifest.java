package io.queuelab.core.log;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The manifest of a run directory ({@code manifest.json}): what was run, with which configuration,
 * seed, versions, host and JVM, by which node, from which instant, against which server, and, once
 * the run has ended, its totals and self-check. A manifest is always replaced atomically, and
 * {@code "complete": true} is written only at the very end, so a run that died half-way never
 * looks complete.
 */
public final class Manifest {
    public static final String FILE_NAME = "manifest.json";
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final ObjectNode root;

    private Manifest(ObjectNode root) {
        this.root = root;
    }

    /** A new manifest of a run of the given kind ({@code measured} or {@code simulated}). */
    public static Manifest create(String kind) {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", "queuelab-run");
        root.put("formatVersion", LogFormat.VERSION);
        root.put("kind", kind);
        root.put("complete", false);
        return new Manifest(root);
    }

    /** Reads the manifest of a run directory. */
    public static Manifest read(Path runDir) throws IOException {
        Path file = runDir.resolve(FILE_NAME);
        try {
            JsonNode node = JSON.readTree(file.toFile());
            if (!(node instanceof ObjectNode object)) {
                throw new IOException("manifest is not a JSON object: " + file);
            }
            return new Manifest(object);
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            throw new IOException("no manifest at " + file);
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new IOException("unreadable manifest " + file + ": " + e.getOriginalMessage());
        }
    }

    /** The JSON tree, for adding sections; keys are camelCase. */
    public ObjectNode root() {
        return root;
    }

    /** A section (an object under the root), created on first use. */
    public ObjectNode section(String name) {
        JsonNode node = root.get(name);
        if (node instanceof ObjectNode object) {
            return object;
        }
        return root.putObject(name);
    }

    /** Adds any Java value (maps, lists, records, numbers, strings) under a key of the root. */
    public Manifest put(String key, Object value) {
        root.set(key, tree(value));
        return this;
    }

    /** Any Java value as a JSON tree, for a key of a section. */
    public static JsonNode tree(Object value) {
        return JSON.valueToTree(value);
    }

    public String kind() {
        return root.path("kind").asText("measured");
    }

    public boolean complete() {
        return root.path("complete").asBoolean(false);
    }

    /** Why a complete run ended before its plan did (e.g. "interrupted by SIGINT at 12.3 s of 60.0 s"), if it did. */
    public java.util.Optional<String> stopReason() {
        String reason = root.path("end").path("stopReason").asText("");
        return reason.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(reason);
    }

    public Manifest markComplete() {
        root.put("complete", true);
        return this;
    }

    /**
     * Writes the manifest into a run directory, replacing any earlier one atomically; a write that
     * fails (a full disk) leaves the earlier manifest, if any, and no partial file.
     */
    public void write(Path runDir) throws IOException {
        AtomicFile.replace(runDir.resolve(FILE_NAME), tmp -> JSON.writeValue(tmp.toFile(), root));
    }

    @Override
    public String toString() {
        return root.toPrettyString();
    }
}
