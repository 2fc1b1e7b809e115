package io.queuelab.core.log;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Replaces a file as a whole or not at all: the content is written to {@code NAME.tmp} beside it
 * and moved over it atomically. Guarantee: a write that fails (a full disk, an error while
 * writing) leaves the earlier file, if any, untouched and no {@code .tmp} file behind, and the
 * failure names the file (a full disk's own message, "No space left on device", does not).
 *
 * <p>Several files that belong together (an export's files, one per operation) are written with
 * {@link #temporary} and {@link #commit} by the caller, who deletes every temporary file when one
 * of them fails.
 */
public final class AtomicFile {
    /** Writes the content into the file it is given (the temporary one). */
    @FunctionalInterface
    public interface Content {
        void writeTo(Path file) throws IOException;
    }

    private AtomicFile() {
    }

    public static void replace(Path target, Content content) throws IOException {
        Path tmp = temporary(target);
        try {
            content.writeTo(tmp);
            commit(tmp, target);
        } catch (IOException e) {
            Files.deleteIfExists(tmp);
            throw naming(target, e);
        } catch (RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
    }

    /** The temporary file beside {@code target} that {@link #commit} moves over it. */
    public static Path temporary(Path target) {
        return target.resolveSibling(target.getFileName() + ".tmp");
    }

    /** Moves a completely written temporary file over its target in one step. */
    public static void commit(Path temporary, Path target) throws IOException {
        Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * The failure to write {@code target}, with the file's name in its message when the failure's
     * own message lacks it (a file system exception already names its file).
     */
    public static IOException naming(Path target, IOException e) {
        if (e instanceof FileSystemException || (e.getMessage() != null && e.getMessage().contains(target.getFileName().toString()))) {
            return e;
        }
        return new IOException("could not write " + target + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
    }
}
