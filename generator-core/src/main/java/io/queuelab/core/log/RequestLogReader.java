package io.queuelab.core.log;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * Streams a request log ({@link LogFormat}) record by record, in constant memory.
 *
 * <p>The reader is a cursor: {@link #next()} advances to the next record and the accessors return
 * its fields. Nothing is allocated per record. A log cut short by a crash of its writer is read up
 * to its last complete chunk; {@link #truncatedBytes()} then says how many bytes of a torn tail
 * were ignored. Not thread-safe.
 */
public final class RequestLogReader implements Closeable {
    private static final int BLOCK = 1 << 22;

    private final Path file;
    private final FileChannel channel;
    private final long fileSize;
    private final long anchorEpochNanos;
    private final CRC32 crc = new CRC32();
    private ByteBuffer buf = ByteBuffer.allocateDirect(BLOCK).order(ByteOrder.LITTLE_ENDIAN);
    private long consumed; // file offset of buf position 0
    private boolean eof;
    private int recordsLeftInChunk;
    private int recordPos;
    private long truncatedBytes;
    private final String[] operations = new String[128];
    private final String[] outcomes = new String[256];

    private long intended, dequeued, sent, completed;
    private int node, worker, operation, outcome, phase, flags;

    private RequestLogReader(Path file, FileChannel channel) throws IOException {
        this.file = file;
        this.channel = channel;
        this.fileSize = channel.size();
        buf.limit(0);
        if (!ensure(LogFormat.HEADER_SIZE)) {
            throw new IOException("not a queuelab request log (too short): " + file);
        }
        int magic = buf.getInt();
        int version = buf.getInt();
        int recordSize = buf.getInt();
        buf.getInt();
        anchorEpochNanos = buf.getLong();
        if (magic != LogFormat.MAGIC) {
            throw new IOException("not a queuelab request log: " + file);
        }
        if (version != LogFormat.VERSION || recordSize != LogFormat.RECORD_SIZE) {
            throw new IOException("unsupported request log version " + version + " in " + file);
        }
        for (int code = 0; code < LogFormat.FIRST_ERROR; code++) {
            outcomes[code] = LogFormat.builtInOutcomeName(code);
        }
    }

    /** Opens a log; a missing or foreign file is an IOException with a one-line message. */
    public static RequestLogReader open(Path file) throws IOException {
        FileChannel channel;
        try {
            channel = FileChannel.open(file, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            throw new IOException("no request log at " + file);
        }
        try {
            return new RequestLogReader(file, channel);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** The wall-clock instant, in ns since the Unix epoch, that record times are offsets from. */
    public long anchorEpochNanos() {
        return anchorEpochNanos;
    }

    /** Advances to the next record; false at the end of the log (or of its readable part). */
    public boolean next() throws IOException {
        while (recordsLeftInChunk == 0) {
            if (!nextChunk()) {
                return false;
            }
        }
        ByteBuffer b = buf;
        int p = recordPos;
        intended = b.getLong(p);
        dequeued = b.getLong(p + 8);
        sent = b.getLong(p + 16);
        completed = b.getLong(p + 24);
        node = b.getShort(p + 32);
        worker = b.getShort(p + 34);
        operation = b.get(p + 36);
        outcome = b.get(p + 37) & 0xFF;
        phase = b.get(p + 38) & 0xFF;
        flags = b.get(p + 39) & 0xFF;
        recordPos = p + LogFormat.RECORD_SIZE;
        recordsLeftInChunk--;
        return true;
    }

    private boolean nextChunk() throws IOException {
        while (true) {
            if (!ensure(LogFormat.CHUNK_OVERHEAD - 4)) {
                markTruncated();
                return false;
            }
            int start = buf.position();
            byte type = buf.get(start);
            int length = buf.getInt(start + 1);
            if (length < 0 || (type != LogFormat.CHUNK_RECORDS && type != LogFormat.CHUNK_DICTIONARY)
                    || (type == LogFormat.CHUNK_RECORDS && length % LogFormat.RECORD_SIZE != 0)) {
                markTruncated();
                return false;
            }
            if (!ensure(LogFormat.CHUNK_OVERHEAD + length)) {
                markTruncated();
                return false;
            }
            start = buf.position();
            int payload = start + 5;
            ByteBuffer slice = buf.duplicate().position(payload).limit(payload + length);
            crc.reset();
            crc.update(slice);
            if ((int) crc.getValue() != buf.getInt(payload + length)) {
                markTruncated();
                return false;
            }
            buf.position(payload + length + 4);
            if (type == LogFormat.CHUNK_RECORDS) {
                recordPos = payload;
                recordsLeftInChunk = length / LogFormat.RECORD_SIZE;
                return true;
            }
            readDictionary(payload, length);
        }
    }

    private void readDictionary(int at, int length) throws IOException {
        byte kind = buf.get(at);
        int code = buf.getShort(at + 1) & 0xFFFF;
        int n = buf.getShort(at + 3) & 0xFFFF;
        if (n + 5 != length) {
            throw new IOException("corrupt dictionary entry in " + file);
        }
        byte[] utf8 = new byte[n];
        buf.get(at + 5, utf8);
        String name = new String(utf8, StandardCharsets.UTF_8);
        if (kind == LogFormat.DICT_OPERATION && code < operations.length) {
            operations[code] = name;
        } else if (kind == LogFormat.DICT_OUTCOME && code < outcomes.length) {
            outcomes[code] = name;
        }
    }

    private void markTruncated() {
        truncatedBytes = fileSize - (consumed + buf.position());
        recordsLeftInChunk = 0;
    }

    /** Makes at least {@code n} bytes available from the buffer's position; false at end of file. */
    private boolean ensure(int n) throws IOException {
        if (buf.remaining() >= n) {
            return true;
        }
        consumed += buf.position();
        if (n > buf.capacity()) {
            ByteBuffer bigger = ByteBuffer.allocateDirect(Math.max(n, 2 * buf.capacity())).order(ByteOrder.LITTLE_ENDIAN);
            bigger.put(buf);
            buf = bigger;
        } else {
            buf.compact();
        }
        while (buf.position() < n && !eof) {
            if (channel.read(buf) < 0) {
                eof = true;
            }
        }
        buf.flip();
        return buf.remaining() >= n;
    }

    /** The bytes of a torn tail that were ignored (0 for a log that was closed cleanly). */
    public long truncatedBytes() {
        return truncatedBytes;
    }

    public long intended() { return intended; }

    public long dequeued() { return dequeued; }

    public long sent() { return sent; }

    public long completed() { return completed; }

    public int node() { return node; }

    public int worker() { return worker; }

    public int operation() { return operation; }

    public int outcome() { return outcome; }

    public int phase() { return phase; }

    public int flags() { return flags; }

    public boolean warmup() { return (flags & LogFormat.FLAG_WARMUP) != 0; }

    /** The name of operation {@code code}, or "op" + code when the log does not name it. */
    public String operationName(int code) {
        String name = code >= 0 && code < operations.length ? operations[code] : null;
        return name != null ? name : "op" + code;
    }

    /** The name of outcome {@code code}, or "error" + code when the log does not name it. */
    public String outcomeName(int code) {
        String name = code >= 0 && code < outcomes.length ? outcomes[code] : null;
        return name != null ? name : "error" + code;
    }

    /** Names of the operations seen so far, indexed by code (null where unnamed). */
    public String[] operationNames() {
        return Arrays.copyOf(operations, operations.length);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
