package io.queuelab.core.testing;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The test lanes across processes, on a lane directory of the test's own (the suite's own lanes are
 * held by this very class meanwhile): other JVMs hold them as the suite's forks do.
 */
class TestLanesTest {
    @TempDir
    Path dir;

    private final List<Process> holders = new ArrayList<>();
    private TestLanes.Lanes here;

    @BeforeEach
    void lanes() {
        here = new TestLanes.Lanes(dir);
    }

    @AfterEach
    void stopHolders() throws IOException {
        here.release();
        for (Process p : holders) {
            p.destroyForcibly();
        }
    }

    @Test
    void aTimingSensitiveClassExcludesEveryOtherAndOthersShare() throws Exception {
        Process alone = holder("exclusive");
        assertFalse(here.tryAcquire(false), "a class started beside a timing-sensitive one");
        assertFalse(here.tryAcquire(true), "two timing-sensitive classes at once");
        release(alone);
        assertTrue(here.tryAcquire(false), "the lanes are free once it ended");
        here.release();

        Process beside = holder("shared");
        assertTrue(here.tryAcquire(false), "two ordinary classes side by side");
        here.release();
        assertFalse(here.tryAcquire(true), "a timing-sensitive class started beside an ordinary one");
        release(beside);
        assertTrue(here.tryAcquire(true));
    }

    @Test
    void aWaitingTimingSensitiveClassLetsNoNewClassInBeforeIt() throws Exception {
        Process running = holder("shared");
        Process waiting = start("exclusive");
        // it waits for the running class, holding the turnstile: a new ordinary class may not pass
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        boolean shut = false;
        while (!shut && System.nanoTime() < deadline) {
            shut = !here.tryAcquire(false);
            if (!shut) {
                here.release();
                Thread.sleep(20);
            }
        }
        assertTrue(shut, "the waiting timing-sensitive class never closed the way in");
        release(running);
        assertEquals("held", firstLine(waiting), "the waiting class got the lanes when the running one ended");
        assertFalse(here.tryAcquire(false));
        release(waiting);
        assertTrue(here.tryAcquire(false));
    }

    @Test
    void aKilledForkHoldsNothing() throws Exception {
        Process alone = holder("exclusive");
        alone.destroyForcibly().waitFor();
        here.acquire(false); // would wait forever if the kernel kept a dead process's lock
        here.release();
    }

    /** A JVM that holds the lanes ({@code exclusive} or {@code shared}), once it said so. */
    private Process holder(String mode) throws Exception {
        Process p = start(mode);
        assertEquals("held", firstLine(p), mode + " holder");
        return p;
    }

    private Process start(String mode) throws IOException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"), TestLanes.class.getName(),
                dir.toString(), mode).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        holders.add(p);
        return p;
    }

    private static String firstLine(Process p) throws IOException {
        return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
    }

    private static void release(Process p) throws Exception {
        p.getOutputStream().close();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the holder did not end");
    }
}
