package io.queuelab.sim;

import io.queuelab.core.log.LogFormat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Reads arrival instants and service times of a request log. A local workaround: generator-core's
 * RequestLogReader (as of d3dbdf6) starts its first chunk at offset 0 instead of after the header,
 * so it returns no record; replace this class by RequestLogReader once that is fixed (one line:
 * {@code recordPos = LogFormat.HEADER_SIZE} in its constructor). Reads complete chunks only, like
 * the reader; a torn tail is ignored.
 */
final class LogSamples {
    private LogSamples() {
    }

    /** The intended instant (ns after the anchor) of every record that has one. */
    static long[] intendedInstants(Path file) throws IOException {
        return collect(file, (b, r) -> b.getLong(r));
    }

    /** completed - sent (ns) of every successful record: the service times a generator measured. */
    static long[] serviceTimes(Path file) throws IOException {
        return collect(file, (b, r) -> b.get(r + 37) == LogFormat.OK && b.getLong(r + 16) != LogFormat.NONE
                && b.getLong(r + 24) != LogFormat.NONE ? b.getLong(r + 24) - b.getLong(r + 16) : LogFormat.NONE);
    }

    /** Extracts one long per record (at the record's offset r); NONE values are skipped. */
    private interface Field {
        long of(ByteBuffer b, int r);
    }

    private static long[] collect(Path file, Field field) throws IOException {
        ByteBuffer b;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            b = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size()).order(ByteOrder.LITTLE_ENDIAN);
        }
        if (b.limit() < LogFormat.HEADER_SIZE || b.getInt(0) != LogFormat.MAGIC) {
            throw new IOException("not a queuelab request log: " + file);
        }
        long[] times = new long[1 << 16];
        int n = 0;
        int at = LogFormat.HEADER_SIZE;
        while (at + LogFormat.CHUNK_OVERHEAD <= b.limit()) {
            byte type = b.get(at);
            int length = b.getInt(at + 1);
            if (length < 0 || at + LogFormat.CHUNK_OVERHEAD + (long) length > b.limit()) {
                break;
            }
            if (type == LogFormat.CHUNK_RECORDS) {
                for (int r = at + 5; r < at + 5 + length; r += LogFormat.RECORD_SIZE) {
                    long value = field.of(b, r);
                    if (value == LogFormat.NONE) {
                        continue;
                    }
                    if (n == times.length) {
                        times = Arrays.copyOf(times, 2 * n);
                    }
                    times[n++] = value;
                }
            }
            at += LogFormat.CHUNK_OVERHEAD + length;
        }
        return Arrays.copyOf(times, n);
    }
}
