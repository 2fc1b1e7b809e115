package io.queuelab.core.log;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Replaces a file as a whole or not at all: the content is written to {@code NAME.tmp} beside it
 * and moved over it atomically. Guarantee: a write that fails (a full disk, an error while
 * writing) leaves the earlier file, if any, untouched and no {@code .tmp} file behind, and the
 * failure names the file (a full disk's own message, "No space left on device", does not).
 *
 * <p>Only a regular file (or a new one) is ever renamed over. A path that exists and is something
 * else is never replaced: a symbolic link is kept and its target replaced as above (a link into
 * {@code /proc}, such as {@code /dev/stdout}, is written through); a FIFO, a device or another
 * special file is written through, the complete content at once, after it has been written to a
 * temporary file elsewhere (a FIFO's reader gets it, a full device's error is the failure); a
 * directory is refused ("PATH: is a directory").
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

    /** Symbolic links followed before a chain is taken for a loop (Linux's own limit). */
    private static final int MAX_LINKS = 40;

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

    /**
     * The temporary file that {@link #commit} puts in place of {@code target}: beside the file that
     * will be replaced (the link's target for a symbolic link), so that the move is atomic, or a
     * new temporary file elsewhere when {@code target} is written through (a FIFO, a device).
     */
    public static Path temporary(Path target) throws IOException {
        Path replaced = replaced(target);
        if (replaced == null) {
            // not beside it: /dev, say, is no place for queuelab's files
            return Files.createTempFile("queuelab-", ".tmp");
        }
        return replaced.resolveSibling(replaced.getFileName() + ".tmp");
    }

    /** Puts a completely written temporary file (from {@link #temporary}) in place of {@code target}, in one step. */
    public static void commit(Path temporary, Path target) throws IOException {
        Path replaced = replaced(target);
        if (replaced != null) {
            Files.move(temporary, replaced, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return;
        }
        try (OutputStream out = Files.newOutputStream(target, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            Files.copy(temporary, out);
        } catch (IOException e) {
            throw naming(target, e);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /**
     * The regular file to rename over for {@code target} (itself when new or a regular file, the
     * real path of a link's target), or null when {@code target} is to be written through.
     */
    private static Path replaced(Path target) throws IOException {
        BasicFileAttributes own = attributes(target, LinkOption.NOFOLLOW_LINKS);
        if (own == null || own.isRegularFile()) {
            return target;
        }
        if (own.isDirectory()) {
            throw new FileSystemException(target.toString(), null, "is a directory");
        }
        if (!own.isSymbolicLink()) {
            return null; // a FIFO, a device, a socket
        }
        // a link: what it ends in decides, and a link through /proc (/dev/stdout -> /proc/self/fd/1)
        // stands for an open file of this process, which must be written, not renamed over
        Path p = target.toAbsolutePath();
        for (int i = 0; i < MAX_LINKS && Files.isSymbolicLink(p); i++) {
            if (p.startsWith("/proc")) {
                return null;
            }
            p = p.resolveSibling(Files.readSymbolicLink(p));
        }
        if (p.startsWith("/proc")) {
            return null;
        }
        BasicFileAttributes end = attributes(target);
        if (end == null) {
            // a dangling link: the file it names is created, in a directory that exists
            if (p.getParent() == null || !Files.isDirectory(p.getParent())) {
                throw new NoSuchFileException(target.toString(), null, "a symbolic link to " + p + ", whose directory does not exist");
            }
            return p.getParent().toRealPath().resolve(p.getFileName());
        }
        if (end.isDirectory()) {
            throw new FileSystemException(target.toString(), null, "is a directory (a symbolic link to one)");
        }
        return end.isRegularFile() ? target.toRealPath() : null;
    }

    private static BasicFileAttributes attributes(Path path, LinkOption... options) throws IOException {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class, options);
        } catch (NoSuchFileException e) {
            return null;
        }
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
