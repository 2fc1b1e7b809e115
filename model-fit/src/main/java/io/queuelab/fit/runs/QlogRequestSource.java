package io.queuelab.fit.runs;

import io.queuelab.core.log.RequestLogReader;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A {@link RequestSource} over a queuelab request log; times are ns after the log's anchor.
 */
public final class QlogRequestSource implements RequestSource {
    private final RequestLogReader reader;

    private QlogRequestSource(RequestLogReader reader) {
        this.reader = reader;
    }

    public static QlogRequestSource open(Path file) throws IOException {
        return new QlogRequestSource(RequestLogReader.open(file));
    }

    @Override
    public boolean next() throws IOException {
        return reader.next();
    }

    @Override
    public long intended() {
        return reader.intended();
    }

    @Override
    public long sent() {
        return reader.sent();
    }

    @Override
    public long completed() {
        return reader.completed();
    }

    @Override
    public int outcome() {
        return reader.outcome();
    }

    @Override
    public String outcomeName(int code) {
        return reader.outcomeName(code);
    }

    @Override
    public boolean warmup() {
        return reader.warmup();
    }

    @Override
    public int operation() {
        return reader.operation();
    }

    @Override
    public String operationName(int code) {
        return reader.operationName(code);
    }

    @Override
    public int phase() {
        return reader.phase();
    }

    @Override
    public java.util.List<String> problems(long expectedRecords) {
        return reader.problems(expectedRecords);
    }

    /** Bytes of a torn tail the reader ignored (a writer that died). */
    public long truncatedBytes() {
        return reader.truncatedBytes();
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
