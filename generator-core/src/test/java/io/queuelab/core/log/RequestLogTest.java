package io.queuelab.core.log;

import io.queuelab.core.manifest.LoadConfig;
import io.queuelab.core.manifest.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

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
            ch.truncate(size - END_CHUNK - 17); // cut into the last records chunk
        }
        try (RequestLogReader r = RequestLogReader.open(file)) {
            int n = 0;
            while (r.next()) {
                n++;
            }
            assertEquals(100, n);
            assertEquals(50 * LogFormat.RECORD_SIZE + LogFormat.CHUNK_OVERHEAD - 17, r.truncatedBytes());
            assertFalse(r.next());
            assertEquals(List.of("the log ends in a torn tail of " + r.truncatedBytes() + " bytes (ignored): its writer died mid-chunk",
                    "the manifest counts 150 scheduled requests but the log holds 100"), r.problems(150));
        }
    }

    private static final int END_CHUNK = LogFormat.CHUNK_OVERHEAD + Long.BYTES;

    /** Three chunks of 1000 records (intended = index), closed. */
    private Path threeChunks(String name) throws IOException {
        Path file = dir.resolve(name);
        try (RequestLogWriter w = RequestLogWriter.create(file, 0)) {
            w.defineOperation(0, "op");
            for (int i = 0; i < 3000; i++) {
                w.append(i * 1_000_000L, i, i, i + 1, 0, 0, 0, LogFormat.OK, 0, 0);
                if (i % 1000 == 999) {
                    w.flush();
                }
            }
        }
        return file;
    }

    private static long firstRecordsChunk(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        for (int at = LogFormat.HEADER_SIZE; ; ) {
            int length = java.nio.ByteBuffer.wrap(bytes, at + 1, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
            if (bytes[at] == LogFormat.CHUNK_RECORDS) {
                return at;
            }
            at += LogFormat.CHUNK_OVERHEAD + length;
        }
    }

    private static void overwrite(Path file, long at, byte[] junk) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(junk), at);
        }
    }

    private static List<Long> intendedOf(RequestLogReader r) throws IOException {
        List<Long> all = new ArrayList<>();
        while (r.next()) {
            all.add(r.intended());
        }
        return all;
    }

    @Test
    void aDamagedChunkInTheMiddleIsReportedWithItsLossAndReadingGoesOnAfterIt() throws IOException {
        Path file = threeChunks("damaged.qlog");
        long second = firstRecordsChunk(file) + LogFormat.CHUNK_OVERHEAD + 1000L * LogFormat.RECORD_SIZE;
        overwrite(file, second + 5 + 400, "overwritten bytes".getBytes()); // inside the second chunk's payload
        try (RequestLogReader r = RequestLogReader.open(file)) {
            List<Long> intended = intendedOf(r);
            assertEquals(2000, intended.size(), "the first and third chunks are read");
            assertEquals(999_000_000L, intended.get(999));
            assertEquals(2_000_000_000L, intended.get(1000), "reading goes on with the third chunk");
            assertEquals(1, r.damage().size());
            RequestLogReader.Damage d = r.damage().get(0);
            assertEquals(second, d.offset());
            assertEquals(1000, d.recordsBefore());
            assertEquals(1000, d.lostRecords());
            assertTrue(d.exact());
            assertEquals(0, r.truncatedBytes());
            assertEquals(List.of("the log is damaged at bytes " + second + " to " + (second + d.bytes())
                    + ", after record 1000 (intended 0.999 s after the anchor): 1000 records lost, reading went on after them",
                    "the manifest counts 3000 scheduled requests but the log holds 2000 (1000 lost to damage)"), r.problems(3000));
        }
    }

    @Test
    void aDamagedChunkHeaderIsSkippedWithAnEstimateOfTheLoss() throws IOException {
        Path file = threeChunks("header.qlog");
        long second = firstRecordsChunk(file) + LogFormat.CHUNK_OVERHEAD + 1000L * LogFormat.RECORD_SIZE;
        overwrite(file, second, new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
        try (RequestLogReader r = RequestLogReader.open(file)) {
            assertEquals(2000, intendedOf(r).size());
            RequestLogReader.Damage d = r.damage().get(0);
            assertFalse(d.exact());
            assertEquals(1000, d.lostRecords(), "estimated from the bytes skipped");
            assertTrue(r.problems(-1).get(0).contains("about 1000 records lost"), r.problems(-1).toString());
        }
    }

    @Test
    void aLogCutAtAChunkBoundaryIsNotTakenForAComplete() throws IOException {
        Path file = threeChunks("cut.qlog");
        long size = Files.size(file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(size - END_CHUNK - LogFormat.CHUNK_OVERHEAD - 1000L * LogFormat.RECORD_SIZE); // the last chunk and the end mark
        }
        try (RequestLogReader r = RequestLogReader.open(file)) {
            assertEquals(2000, intendedOf(r).size());
            assertEquals(0, r.truncatedBytes());
            assertTrue(r.damage().isEmpty());
            assertEquals(List.of("the log has no end mark after its 2000 records: its writer did not close it "
                    + "(a crash) or the file was cut at a chunk boundary"), r.problems(-1));
        }
        Path intact = threeChunks("intact.qlog");
        try (RequestLogReader r = RequestLogReader.open(intact)) {
            assertEquals(3000, intendedOf(r).size());
            assertEquals(3000, r.endCount());
            assertEquals(List.of(), r.problems(3000));
        }
    }

    @Test
    void aVersion1LogStillReadsAndAnUnknownVersionIsOneLineNamingIt() throws IOException {
        Path file = threeChunks("v1.qlog");
        long size = Files.size(file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(size - END_CHUNK); // version 1 had no end mark
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {1, 0, 0, 0}), 4);
        }
        try (RequestLogReader r = RequestLogReader.open(file)) {
            assertEquals(1, r.version());
            assertEquals(3000, intendedOf(r).size());
            assertEquals(List.of(), r.problems(3000));
        }
        overwrite(file, 4, new byte[] {9, 0, 0, 0});
        IOException e = assertThrows(IOException.class, () -> RequestLogReader.open(file));
        assertEquals("unsupported request log format version 9 (record size 40) in " + file + ": this queuelab reads versions 1 to 2",
                e.getMessage());
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
    void aManifestThatCannotBeWrittenLeavesNoPartialFile() throws IOException {
        Path run = Files.createDirectory(dir.resolve("full"));
        // the temporary file is the full device: every write fails with ENOSPC, as on a full disk
        Files.createSymbolicLink(run.resolve(Manifest.FILE_NAME + ".tmp"), Path.of("/dev/full"));
        IOException e = assertThrows(IOException.class, () -> Manifest.create("measured").write(run));
        assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
        try (var left = Files.list(run)) {
            assertEquals(List.of(), left.toList());
        }
    }

    @Test
    void manifestIsCompleteOnlyWhenMarked() throws IOException {
        Manifest m = Manifest.create("measured");
        m.config(new LoadConfig("open", "poisson", 0, null, List.of(), 1, 1, 1, 5L, 0, 0, null));
        m.write(dir);
        assertFalse(Manifest.read(dir).complete());
        m.markComplete().write(dir);
        Manifest back = Manifest.read(dir);
        assertTrue(back.complete());
        assertEquals(5, back.config().orElseThrow().seed());
    }
}
