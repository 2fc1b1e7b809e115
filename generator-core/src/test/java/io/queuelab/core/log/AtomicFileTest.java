package io.queuelab.core.log;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class AtomicFileTest {
    @TempDir
    Path dir;

    @Test
    void aWriteThatFailsHalfwayLeavesTheEarlierFileAndNoTemporaryOne() throws IOException {
        Path target = dir.resolve("sweep.json");
        AtomicFile.replace(target, tmp -> Files.writeString(tmp, "{\"complete\" : false}"));
        IOException full = assertThrows(IOException.class, () -> AtomicFile.replace(target, tmp -> {
            Files.writeString(tmp, "{\"comp");
            throw new IOException("No space left on device");
        }));
        assertEquals("could not write " + target + ": No space left on device", full.getMessage(), "names the file");
        assertEquals("{\"complete\" : false}", Files.readString(target));
        assertFalse(Files.exists(dir.resolve("sweep.json.tmp")), "nothing half-written remains");
        AtomicFile.replace(target, tmp -> Files.writeString(tmp, "{\"complete\" : true}"));
        assertEquals("{\"complete\" : true}", Files.readString(target));
    }

    /** Before (issue 43): the link was replaced by a regular file and its target kept the old content. */
    @Test
    void aSymbolicLinkIsKeptAndItsTargetReplaced() throws IOException {
        Path real = Files.writeString(Files.createDirectory(dir.resolve("elsewhere")).resolve("real.json"), "old");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), real);
        AtomicFile.replace(link, tmp -> Files.writeString(tmp, "new"));
        assertTrue(Files.isSymbolicLink(link), "the link is still a link");
        assertEquals("new", Files.readString(real));
        assertEquals(List.of("link.json"), names(dir.resolve("link.json").getParent(), "elsewhere"), "no .tmp beside the link");
        assertEquals(List.of("real.json"), names(real.getParent()), "no .tmp beside the target");

        Path dangling = Files.createSymbolicLink(dir.resolve("dangling.json"), real.resolveSibling("new.json"));
        AtomicFile.replace(dangling, tmp -> Files.writeString(tmp, "created"));
        assertTrue(Files.isSymbolicLink(dangling));
        assertEquals("created", Files.readString(real.resolveSibling("new.json")));
    }

    /** Before (issue 43): the FIFO was replaced by a regular file and its reader got 0 bytes. */
    @Test
    @Timeout(30)
    void aFifoIsWrittenThroughAndItsReaderGetsTheWholeContent() throws Exception {
        Path fifo = dir.resolve("fifo.json");
        assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0, "mkfifo");
        CompletableFuture<String> reader = CompletableFuture.supplyAsync(() -> {
            try (InputStream in = Files.newInputStream(fifo)) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        String content = "x".repeat(200_000); // more than a pipe holds: the reader must really read it
        AtomicFile.replace(fifo, tmp -> Files.writeString(tmp, content));
        assertEquals(content, reader.get(20, TimeUnit.SECONDS));
        assertTrue(Files.readAttributes(fifo, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther(),
                "still a FIFO");
        assertEquals(List.of("fifo.json"), names(dir), "no .tmp left beside it");
    }

    /**
     * A full device (a private /dev/full made with mknod, as root): the write fails naming it, and
     * the device stays a device. Before (issue 43): "wrote", and a regular file in the device's place.
     */
    @Test
    void aFullDeviceFailsNamingItAndStaysADevice() throws Exception {
        Path full = dir.resolve("full");
        assumeTrue(new ProcessBuilder("mknod", full.toString(), "c", "1", "7").start().waitFor() == 0, "mknod (root)");
        IOException e = assertThrows(IOException.class, () -> AtomicFile.replace(full, tmp -> Files.writeString(tmp, "{}")));
        assertEquals("could not write " + full + ": No space left on device", e.getMessage());
        assertFalse(Files.isRegularFile(full), "still a device");
        assertTrue(Files.exists(full));
        assertEquals(List.of("full"), names(dir));
    }

    /** Before: renaming over a directory failed as "PATH.tmp -> PATH: Is a directory". */
    @Test
    void aDirectoryIsRefusedInItsOwnName() throws IOException {
        Path d = Files.createDirectory(dir.resolve("out.json"));
        FileSystemException e = assertThrows(FileSystemException.class, () -> AtomicFile.replace(d, tmp -> Files.writeString(tmp, "{}")));
        assertEquals(d.toString(), e.getFile());
        assertEquals("is a directory", e.getReason());
        assertEquals(List.of("out.json"), names(dir));
    }

    private static List<String> names(Path d, String... except) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> !List.of(except).contains(n)).sorted().toList();
        }
    }
}
