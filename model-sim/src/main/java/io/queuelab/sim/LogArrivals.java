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
 * Reads the intended instants of a request log. A local workaround: generator-core's
 * RequestLogReader (as of d3dbdf6) starts its first chunk at offset 0 instead of after the header,
 * so it returns no record; replace this class by RequestLogReader once that is fixed (one line:
 * {@code recordPos = LogFormat.HEADER_SIZE} in its constructor). Reads complete chunks only, like
 * the reader; a torn tail is ignored.
 */
final class LogArrivals {
    private LogArrivals() {
    }

    static long[] intendedInstants(Path file) throws IOException {
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
                    long intended = b.getLong(r);
                    if (intended == LogFormat.NONE) {
                        continue;
                    }
                    if (n == times.length) {
                        times = Arrays.copyOf(times, 2 * n);
                    }
                    times[n++] = intended;
                }
            }
            at += LogFormat.CHUNK_OVERHEAD + length;
        }
        return Arrays.copyOf(times, n);
    }
}
