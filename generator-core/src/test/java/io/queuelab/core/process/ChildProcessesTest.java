package io.queuelab.core.process;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The watchdog of a server tied by its marker, when its JVM dies: it stops the server, and no
 * process of its own carries the marker meanwhile. Before, its scan ran {@code grep -e MARKER}: for
 * those milliseconds a process other than the server held the server's data directory argument, and
 * a check right after the JVM's end ("no server left", RunSignalsTest in CI) found it.
 */
class ChildProcessesTest {
    @TempDir
    Path dir;

    /** A JVM that ties {@code args[0]} to itself and dies at once without any clean-up of its own. */
    public static final class TiedJvm {
        public static void main(String[] args) throws Exception {
            ChildProcesses.tieToThisJvm(args[0], java.time.Duration.ofSeconds(2));
            System.out.println("tied");
            System.out.flush();
            Thread.sleep(300); // the watchdog is reading its pipe
            Runtime.getRuntime().halt(0);
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theWatchdogOfADeadJvmStopsTheServerAndNoOtherProcessCarriesItsMarker() throws Exception {
        String marker = "--datadir=" + dir.resolve("data");
        Process server = new ProcessBuilder("/bin/sh", "-c", "sleep 30; :", "fake-server", marker).start();
        // every external command the watchdog runs goes through a wrapper that records its arguments
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path calls = dir.resolve("calls.txt");
        for (String command : List.of("grep", "tr", "sleep", "kill", "cat")) {
            String real = onPath(command);
            if (real == null) {
                continue;
            }
            Path wrapper = bin.resolve(command);
            Files.writeString(wrapper, "#!/bin/sh\nprintf '%s\\n' \"" + command + " $*\" >> '" + calls + "'\nexec '" + real + "' \"$@\"\n");
            Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        try {
            ProcessBuilder jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), TiedJvm.class.getName(), marker);
            jvm.environment().put("PATH", bin + File.pathSeparator + System.getenv("PATH"));
            Process owner = jvm.redirectErrorStream(true).start();
            assertTrue(owner.waitFor(30, TimeUnit.SECONDS), "the tied JVM ended");
            assertEquals("tied", new String(owner.getInputStream().readAllBytes()).strip());
            assertTrue(server.waitFor(20, TimeUnit.SECONDS), "the watchdog stopped the server after its JVM died");
            List<String> run = Files.readAllLines(calls);
            assertTrue(run.stream().anyMatch(l -> l.startsWith("grep ")), "the watchdog scanned the processes: " + run);
            assertFalse(run.stream().anyMatch(l -> l.contains(marker)), "a process of the watchdog carried the marker: " + run);
        } finally {
            server.destroyForcibly();
            awaitWatchdogEnd(marker);
        }
    }

    /**
     * Waits (at most 20 s) until the watchdog of {@code marker} has ended: it may still run its last
     * wrapped command after the server stopped, and that command's record in the temporary
     * directory made its clean-up fail (DirectoryNotEmptyException, once in CI on a loaded machine).
     */
    private static void awaitWatchdogEnd(String marker) throws InterruptedException {
        for (int i = 0; i < 200 && ProcessHandle.allProcesses().anyMatch(p -> p.info().arguments()
                .map(a -> java.util.Arrays.asList(a).contains("queuelab-watchdog") && java.util.Arrays.asList(a).contains(marker))
                .orElse(false)); i++) {
            Thread.sleep(100);
        }
    }

    private static String onPath(String command) {
        for (String d : System.getenv("PATH").split(File.pathSeparator)) {
            Path p = Path.of(d, command);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }
}
