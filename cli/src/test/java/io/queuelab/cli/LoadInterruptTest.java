package io.queuelab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ctrl-C to a real {@code queuelab load} while it fills the relation on its embedded MariaDB.
 * Before: the JVM's own handling stopped the server under the load, which ended with
 * "Communications link failure The last packet successfully received from the server was ...".
 */
class LoadInterruptTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void ctrlCDuringALoadEndsWithOneLineSayingWhatWasLoaded() throws Exception {
        Path embedded = dir.resolve("db");
        // env resets the signals to their defaults (a test under nohup would hand the JVM an ignored SIGINT)
        List<String> command = List.of("env", "--default-signal=HUP,INT,TERM",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "load", "--tuples", "20000000",
                "--embedded-dir", embedded.toString());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("console.txt").toFile()).start();
        Path scratch = embedded.resolve("data").resolve("queuelab").resolve("wisc__loading.ibd");
        try {
            long deadline = System.nanoTime() + 150_000_000_000L;
            while (!(Files.exists(scratch) && Files.size(scratch) > 40_000_000) && System.nanoTime() < deadline) {
                assertTrue(p.isAlive(), Files.readString(dir.resolve("console.txt")));
                Thread.sleep(100);
            }
            assertTrue(Files.exists(scratch) && Files.size(scratch) > 40_000_000, "the load is filling its scratch table");
            assertEquals(0, new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor());
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the load ended after the signal");
            String console = Files.readString(dir.resolve("console.txt"));
            assertEquals(130, p.exitValue(), console);
            List<String> lines = console.lines().toList();
            String last = lines.get(lines.size() - 1);
            assertTrue(last.matches("queuelab: load interrupted by SIGINT after [0-9.]+ s: [0-9,]+ of 20,000,000 tuples had been "
                    + "sent into the scratch table wisc__loading, which is dropped; nothing was loaded: the table wisc is as it "
                    + "was before the load"), console);
            long sent = Long.parseLong(last.replaceAll(".*s: ([0-9,]+) of .*", "$1").replace(",", ""));
            assertTrue(sent > 0 && sent < 20_000_000, console);
            assertFalse(console.contains("Communications link failure"), console);
            assertFalse(console.contains("Exception"), console);
            assertFalse(Files.exists(scratch), "the scratch table is dropped");
            assertFalse(Files.exists(scratch.resolveSibling("wisc.ibd")), "no relation under its name");
            String datadir = "--datadir=" + embedded.resolve("data").toFile().getCanonicalPath();
            assertEquals(List.of(), ProcessHandle.allProcesses().filter(h -> h.info().arguments()
                    .map(a -> List.of(a).contains(datadir) && !List.of(a).contains("queuelab-watchdog")).orElse(false))
                    .map(ProcessHandle::pid).toList(), "the embedded server is stopped before queuelab exits");
        } finally {
            p.destroyForcibly();
        }
    }
}
