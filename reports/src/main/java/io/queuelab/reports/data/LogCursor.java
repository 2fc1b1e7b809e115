package io.queuelab.reports.data;

import io.queuelab.core.log.LogFormat;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;

/**
 * A streaming reader of the request log format ({@link LogFormat}), used in place of
 * generator-core's RequestLogReader, whose first chunk is read from offset 0 instead of after the
 * header in the skeleton's version (so every log reads as empty). Local workaround, to be
 * replaced by RequestLogReader once it is fixed in generator-core. Reads whole chunks, checks
 * each chunk's CRC, stops at a torn tail.
 */
final class LogCursor implements Closeable {
    private final Path file;
    private final FileChannel channel;
    private final CRC32 crc = new CRC32();
    private final ByteBuffer frame = ByteBuffer.allocate(5).order(ByteOrder.LITTLE_ENDIAN);
    private final ByteBuffer crcBytes = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
    private final String[] outcomes = new String[LogFormat.MAX_OUTCOME + 1];
    private ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
    private int recordsLeft;
    private int position;
    private long truncatedBytes;

    private long intended, sent, completed;
    private int outcome, flags;

    private LogCursor(Path file, FileChannel channel) throws IOException {
        this.file = file;
        this.channel = channel;
        ByteBuffer header = ByteBuffer.allocate(LogFormat.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        if (!readFully(header)) {
            throw new IOException("not a queuelab request log (too short): " + file);
        }
        header.flip();
        if (header.getInt() != LogFormat.MAGIC) {
            throw new IOException("not a queuelab request log: " + file);
        }
        int version = header.getInt();
        if (version != LogFormat.VERSION || header.getInt() != LogFormat.RECORD_SIZE) {
            throw new IOException("unsupported request log version " + version + " in " + file);
        }
        for (int code = 0; code < LogFormat.FIRST_ERROR; code++) {
            outcomes[code] = LogFormat.builtInOutcomeName(code);
        }
    }

    static LogCursor open(Path file) throws IOException {
        FileChannel channel;
        try {
            channel = FileChannel.open(file, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            throw new IOException("no request log at " + file);
        }
        try {
            return new LogCursor(file, channel);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    private boolean readFully(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (channel.read(b) < 0) {
                return false;
            }
        }
        return true;
    }

    boolean next() throws IOException {
        while (recordsLeft == 0) {
            if (!nextChunk()) {
                return false;
            }
        }
        ByteBuffer b = chunk;
        int p = position;
        intended = b.getLong(p);
        sent = b.getLong(p + 16);
        completed = b.getLong(p + 24);
        outcome = b.get(p + 37) & 0xFF;
        flags = b.get(p + 39) & 0xFF;
        position = p + LogFormat.RECORD_SIZE;
        recordsLeft--;
        return true;
    }

    private boolean nextChunk() throws IOException {
        while (true) {
            long start = channel.position();
            frame.clear();
            if (!readFully(frame)) {
                return torn(start);
            }
            frame.flip();
            byte type = frame.get();
            int length = frame.getInt();
            if (length < 0 || (type != LogFormat.CHUNK_RECORDS && type != LogFormat.CHUNK_DICTIONARY)
                    || (type == LogFormat.CHUNK_RECORDS && length % LogFormat.RECORD_SIZE != 0)
                    || start + LogFormat.CHUNK_OVERHEAD + length > channel.size()) {
                return torn(start);
            }
            if (chunk.capacity() < length) {
                chunk = ByteBuffer.allocateDirect(length).order(ByteOrder.LITTLE_ENDIAN);
            }
            chunk.clear().limit(length);
            crcBytes.clear();
            if (!readFully(chunk) || !readFully(crcBytes)) {
                return torn(start);
            }
            chunk.flip();
            crc.reset();
            crc.update(chunk.duplicate());
            if ((int) crc.getValue() != crcBytes.flip().getInt()) {
                return torn(start);
            }
            if (type == LogFormat.CHUNK_RECORDS) {
                position = 0;
                recordsLeft = length / LogFormat.RECORD_SIZE;
                return true;
            }
            if (chunk.get(0) == LogFormat.DICT_OUTCOME) {
                int code = chunk.getShort(1) & 0xFFFF;
                byte[] utf8 = new byte[chunk.getShort(3) & 0xFFFF];
                chunk.get(5, utf8);
                if (code < outcomes.length) {
                    outcomes[code] = new String(utf8, StandardCharsets.UTF_8);
                }
            }
        }
    }

    private boolean torn(long start) throws IOException {
        truncatedBytes = channel.size() - start;
        recordsLeft = 0;
        return false;
    }

    long truncatedBytes() {
        return truncatedBytes;
    }

    long intended() { return intended; }

    long sent() { return sent; }

    long completed() { return completed; }

    int outcome() { return outcome; }

    boolean warmup() { return (flags & LogFormat.FLAG_WARMUP) != 0; }

    String outcomeName(int code) {
        String name = code >= 0 && code < outcomes.length ? outcomes[code] : null;
        return name != null ? name : "error" + code;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
