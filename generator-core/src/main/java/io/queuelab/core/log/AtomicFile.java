package io.queuelab.core.log;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Replaces a file as a whole or not at all: the content is written to {@code NAME.tmp} beside it
 * and moved over it atomically. Guarantee: a write that fails (a full disk, an error while
 * writing) leaves the earlier file, if any, untouched and no {@code .tmp} file behind.
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
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        try {
            content.writeTo(tmp);
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
    }
}
