package io.queuelab.core.process;

import java.nio.file.Path;

/**
 * The directory where queuelab keeps what every command of this machine and user may reuse
 * rather than redo (the Cassandra node's resolved class path, the embedded MariaDB's unpacked
 * binaries and installed data): {@code $QUEUELAB_CACHE}, else {@code $XDG_CACHE_HOME/queuelab},
 * else {@code ~/.cache/queuelab}. Each user of it owns its entries and writes them so that a
 * half-written one is never taken for complete.
 */
public final class MachineCache {
    private MachineCache() {
    }

    /** The directory (not created here), absolute. */
    public static Path directory() {
        String own = System.getenv("QUEUELAB_CACHE");
        if (own != null && !own.isBlank()) {
            return Path.of(own).toAbsolutePath().normalize();
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("queuelab").toAbsolutePath().normalize();
    }
}
