package io.queuelab.jdbc.qos;

import io.queuelab.core.backend.OperationMix;
import io.queuelab.core.backend.SyncBackend;
import io.queuelab.core.backend.SyncSession;
import io.queuelab.jdbc.JdbcErrors;
import io.queuelab.jdbc.JdbcTarget;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Seed 000's end-to-end writing test as a backend: C measurement clients whose result lines
 * arrive as one open-loop stream (the run's schedule, C x 20 lines/s in the seed) and are written
 * by W writer processes (the run's workers, one connection each), with the generator's request
 * queue as the writers' buffer: a line's queue wait is how far the writers lag behind the
 * producers. Line n of the stream belongs to client n mod C and is that client's line n / C.
 * The C measurements (measurementsId rows in schemas 2 and 3) are started when the backend opens.
 *
 * <p>Guarantees: every line a session reports as done is committed, in the measurement of its
 * client; lines are numbered without gaps or repeats across the writers.
 */
public final class QosIngestBackend implements SyncBackend {
    /** The one operation: a result line. */
    public static final String OPERATION = "ingest-line";

    private final JdbcTarget target;
    private final QosSchema schema;
    private final String prefix;
    private final long[][] ids;
    private final long[] measurementIds;
    private final AtomicLong sequence = new AtomicLong();
    private final Map<String, Object> description = new LinkedHashMap<>();
    private final List<QosLineWriter> writers = new CopyOnWriteArrayList<>();

    private QosIngestBackend(JdbcTarget target, QosSchema schema, String prefix, int clients) {
        this.target = target;
        this.schema = schema;
        this.prefix = prefix;
        this.ids = new long[clients][];
        this.measurementIds = new long[clients];
    }

    /** Starts {@code clients} measurements in the schema's tables under {@code <base><n>_} (they must exist). */
    public static QosIngestBackend open(JdbcTarget target, QosSchema schema, String base, int clients, long seed) throws SQLException {
        if (clients < 1) {
            throw new IllegalArgumentException("the end-to-end test needs at least 1 measurement client, got " + clients);
        }
        QosIngestBackend b = new QosIngestBackend(target, schema, schema.prefix(base), clients);
        SplittableRandom random = new SplittableRandom(seed);
        try (QosLineWriter w = new QosLineWriter(target, schema, b.prefix)) {
            for (int c = 0; c < clients; c++) {
                b.ids[c] = QosReadDataSet.identification(c + 1, 0, random);
                b.ids[c][12] = 0;
                b.measurementIds[c] = w.startMeasurement(b.ids[c]);
            }
        }
        b.description.put("backend", "jdbc-qos-ingest");
        b.description.put("jdbcUrl", target.redactedUrl());
        b.description.put("schema", schema.number());
        b.description.put("tables", schema.tables(b.prefix));
        b.description.put("measurementClients", clients);
        return b;
    }

    /** Lines handed out to writers so far. */
    public long linesStarted() {
        return sequence.get();
    }

    @Override
    public OperationMix operations() {
        return OperationMix.single(OPERATION);
    }

    @Override
    public SyncSession openSession(int worker, long seed) throws SQLException {
        QosLineWriter writer = new QosLineWriter(target, schema, prefix);
        writers.add(writer);
        SplittableRandom random = new SplittableRandom(seed);
        int[] results = new int[QosColumns.RESULTS.size()];
        int clients = ids.length;
        return new SyncSession() {
            @Override
            public void execute(int operation) throws SQLException {
                long n = sequence.getAndIncrement();
                int client = (int) (n % clients);
                QosColumns.line(results, (int) (n / clients), random);
                writer.writeLine(measurementIds[client], ids[client], results);
            }

            @Override
            public void close() {
                writer.close();
            }
        };
    }

    @Override
    public Map<String, Object> describe() {
        return description;
    }

    @Override
    public String classify(Throwable failure) {
        return JdbcErrors.classify(failure);
    }

    @Override
    public void close() {
        writers.forEach(QosLineWriter::close);
        writers.clear();
    }
}
