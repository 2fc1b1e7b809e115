package io.queuelab.core.log;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestLogTest {
    @TempDir
    Path dir;

    private static void writeRecords(RequestLogWriter w, int n) throws IOException {
        for (int i = 0; i < n; i++) {
            w.append(i * 1000L, i * 1000L + 1, i == 7 ? LogFormat.NONE : i * 1000L + 2, i * 1000L + 3 + i,
                    3, i % 17, i % 2, i % 5 == 0 ? LogFormat.FIRST_ERROR : LogFormat.OK, i % 3, i % 4 == 0 ? LogFormat.FLAG_WARMUP : 0);
        }
    }

    @Test
    void roundTripsEveryFieldAndName() throws IOException {
        Path file = dir.resolve("a.qlog");
        try (RequestLogWriter w = RequestLogWriter.create(file, 1_700_000_000_123_456_789L)) {
            w.defineOperation(0, "select");
            w.defineOperation(1, "update");
            w.defineOutcome(LogFormat.FIRST_ERROR, "timeout");
            writeRecords(w, 20_000);
        }
        try (RequestLogReader r = RequestLogReader.open(file)) {
            assertEquals(1_700_000_000_123_456_789L, r.anchorEpochNanos());
            int i = 0;
            while (r.next()) {
                assertEquals(i * 1000L, r.intended());
                assertEquals(i * 1000L + 1, r.dequeued());
                assertEquals(i == 7 ? LogFormat.NONE : i * 1000L + 2, r.sent());
                assertEquals(i * 1000L + 3 + i, r.completed());
                assertEquals(3, r.node());
                assertEquals(i % 17, r.worker());
                assertEquals(i % 2, r.operation());
                assertEquals(i % 5 == 0 ? LogFormat.FIRST_ERROR : LogFormat.OK, r.outcome());
                assertEquals(i % 3, r.phase());
                assertEquals(i % 4 == 0, r.warmup());
                i++;
            }
            assertEquals(20_000, i);
            assertEquals(0, r.truncatedBytes());
            assertEquals("update", r.operationName(1));
            assertEquals("timeout", r.outcomeName(LogFormat.FIRST_ERROR));
            assertEquals("dropped", r.outcomeName(LogFormat.DROPPED));
        }
    }

    @Test
    void aTornTailIsReportedAndEverythingBeforeItIsRead() throws IOException {
        Path file = dir.resolve("b.qlog");
        try (RequestLogWriter w = RequestLogWriter.create(file, 0)) {
            w.defineOperation(0, "op");
            writeRecords(w, 100);
            w.flush();
            writeRecords(w, 50);
        }
        long size = Files.size(file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(size - 17); // cut into the last chunk
        }
        try (RequestLogReader r = RequestLogReader.open(file)) {
            int n = 0;
            while (r.next()) {
                n++;
            }
            assertEquals(100, n);
            assertEquals(50 * LogFormat.RECORD_SIZE + LogFormat.CHUNK_OVERHEAD - 17, r.truncatedBytes());
            assertFalse(r.next());
        }
    }

    @Test
    void foreignAndMissingFilesGiveOneLineErrors() throws IOException {
        Path foreign = dir.resolve("c.qlog");
        Files.writeString(foreign, "this is not a log, just some text of some length");
        IOException e = assertThrows(IOException.class, () -> RequestLogReader.open(foreign));
        assertTrue(e.getMessage().startsWith("not a queuelab request log"), e.getMessage());
        IOException missing = assertThrows(IOException.class, () -> RequestLogReader.open(dir.resolve("none.qlog")));
        assertTrue(missing.getMessage().startsWith("no request log at"), missing.getMessage());
    }

    @Test
    void anExistingRunDirectoryIsNeverReused() throws IOException {
        RunDirectory.create(dir.resolve("run"));
        assertThrows(java.nio.file.FileAlreadyExistsException.class, () -> RunDirectory.create(dir.resolve("run")));
    }

    @Test
    void manifestIsCompleteOnlyWhenMarked() throws IOException {
        Manifest m = Manifest.create("measured");
        m.section("config").put("seed", 5);
        m.write(dir);
        assertFalse(Manifest.read(dir).complete());
        m.markComplete().write(dir);
        Manifest back = Manifest.read(dir);
        assertTrue(back.complete());
        assertEquals(5, back.root().path("config").path("seed").asInt());
    }
}
