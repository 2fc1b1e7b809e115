package io.queuelab.core.run;

import io.queuelab.core.inprocess.NoopBackend;
import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.log.RequestLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A disk that fills in the middle of a run: the logger says so once (the run then stops), keeps
 * counting every request without writing it, never blocks a worker, and the log keeps what reached
 * the disk before.
 */
class LogFailureTest {
    @TempDir
    Path dir;

    /** A real file whose device "fills up" after {@code budget} bytes. */
    private static final class FillingChannel extends FileChannel {
        private final FileChannel file;
        private long budget;

        FillingChannel(FileChannel file, long budget) {
            this.file = file;
            this.budget = budget;
        }

        private void spend(long n) throws IOException {
            if (n > budget) {
                throw new IOException("No space left on device");
            }
            budget -= n;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            spend(src.remaining());
            return file.write(src);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            long n = 0;
            for (int i = offset; i < offset + length; i++) {
                n += srcs[i].remaining();
            }
            spend(n);
            return file.write(srcs, offset, length);
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            spend(src.remaining());
            return file.write(src, position);
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return file.read(dst);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            return file.read(dsts, offset, length);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return file.read(dst, position);
        }

        @Override
        public long position() throws IOException {
            return file.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            file.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return file.size();
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            file.truncate(size);
            return this;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            file.force(metaData);
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return file.transferTo(position, count, target);
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
            spend(count);
            return file.transferFrom(src, position, count);
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            throw new IOException("not mappable");
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return file.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return file.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            file.close();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aDiskThatFillsStopsTheLogButNoRequestGoesUncounted() throws Exception {
        Path log = dir.resolve("requests.qlog");
        FileChannel channel = new FillingChannel(FileChannel.open(log, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE, StandardOpenOption.READ), 2_000_000);
        List<Throwable> told = new CopyOnWriteArrayList<>();
        ArrivalRecorder arrivals = new ArrivalRecorder(1, 1);
        RequestLogger logger = new RequestLogger(RequestLogWriter.onChannel(channel, 0), dir.resolve("errors.tsv"),
                NoopBackend.sync(), new LiveMetrics(), 0, 1, arrivals, told::add);
        int n = 200_000; // 8 MB of records: far more than the 2 MB the device holds, and more than the hand-off queue
        for (int i = 0; i < n; i++) {
            Request r = new Request(0, 0, 0, i * 1000L, i);
            r.dispatched = r.intended;
            r.sent = r.intended + 10;
            r.completed = r.intended + 20;
            r.claim();
            logger.submit(r); // never blocks for good: the failed logger still takes what is submitted
        }
        LogTotals totals = logger.finish(n);
        assertEquals(1, told.size(), "told once: " + told);
        assertTrue(told.get(0).getMessage().contains("No space left on device"), told.get(0).getMessage());
        assertNotNull(logger.writeFailure());
        assertEquals(n, totals.ok(), "every request counted");
        assertTrue(totals.balanced());
        long records = 0;
        try (RequestLogReader reader = RequestLogReader.open(log)) {
            while (reader.next()) {
                assertEquals(LogFormat.OK, reader.outcome());
                records++;
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        // whole chunks reached the disk before it filled, each read back whole (its CRC checked): 8,192 records a chunk, or
        // fewer when the logger's timed flush came first (a clean-clone run on a loaded machine read 45,056 = 5.5 x 8,192)
        assertTrue(records > 0 && records < n, "the chunks written before the disk filled are readable: " + records);
    }
}
