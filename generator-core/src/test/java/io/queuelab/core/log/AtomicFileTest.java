package io.queuelab.core.log;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
}
