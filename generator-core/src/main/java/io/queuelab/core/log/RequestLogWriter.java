package io.queuelab.core.log;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Writes a request log ({@link LogFormat}). Not thread-safe: one thread (the logger) owns a
 * writer. Records are buffered and written as one CRC-protected chunk per {@link #flush()} or
 * whenever the buffer fills, so a writer killed at any instant leaves a log whose complete chunks
 * are all readable. {@link #close()} ends the log with an end chunk holding the record count, so
 * a reader can tell a closed log from one cut at a chunk boundary.
 */
public final class RequestLogWriter implements Closeable {
    private static final int RECORDS_PER_CHUNK = 8192;

    private final FileChannel channel;
    private final ByteBuffer records;
    private final CRC32 crc = new CRC32();
    private final Map<Integer, String> operations = new HashMap<>();
    private final Map<Integer, String> outcomes = new HashMap<>();
    private final ByteBuffer frame = ByteBuffer.allocate(LogFormat.CHUNK_OVERHEAD).order(ByteOrder.LITTLE_ENDIAN);
    private long recordCount;
    private boolean closed;

    private RequestLogWriter(FileChannel channel, long anchorEpochNanos) throws IOException {
        this.channel = channel;
        this.records = ByteBuffer.allocateDirect(RECORDS_PER_CHUNK * LogFormat.RECORD_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer header = ByteBuffer.allocate(LogFormat.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(LogFormat.MAGIC).putInt(LogFormat.VERSION).putInt(LogFormat.RECORD_SIZE).putInt(0)
                .putLong(anchorEpochNanos).flip();
        writeFully(header);
        for (int code = LogFormat.OK; code < LogFormat.FIRST_ERROR; code++) {
            defineOutcome(code, LogFormat.builtInOutcomeName(code));
        }
    }

    /**
     * Creates a new log; fails if the file exists.
     *
     * @param anchorEpochNanos the wall-clock instant (ns since the Unix epoch) that record times
     *                         are offsets from
     */
    public static RequestLogWriter create(Path file, long anchorEpochNanos) throws IOException {
        return onChannel(FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), anchorEpochNanos);
    }

    /** Starts a new log at the start of an open, empty channel, which the writer then owns (and closes). */
    public static RequestLogWriter onChannel(FileChannel channel, long anchorEpochNanos) throws IOException {
        try {
            return new RequestLogWriter(channel, anchorEpochNanos);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** Names operation {@code code} (0..127). Naming a code twice with the same name is a no-op. */
    public void defineOperation(int code, String name) throws IOException {
        if (code < 0 || code > 127) {
            throw new IllegalArgumentException("operation code out of range: " + code);
        }
        define(operations, LogFormat.DICT_OPERATION, code, name);
    }

    /** Names outcome {@code code} (0..255); codes from {@link LogFormat#FIRST_ERROR} are error classes. */
    public void defineOutcome(int code, String name) throws IOException {
        if (code < 0 || code > LogFormat.MAX_OUTCOME) {
            throw new IllegalArgumentException("outcome code out of range: " + code);
        }
        define(outcomes, LogFormat.DICT_OUTCOME, code, name);
    }

    private void define(Map<Integer, String> names, byte kind, int code, String name) throws IOException {
        String known = names.get(code);
        if (name.equals(known)) {
            return;
        }
        if (known != null) {
            throw new IllegalStateException("code " + code + " is already named " + known);
        }
        names.put(code, name);
        flushRecords(); // a record never precedes the name of its codes
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        ByteBuffer payload = ByteBuffer.allocate(1 + 2 + 2 + utf8.length).order(ByteOrder.LITTLE_ENDIAN);
        payload.put(kind).putShort((short) code).putShort((short) utf8.length).put(utf8).flip();
        writeChunk(LogFormat.CHUNK_DICTIONARY, payload);
    }

    /**
     * Appends one record. Times are nanoseconds after the anchor, or {@link LogFormat#NONE}.
     */
    public void append(long intended, long dequeued, long sent, long completed,
                       int node, int worker, int operation, int outcome, int phase, int flags) throws IOException {
        ByteBuffer b = records;
        b.putLong(intended).putLong(dequeued).putLong(sent).putLong(completed)
                .putShort((short) node).putShort((short) worker)
                .put((byte) operation).put((byte) outcome).put((byte) phase).put((byte) flags);
        recordCount++;
        if (!b.hasRemaining()) {
            flushRecords();
        }
    }

    /** Writes the buffered records as one chunk to the file (to the OS; no fsync). */
    public void flush() throws IOException {
        flushRecords();
    }

    /** The number of records appended so far. */
    public long recordCount() {
        return recordCount;
    }

    private void flushRecords() throws IOException {
        if (records.position() == 0) {
            return;
        }
        records.flip();
        writeChunk(LogFormat.CHUNK_RECORDS, records);
        records.clear();
    }

    private void writeChunk(byte type, ByteBuffer payload) throws IOException {
        crc.reset();
        crc.update(payload.duplicate());
        frame.clear();
        frame.put(type).putInt(payload.remaining()).flip();
        writeFully(frame);
        writeFully(payload);
        frame.clear();
        frame.putInt((int) crc.getValue()).flip();
        writeFully(frame);
    }

    private void writeFully(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            channel.write(b);
        }
    }

    /** Flushes the records, forces the file to disk, and closes it. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            flushRecords();
            ByteBuffer end = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
            end.putLong(recordCount).flip();
            writeChunk(LogFormat.CHUNK_END, end);
            channel.force(false);
        } finally {
            channel.close();
        }
    }
}
