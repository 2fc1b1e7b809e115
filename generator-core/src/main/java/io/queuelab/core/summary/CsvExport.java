package io.queuelab.core.summary;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;

/**
 * Writes a request log as CSV, one row a request, with a header. Instants are seconds (decimal,
 * nanosecond digits) after the log's anchor, whose wall-clock value the manifest records; an
 * instant that never happened (a dropped request's send) is an empty field. The last column,
 * {@code client_stall}, is 1 when the request's interval overlapped a stall of the client process
 * itself ({@link LogFormat#FLAG_CLIENT_STALL}: its times include the stall), else 0; it was added
 * last so that the earlier columns keep their positions.
 */
public final class CsvExport {
    public static final String HEADER =
            "node,worker,operation,outcome,phase,warmup,intended_s,dequeued_s,sent_s,completed_s,response_s,service_s,queue_s,client_stall";

    private CsvExport() {
    }

    /** Returns the number of rows written. */
    public static long write(RequestLogReader reader, Writer out) throws IOException {
        BufferedWriter w = out instanceof BufferedWriter bw ? bw : new BufferedWriter(out, 1 << 16);
        w.write(HEADER);
        w.write('\n');
        long rows = 0;
        StringBuilder b = new StringBuilder(160);
        while (reader.next()) {
            b.setLength(0);
            b.append(reader.node()).append(',').append(reader.worker()).append(',')
                    .append(reader.operationName(reader.operation())).append(',')
                    .append(reader.outcomeName(reader.outcome())).append(',')
                    .append(reader.phase()).append(',').append(reader.warmup() ? 1 : 0).append(',');
            seconds(b, reader.intended()).append(',');
            seconds(b, reader.dequeued()).append(',');
            seconds(b, reader.sent()).append(',');
            seconds(b, reader.completed()).append(',');
            difference(b, reader.completed(), reader.intended()).append(',');
            difference(b, reader.completed(), reader.sent()).append(',');
            difference(b, reader.sent(), reader.intended()).append(',');
            b.append(reader.clientStall() ? 1 : 0).append('\n');
            w.append(b);
            rows++;
        }
        w.flush();
        return rows;
    }

    private static StringBuilder difference(StringBuilder b, long later, long earlier) {
        if (later == LogFormat.NONE || earlier == LogFormat.NONE) {
            return b;
        }
        return seconds(b, later - earlier);
    }

    /** Appends ns as decimal seconds with nine fraction digits, without floating-point rounding. */
    static StringBuilder seconds(StringBuilder b, long nanos) {
        if (nanos == LogFormat.NONE) {
            return b;
        }
        if (nanos < 0) {
            b.append('-');
            nanos = -nanos;
        }
        long whole = nanos / 1_000_000_000L;
        long frac = nanos % 1_000_000_000L;
        b.append(whole).append('.');
        String f = Long.toString(frac);
        for (int i = f.length(); i < 9; i++) {
            b.append('0');
        }
        return b.append(f);
    }
}
