package io.queuelab.core.log;

import io.queuelab.core.manifest.Manifest;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A run directory: the unit every part of queuelab exchanges. It holds {@code manifest.json},
 * the request log {@code requests.qlog}, and optionally {@code errors.tsv} (error messages),
 * HdrHistogram interval logs and server telemetry. Measured and simulated runs look the same.
 */
public final class RunDirectory {
    private final Path path;

    private RunDirectory(Path path) {
        this.path = path;
    }

    /** Creates a new, empty run directory; an existing path is refused, never reused. */
    public static RunDirectory create(Path path) throws IOException {
        if (Files.exists(path)) {
            throw new FileAlreadyExistsException(path.toString(), null, "run directory already exists");
        }
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.createDirectory(path);
        return new RunDirectory(path);
    }

    /** Opens an existing run directory; it must hold a request log. */
    public static RunDirectory open(Path path) throws IOException {
        if (!Files.isDirectory(path)) {
            throw new IOException("no run directory at " + path);
        }
        if (!Files.isRegularFile(path.resolve(LogFormat.FILE_NAME))) {
            throw new IOException("no request log in " + path + " (expected " + LogFormat.FILE_NAME + ")");
        }
        return new RunDirectory(path);
    }

    public Path path() {
        return path;
    }

    public Path log() {
        return path.resolve(LogFormat.FILE_NAME);
    }

    public Path manifestFile() {
        return path.resolve(Manifest.FILE_NAME);
    }

    public Path errors() {
        return path.resolve("errors.tsv");
    }

    public Manifest manifest() throws IOException {
        return Manifest.read(path);
    }

    public RequestLogReader openLog() throws IOException {
        return RequestLogReader.open(log());
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
