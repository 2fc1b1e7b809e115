package io.queuelab.core.log;

/**
 * Constants of the request log format, version 2 ({@code docs/log-format.md} is the normative
 * description). All numbers are little-endian. Version 1 is version 2 without the end chunk; readers
 * read both.
 *
 * <pre>
 * header (24 bytes): magic "QLOG" | int version | int recordSize (40) | int flags | long anchorEpochNanos
 * chunk:             byte type | int payloadLength | payload | int crc32(payload)
 *   type 'D' dictionary entry: byte kind ('O' operation, 'E' outcome) | short code | short length | UTF-8 name
 *   type 'R' records:          payloadLength / 40 records
 *   type 'Z' end (version 2):  long recordCount, written last when the writer is closed
 * record (40 bytes): long intended | long dequeued | long sent | long completed  (ns after the anchor)
 *                    | short node | short worker | byte operation | byte outcome | byte phase | byte flags
 * </pre>
 *
 * A chunk is either wholly present with a matching CRC, or damaged (readers skip to the next
 * chunk whose CRC matches and report the bytes and records lost), or the truncated tail of a log
 * whose writer died (readers report it). A version 2 log without its end chunk was not closed.
 */
public final class LogFormat {
    private LogFormat() {
    }

    public static final int MAGIC = 0x474F4C51; // "QLOG" read little-endian
    public static final int VERSION = 2;
    /** The oldest version readers still read (no end chunk). */
    public static final int OLDEST_READABLE_VERSION = 1;
    public static final int HEADER_SIZE = 24;
    public static final int RECORD_SIZE = 40;
    public static final int CHUNK_OVERHEAD = 1 + 4 + 4;
    public static final byte CHUNK_DICTIONARY = 'D';
    public static final byte CHUNK_RECORDS = 'R';
    public static final byte CHUNK_END = 'Z';
    /** The largest payload of a records chunk that readers accept (writers write at most 8192 records). */
    public static final int MAX_RECORDS_PAYLOAD = 1 << 20;
    public static final byte DICT_OPERATION = 'O';
    public static final byte DICT_OUTCOME = 'E';

    /** A timestamp for an instant that never happened (a dropped request was never sent). */
    public static final long NONE = Long.MIN_VALUE;

    /** Outcome code of a request that completed successfully. */
    public static final int OK = 0;
    /** Outcome code of a request refused because the request queue was full. */
    public static final int DROPPED = 1;
    /** Outcome code of a request still queued or in flight when the run was stopped. */
    public static final int UNFINISHED = 2;
    /** The first outcome code for an error class; error classes are named in the dictionary. */
    public static final int FIRST_ERROR = 3;
    /** Largest outcome code (one byte, unsigned). */
    public static final int MAX_OUTCOME = 255;

    /** Flag bit: the request belongs to a warm-up phase and is excluded from summaries. */
    public static final int FLAG_WARMUP = 1;
    /**
     * Flag bit: the request's interval (intended to completed) overlapped a stall of the client
     * process itself (it did not run at all: SIGSTOP, a paused VM); its response, service and queue
     * times include the stall and are not measurements of the server.
     */
    public static final int FLAG_CLIENT_STALL = 2;

    /** The default name of the request log inside a run directory. */
    public static final String FILE_NAME = "requests.qlog";

    public static String builtInOutcomeName(int code) {
        return switch (code) {
            case OK -> "ok";
            case DROPPED -> "dropped";
            case UNFINISHED -> "unfinished";
            default -> null;
        };
    }
}
