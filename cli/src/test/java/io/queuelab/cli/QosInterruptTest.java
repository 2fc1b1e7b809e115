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

/** SIGTERM to a real {@code queuelab qos-write} mid-grid: the cells measured so far are kept, marked incomplete. */
class QosInterruptTest {
    /** Its own embedded directory: cli's test classes run in two JVMs, and one data directory takes one server. */
    private static final String EMBEDDED_DIR = java.nio.file.Path.of("target", "cli-qos-interrupt-mariadb").toString();
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void anInterruptedGridKeepsItsCellsUnderANameThatSaysSo() throws Exception {
        Path out = dir.resolve("grid");
        // a limit no cell meets: every cell runs its 8 rounds, so the signal comes in the middle of the grid
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "qos-write", "--schemas", "1", "--clients", "1,2,3",
                "--rows", "2", "--min-rounds", "2", "--max-rounds", "8", "--max-error", "1e-9",
                "--embedded-dir", EMBEDDED_DIR, "--out", out.toString());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("console.txt").toFile()).start();
        try {
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (!Files.isDirectory(out.resolve("schema1-c2-r2")) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(Files.isDirectory(out.resolve("schema1-c2-r2")), "the second cell started");
            assertEquals(0, new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor());
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the grid ended after the signal");
            String console = Files.readString(dir.resolve("console.txt"));
            assertEquals(143, p.exitValue(), console);
            assertFalse(Files.exists(out.resolve("grid.csv")), "no grid.csv that looks complete");
            List<String> csv = Files.readAllLines(out.resolve("grid-incomplete.csv"));
            assertEquals(2, csv.size(), "the first cell, measured before the signal: " + csv);
            assertTrue(csv.get(1).startsWith("1,1,2,"), csv.toString());
            assertTrue(Files.readString(out.resolve("grid.txt")).startsWith("INCOMPLETE: interrupted after 1 of 3 cells"),
                    Files.readString(out.resolve("grid.txt")));
        } finally {
            p.destroyForcibly();
        }
    }
}
