package io.queuelab.core.log;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A writer in a child JVM is killed with SIGKILL mid-run; the log must still read back. */
class CrashSafeTailTest {
    @TempDir
    Path dir;

    /** The child: writes records without end, flushing a chunk every 1000 records. */
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        try (RequestLogWriter w = RequestLogWriter.create(file, 42)) {
            w.defineOperation(0, "op");
            for (long i = 0; ; i++) {
                w.append(i, i, i, i + 1, 0, 0, 0, LogFormat.OK, 0, 0);
                if (i % 1000 == 999) {
                    w.flush();
                }
                if (i == 50_000) {
                    Files.writeString(Path.of(args[1]), "ready");
                }
            }
        }
    }

    @Test
    void killedWriterLeavesAReadableLog() throws Exception {
        Path file = dir.resolve("requests.qlog");
        Path ready = dir.resolve("ready");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                CrashSafeTailTest.class.getName(), file.toString(), ready.toString())
                .redirectErrorStream(true).redirectOutput(new File(dir.toFile(), "child.out")).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(ready) && System.nanoTime() < deadline && child.isAlive()) {
            Thread.sleep(10);
        }
        assertTrue(Files.exists(ready), "child never got going");
        new ProcessBuilder("kill", "-9", Long.toString(child.pid())).start().waitFor();
        child.waitFor(30, TimeUnit.SECONDS);
        try (RequestLogReader r = RequestLogReader.open(file)) {
            long n = 0;
            while (r.next()) {
                assertEquals(n, r.intended(), "records come back in order, none missing");
                n++;
            }
            assertTrue(n >= 50_000, "read " + n);
            assertEquals(0, n % 1000, "only whole flushed chunks: " + n);
            // the torn tail (if the kill caught a chunk half-written) is smaller than one chunk of 1,000 records
            assertTrue(r.truncatedBytes() < 1000L * LogFormat.RECORD_SIZE + LogFormat.CHUNK_OVERHEAD, "torn " + r.truncatedBytes());
            assertEquals(-1, r.endCount(), "a killed writer writes no end mark");
            assertTrue(r.problems(-1).get(0).startsWith(r.truncatedBytes() > 0 ? "the log ends in a torn tail" : "the log has no end mark"),
                    r.problems(-1).toString());
        }
    }
}
