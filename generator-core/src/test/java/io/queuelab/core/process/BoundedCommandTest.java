package io.queuelab.core.process;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A real shell run through {@link BoundedCommand}: more output than a pipe holds, a hang, a failure. */
class BoundedCommandTest {
    @Test
    void moreOutputThanAPipeHoldsIsReadWhole() throws IOException {
        // 200,000 characters, three times a pipe's 64 KiB: a wait before reading a pipe would never end
        BoundedCommand.Result r = BoundedCommand.run(List.of("sh", "-c", "head -c 200000 /dev/zero | tr '\\0' a; echo; echo last; exit 3"),
                Duration.ofSeconds(20));
        assertEquals(3, r.exitCode());
        assertEquals(200_000 + "\nlast".length(), r.output().length());
        assertEquals("last", r.lastLine());
    }

    @Test
    void aCommandThatDoesNotEndIsKilledWithinItsLimit() {
        long start = System.nanoTime();
        // it prints first, then hangs: reading its output before the wait would block until it ends
        IOException e = assertThrows(IOException.class,
                () -> BoundedCommand.run(List.of("sh", "-c", "echo started; exec sleep 60"), Duration.ofSeconds(1)));
        assertEquals("sh did not end within 1 s", e.getMessage());
        assertTrue(System.nanoTime() - start < 15_000_000_000L, "returned after " + (System.nanoTime() - start) / 1e9 + " s");
    }

    @Test
    void aCommandThatCannotStartIsNamed() {
        IOException e = assertThrows(IOException.class, () -> BoundedCommand.run(List.of("no-such-command-here"), Duration.ofSeconds(1)));
        assertTrue(e.getMessage().startsWith("no-such-command-here cannot be run"), e.getMessage());
        assertEquals("exit status 4", new BoundedCommand.Result(4, "").lastLine());
    }
}
