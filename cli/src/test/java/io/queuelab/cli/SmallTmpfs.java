package io.queuelab.cli;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real tmpfs of a few kilobytes mounted on a directory, so that a write fills it as a full disk
 * does ("No space left on device"). Mounting needs root; where it fails the test is aborted with
 * the reason (the logger's own full-device case has a stand-in channel, LogFailureTest).
 */
final class SmallTmpfs implements AutoCloseable {
    final Path dir;

    private SmallTmpfs(Path dir) {
        this.dir = dir;
    }

    static SmallTmpfs mount(Path dir, int kilobytes) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + kilobytes + "k", "tmpfs", dir.toString())
                .redirectErrorStream(true).start();
        boolean done = p.waitFor(20, TimeUnit.SECONDS);
        String said = new String(p.getInputStream().readAllBytes()).strip();
        Assumptions.assumeTrue(done && p.exitValue() == 0,
                "a real full disk needs 'mount -t tmpfs', which failed here (" + said + "); not tried");
        return new SmallTmpfs(dir);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("umount", dir.toString()).redirectErrorStream(true).start();
        if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) {
            new ProcessBuilder("umount", "-l", dir.toString()).start().waitFor(20, TimeUnit.SECONDS);
        }
    }
}
