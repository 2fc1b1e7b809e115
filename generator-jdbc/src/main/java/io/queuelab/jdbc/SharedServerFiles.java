package io.queuelab.jdbc;

import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import io.queuelab.core.process.MachineCache;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;

/**
 * What every embedded database directory of this machine and user shares, so that a new
 * {@code --embedded-dir}, demo or test does not redo it: the server's binaries, unpacked once (350
 * MB: 8-15 s of a directory's first start on a 2-core machine), and the data directory of a fresh
 * install with queuelab's account and database, copied into a new directory in place of the
 * install (another 8 s).
 *
 * <p>Where: the machine's cache ({@link MachineCache}: {@code ~/.cache/queuelab} unless
 * {@code $QUEUELAB_CACHE} or {@code $XDG_CACHE_HOME} says otherwise), in {@code mariadb-VERSION/}:
 * {@code server/} (the binaries) and {@code data/} (the installed data, taken from a server stopped cleanly right after
 * its install, so a cold copy of it is a valid data directory anywhere).
 *
 * <p>Guarantees: each is used only once complete (its marker is written after the last file, and a
 * template is copied under a temporary name and renamed); one process writes it at a time (a file
 * lock, released by the kernel if the process dies), and the others wait rather than use half of
 * it; an unpack or copy interrupted (Ctrl-C, SIGKILL) leaves no marker and is done again by the next
 * start. Nothing writes into them after that.
 */
final class SharedServerFiles {
    private static final String COMPLETE = ".complete";
    /** Threads of one JVM: a file lock is held by the process, and a second lock of it from the same JVM throws. */
    private static final Object IN_THIS_JVM = new Object();

    private SharedServerFiles() {
    }

    /** The server's binaries of this version. */
    static Path binaries() {
        return ours().resolve("server");
    }

    /** The installed data template of this version. */
    static Path dataTemplate() {
        return ours().resolve("data");
    }

    /** This version's entry of the machine's cache. */
    private static Path ours() {
        return MachineCache.directory().resolve(EmbeddedMariaDb.SERVER_VERSION);
    }

    /** What fills a shared directory. */
    interface Fill {
        void into() throws Exception;
    }

    /** Unpacks the server with {@code unpack} unless a complete unpack is there; waits for another process doing it. */
    static void unpackOnce(Fill unpack) throws IOException {
        fillOnce(binaries(), unpack);
    }

    /**
     * Fills {@code shared} with {@code fill} (which writes into {@code shared} itself) unless it is
     * complete, under its lock; returns once it is complete.
     */
    static void fillOnce(Path shared, Fill fill) throws IOException {
        if (Files.exists(shared.resolve(COMPLETE))) {
            return;
        }
        try {
            Files.createDirectories(shared);
        } catch (IOException e) {
            throw new IOException("cannot create " + shared + " for the embedded MariaDB (" + e.getMessage()
                    + "); set QUEUELAB_CACHE to a writable directory");
        }
        synchronized (IN_THIS_JVM) {
            try (FileChannel lockFile = FileChannel.open(shared.resolveSibling(shared.getFileName() + ".lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = lockFile.lock()) {
                if (Files.exists(shared.resolve(COMPLETE))) {
                    return; // another process filled it while this one waited
                }
                try {
                    fill.into();
                } catch (IOException | RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IOException(e.getMessage(), e);
                }
                Files.writeString(shared.resolve(COMPLETE), EmbeddedMariaDb.SERVER_VERSION + "\n");
            }
        }
    }

    /** Keeps {@code data}, a data directory just installed and cleanly stopped, as the template, unless there is one. */
    static void keepAsDataTemplate(Path data) throws IOException {
        Path template = dataTemplate();
        fillOnce(template, () -> copyTree(data, template));
    }

    /**
     * Gives {@code data} (absent, or left half-installed by an interrupted first start: no system
     * tables, so nothing of the user's) a copy of the template; false when there is no complete
     * template. The copy is made under a temporary name and renamed, so {@code data} is never half a copy.
     */
    static boolean copyDataTemplate(Path data) throws IOException {
        Path template = dataTemplate();
        if (!Files.exists(template.resolve(COMPLETE))) {
            return false;
        }
        Path copying = data.resolveSibling(data.getFileName() + ".copying");
        deleteTree(copying);
        copyTree(template, copying);
        Files.delete(copying.resolve(COMPLETE));
        deleteTree(data);
        Files.move(copying, data, StandardCopyOption.ATOMIC_MOVE);
        return true;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (Files.exists(root)) {
            MoreFiles.deleteRecursively(root, RecursiveDeleteOption.ALLOW_INSECURE);
        }
    }
}
