package io.queuelab.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileStore;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * Output paths checked before a command creates anything, and the reason in words when a path
 * cannot be written (the JDK's exceptions often carry the path alone: "queuelab: /proc/x").
 */
final class OutputPath {
    private OutputPath() {
    }

    /**
     * Refuses (IllegalArgumentException, one line) an output directory that exists already or that
     * cannot be created: its nearest existing ancestor is a file, on a read-only file system, not
     * writable, or refuses new entries (a probe directory is created there and removed at once).
     */
    static void requireCreatable(Path target, String what) {
        if (Files.exists(target)) {
            throw new IllegalArgumentException(what + " " + target + " already exists (choose a new one)");
        }
        requireWritable(target, what);
    }

    /**
     * Refuses an existing output file unless {@code force}: a command never overwrites a file silently.
     * What is not a file is never overwritten (AtomicFile writes through a FIFO or a device, and
     * replaces a symbolic link's target), so only a regular file, or a link to one, needs {@code force};
     * a directory is refused as by {@link #requireWritable}.
     */
    static void requireNew(Path target, String what, boolean force) {
        requireNotDirectory(target, what);
        if (!force && Files.isRegularFile(target)) {
            throw new IllegalArgumentException(what + " " + target + " already exists (choose a new one, or --force to replace it)");
        }
    }

    /**
     * As {@link #requireCreatable}, for an output file that may replace an existing file (a report,
     * say): also refuses a directory at its path, in words that name {@code what} (the option) and the path.
     */
    static void requireWritable(Path target, String what) {
        requireNotDirectory(target, what);
        Path ancestor = nearestExisting(target.toAbsolutePath().getParent() == null ? target.toAbsolutePath()
                : target.toAbsolutePath().getParent());
        if (ancestor == null) {
            return;
        }
        if (!Files.isDirectory(ancestor)) {
            throw new IllegalArgumentException(what + " " + target + " cannot be created: " + ancestor + " is a file, not a directory");
        }
        Path probe = null;
        try {
            probe = Files.createTempDirectory(ancestor, ".queuelab-probe-");
        } catch (FileSystemException e) {
            throw new IllegalArgumentException(what + " " + target + " cannot be created: " + why(e, ancestor));
        } catch (IOException e) {
            throw new IllegalArgumentException(what + " " + target + " cannot be created: " + Cli.oneLine(e));
        } finally {
            if (probe != null) {
                try {
                    Files.deleteIfExists(probe);
                } catch (IOException ignored) {
                    // an empty hidden directory left behind is harmless
                }
            }
        }
    }

    private static void requireNotDirectory(Path target, String what) {
        if (Files.isDirectory(target)) {
            throw new IllegalArgumentException(what + " " + target + " is a directory, not a file (give the path of a file)");
        }
    }

    /** "PATH: reason" for a file-system failure, the reason looked up when the JDK gives none. */
    static String describe(FileSystemException e) {
        String file = e.getFile();
        if (file == null) {
            return e.getMessage();
        }
        Path path = Path.of(file).toAbsolutePath();
        Path ancestor = nearestExisting(path.getParent() == null ? path : path.getParent());
        return file + ": " + why(e, ancestor);
    }

    private static String why(FileSystemException e, Path ancestor) {
        if (e instanceof NotDirectoryException) {
            return "not a directory";
        }
        if (ancestor != null && !Files.isDirectory(ancestor)) {
            return ancestor + " is a file, not a directory";
        }
        if (ancestor != null) {
            try {
                FileStore store = Files.getFileStore(ancestor);
                if (store.isReadOnly()) {
                    return "read-only file system (" + store.name() + ", " + store.type() + ")";
                }
                if (e instanceof AccessDeniedException || !Files.isWritable(ancestor)) {
                    return "permission denied: " + ancestor + " is not writable by user " + System.getProperty("user.name");
                }
                if (e instanceof NoSuchFileException && e.getReason() == null && Files.isDirectory(ancestor)) {
                    // mkdir in an existing, writable directory said ENOENT: a pseudo file system such as /proc
                    return ancestor + " is on a " + store.type() + " file system, which does not take new files or directories";
                }
            } catch (IOException ignored) {
                // fall through to the exception's own words
            }
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof java.nio.file.FileAlreadyExistsException) {
            return e.getReason() != null ? e.getReason() : "already exists";
        }
        return e.getReason() != null ? e.getReason().toLowerCase(java.util.Locale.ROOT) : e.getClass().getSimpleName();
    }

    private static Path nearestExisting(Path path) {
        Path p = path;
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        return p;
    }
}
