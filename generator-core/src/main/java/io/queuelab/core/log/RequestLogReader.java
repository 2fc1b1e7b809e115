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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32;

/**
 * Streams a request log ({@link LogFormat}) record by record, in constant memory.
 *
 * <p>The reader is a cursor: {@link #next()} advances to the next record and the accessors return
 * its fields. Nothing is allocated per record. Every chunk is checked against its CRC. A damaged
 * chunk in the middle is skipped: reading goes on at the next chunk whose CRC matches, and
 * {@link #damage()} says where the damage was and how many records were lost (exactly when the
 * damaged chunk's header survived, else estimated from its size). A log cut short by a crash of
 * its writer is read up to its last complete chunk; {@link #truncatedBytes()} then says how many
 * bytes of a torn tail were ignored. A version 2 log ends with an end chunk holding the writer's
 * record count; without it, the log was not closed (or was cut at a chunk boundary).
 * {@link #problems(long)} puts all of this, and a count that differs from the manifest's, in one
 * line each. Versions 1 and 2 are read; any other is a one-line error naming it. Not thread-safe.
 */
public final class RequestLogReader implements Closeable {
    private static final int BLOCK = 1 << 22;
    private static final int SCAN_WINDOW = 1 << 20;
    private static final int CHUNK_HEAD = 5; // type and payload length

    private final Path file;
    private final FileChannel channel;
    private final long fileSize;
    private final long anchorEpochNanos;
    private final int version;
    private final CRC32 crc = new CRC32();
    private ByteBuffer buf = ByteBuffer.allocateDirect(BLOCK).order(ByteOrder.LITTLE_ENDIAN);
    private long consumed; // file offset of buf position 0
    private boolean eof;
    private boolean ended; // the end of the readable log was reached: next() stays false
    private int recordsLeftInChunk;
    private int recordPos;
    private long truncatedBytes;
    private long recordsRead;
    private long lastIntended = LogFormat.NONE;
    private long endCount = -1;
    private final List<Damage> damage = new ArrayList<>();
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
        version = buf.getInt();
        int recordSize = buf.getInt();
        buf.getInt();
        anchorEpochNanos = buf.getLong();
        if (magic != LogFormat.MAGIC) {
            throw new IOException("not a queuelab request log: " + file);
        }
        if (version < LogFormat.OLDEST_READABLE_VERSION || version > LogFormat.VERSION || recordSize != LogFormat.RECORD_SIZE) {
            throw new IOException("unsupported request log format version " + version + " (record size " + recordSize
                    + ") in " + file + ": this queuelab reads versions " + LogFormat.OLDEST_READABLE_VERSION + " to "
                    + LogFormat.VERSION);
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
        recordsRead++;
        lastIntended = intended;
        return true;
    }

    private boolean nextChunk() throws IOException {
        while (!ended) {
            if (!ensure(CHUNK_HEAD)) {
                truncatedBytes = buf.remaining(); // a few bytes of a chunk header
                buf.position(buf.limit());
                ended = true;
                return false;
            }
            int start = buf.position();
            long at = consumed + start;
            byte type = buf.get(start);
            int length = buf.getInt(start + 1);
            boolean plausible = plausible(type, length, at);
            if (plausible && ensure(LogFormat.CHUNK_OVERHEAD + length)) {
                start = buf.position();
                int payload = start + CHUNK_HEAD;
                ByteBuffer slice = buf.duplicate().position(payload).limit(payload + length);
                crc.reset();
                crc.update(slice);
                if ((int) crc.getValue() == buf.getInt(payload + length)) {
                    buf.position(payload + length + 4);
                    if (type == LogFormat.CHUNK_RECORDS) {
                        recordPos = payload;
                        recordsLeftInChunk = length / LogFormat.RECORD_SIZE;
                        return true;
                    } else if (type == LogFormat.CHUNK_END) {
                        endCount = buf.getLong(payload);
                    } else {
                        readDictionary(payload, length);
                    }
                    continue;
                }
            }
            long resume = findChunk(at + 1);
            if (resume < 0) {
                truncatedBytes = fileSize - at; // nothing readable follows: the torn tail of a writer that died
                recordsLeftInChunk = 0;
                buf.position(buf.limit());
                ended = true;
                return false;
            }
            // damage in the middle: skip to the next intact chunk
            boolean exact = plausible && at + LogFormat.CHUNK_OVERHEAD + length == resume;
            long lost = exact ? (type == LogFormat.CHUNK_RECORDS ? length / LogFormat.RECORD_SIZE : 0)
                    : Math.max(0, resume - at - LogFormat.CHUNK_OVERHEAD) / LogFormat.RECORD_SIZE;
            damage.add(new Damage(at, resume - at, recordsRead, lost, exact, lastIntended));
            seek(resume);
        }
        return false;
    }

    /** Whether a chunk header could be one the writer wrote, and the chunk fits in the file. */
    private boolean plausible(byte type, int length, long at) {
        boolean shape = switch (type) {
            case LogFormat.CHUNK_RECORDS -> length > 0 && length % LogFormat.RECORD_SIZE == 0 && length <= LogFormat.MAX_RECORDS_PAYLOAD;
            case LogFormat.CHUNK_DICTIONARY -> length >= 5 && length <= 5 + 0xFFFF;
            case LogFormat.CHUNK_END -> length == Long.BYTES && version >= 2;
            default -> false;
        };
        return shape && at + LogFormat.CHUNK_OVERHEAD + length <= fileSize;
    }

    /** The offset of the first chunk at or after {@code from} whose CRC matches, or -1. */
    private long findChunk(long from) throws IOException {
        ByteBuffer window = ByteBuffer.allocate(SCAN_WINDOW + CHUNK_HEAD).order(ByteOrder.LITTLE_ENDIAN);
        for (long base = from; base + LogFormat.CHUNK_OVERHEAD <= fileSize; base += SCAN_WINDOW) {
            window.clear();
            readFully(window, base);
            int n = window.position();
            for (int i = 0; i < SCAN_WINDOW && i + CHUNK_HEAD <= n; i++) {
                byte type = window.get(i);
                int length = window.getInt(i + 1);
                if (plausible(type, length, base + i) && crcMatches(base + i, length)) {
                    return base + i;
                }
            }
        }
        return -1;
    }

    private boolean crcMatches(long at, int length) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocate(length + 4).order(ByteOrder.LITTLE_ENDIAN);
        readFully(chunk, at + CHUNK_HEAD);
        chunk.flip();
        crc.reset();
        crc.update(chunk.duplicate().limit(length));
        return chunk.remaining() == length + 4 && (int) crc.getValue() == chunk.getInt(length);
    }

    /** Fills {@code b} from {@code position} on, as far as the file goes. */
    private void readFully(ByteBuffer b, long position) throws IOException {
        long p = position;
        while (b.hasRemaining()) {
            int n = channel.read(b, p);
            if (n < 0) {
                break;
            }
            p += n;
        }
    }

    private void seek(long offset) throws IOException {
        channel.position(offset);
        consumed = offset;
        buf.position(0).limit(0);
        eof = false;
        recordsLeftInChunk = 0;
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

    /**
     * A damaged stretch of the log that was skipped.
     *
     * @param offset         file offset where the damage starts
     * @param bytes          bytes skipped up to the next intact chunk
     * @param recordsBefore  records read before it
     * @param lostRecords    records lost in it: exact when {@code exact}, else estimated from its size
     * @param exact          the damaged chunk's header survived, so its record count is known
     * @param intendedBefore intended instant (ns after the anchor) of the last record before it, or NONE
     */
    public record Damage(long offset, long bytes, long recordsBefore, long lostRecords, boolean exact, long intendedBefore) {
    }

    /** The damaged stretches skipped so far, in file order. */
    public List<Damage> damage() {
        return List.copyOf(damage);
    }

    /** Records lost to damage so far (some estimated, see {@link Damage}). */
    public long lostRecords() {
        return damage.stream().mapToLong(Damage::lostRecords).sum();
    }

    /** Records returned by {@link #next()} so far. */
    public long recordsRead() {
        return recordsRead;
    }

    /** The record count of the end chunk, or -1 when none was read (version 1, or a log not closed). */
    public long endCount() {
        return endCount;
    }

    public int version() {
        return version;
    }

    /**
     * After the last {@link #next()}: one line per problem of the log, none for an intact one.
     *
     * @param expectedRecords the count the manifest gives ({@code totals.scheduled}), or -1 when unknown
     */
    public List<String> problems(long expectedRecords) {
        List<String> problems = new ArrayList<>();
        for (Damage d : damage) {
            problems.add(String.format(Locale.ROOT,
                    "the log is damaged at bytes %d to %d, after record %d%s: %s%d records lost, reading went on after them",
                    d.offset(), d.offset() + d.bytes(), d.recordsBefore(),
                    d.intendedBefore() == LogFormat.NONE ? "" : String.format(Locale.ROOT, " (intended %.3f s after the anchor)", d.intendedBefore() / 1e9),
                    d.exact() ? "" : "about ", d.lostRecords()));
        }
        if (truncatedBytes > 0) {
            problems.add("the log ends in a torn tail of " + truncatedBytes + " bytes (ignored): its writer died mid-chunk");
        } else if (version >= 2 && endCount < 0) {
            problems.add("the log has no end mark after its " + recordsRead + " records: its writer did not close it "
                    + "(a crash) or the file was cut at a chunk boundary");
        }
        long lost = lostRecords();
        String lostNote = lost > 0 ? " (" + (damage.stream().allMatch(Damage::exact) ? "" : "about ") + lost + " lost to damage)" : "";
        if (endCount >= 0 && endCount != recordsRead + lost) {
            problems.add("the log's end mark counts " + endCount + " records but " + recordsRead + " were read" + lostNote);
        }
        if (expectedRecords >= 0 && expectedRecords != recordsRead) {
            problems.add("the manifest counts " + expectedRecords + " scheduled requests but the log holds " + recordsRead + lostNote);
        }
        return problems;
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
    /** Whether the request overlapped a stall of the client itself ({@link LogFormat#FLAG_CLIENT_STALL}). */
    public boolean clientStall() { return (flags & LogFormat.FLAG_CLIENT_STALL) != 0; }

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
