package io.queuelab.jdbc;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The embedded MariaDB's binaries, unpacked once per machine and user and shared by every embedded
 * database directory (each keeps only its data): unpacking the 350 MB server took 8-15 s of every
 * new directory's first start on a 2-core machine, most of it again for each new
 * {@code --embedded-dir}, demo or test.
 *
 * <p>Where: {@code $QUEUELAB_CACHE}, else {@code $XDG_CACHE_HOME/queuelab}, else
 * {@code ~/.cache/queuelab}; in it one directory per server version.
 *
 * <p>Guarantees: {@link #unpackOnce} returns only when the directory holds a complete unpack (its
 * marker is written after the last file); one process unpacks at a time (a file lock, released by
 * the kernel if the process dies), and the others wait for it rather than start a server from half
 * a copy; an unpack interrupted (Ctrl-C, SIGKILL) leaves no marker, so the next start unpacks again
 * (over files of the right size, which it skips). Nothing writes into the binaries after that.
 */
final class ServerBinaries {
    private static final String COMPLETE = ".unpacked";
    /** Threads of one JVM: a file lock is held by the process, and a second lock of it from the same JVM throws. */
    private static final Object IN_THIS_JVM = new Object();

    private ServerBinaries() {
    }

    /** The unpack of this version of the server. */
    static Path directory() {
        String own = System.getenv("QUEUELAB_CACHE");
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path cache = own != null && !own.isBlank() ? Path.of(own)
                : xdg != null && !xdg.isBlank() ? Path.of(xdg, "queuelab")
                : Path.of(System.getProperty("user.home"), ".cache", "queuelab");
        return cache.toAbsolutePath().normalize().resolve(EmbeddedMariaDb.SERVER_VERSION);
    }

    /** What unpacks the server into {@link #directory()}. */
    interface Unpack {
        void into() throws Exception;
    }

    /** Unpacks the server with {@code unpack} unless a complete unpack is there; waits for another process doing it. */
    static void unpackOnce(Unpack unpack) throws IOException {
        unpackOnce(directory(), unpack);
    }

    /** As {@link #unpackOnce(Unpack)}, into {@code base}. */
    static void unpackOnce(Path base, Unpack unpack) throws IOException {
        if (Files.exists(base.resolve(COMPLETE))) {
            return;
        }
        try {
            Files.createDirectories(base);
        } catch (IOException e) {
            throw new IOException("cannot create the embedded MariaDB's binaries directory " + base + " (" + e.getMessage()
                    + "); set QUEUELAB_CACHE to a writable directory");
        }
        synchronized (IN_THIS_JVM) {
            try (FileChannel lockFile = FileChannel.open(base.resolveSibling(base.getFileName() + ".lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = lockFile.lock()) {
                if (Files.exists(base.resolve(COMPLETE))) {
                    return; // another process unpacked it while this one waited
                }
                try {
                    unpack.into();
                } catch (IOException | RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IOException(e.getMessage(), e);
                }
                Files.writeString(base.resolve(COMPLETE), EmbeddedMariaDb.SERVER_VERSION + "\n");
            }
        }
    }
}
