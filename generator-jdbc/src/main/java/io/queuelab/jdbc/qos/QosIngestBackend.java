package io.queuelab.jdbc.qos;

import io.queuelab.core.backend.OperationMix;
import io.queuelab.core.backend.SyncSession;
import io.queuelab.jdbc.JdbcFamilyBackend;
import io.queuelab.jdbc.JdbcTarget;

import java.sql.SQLException;
import java.util.Map;
import java.util.SplittableRandom;
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
public final class QosIngestBackend extends JdbcFamilyBackend {
    /** The one operation: a result line. */
    public static final String OPERATION = "ingest-line";

    private final JdbcTarget target;
    private final QosSchema schema;
    private final String prefix;
    private final long[][] ids;
    private final long[] measurementIds;
    private final AtomicLong sequence = new AtomicLong();

    private QosIngestBackend(JdbcTarget target, QosSchema schema, String prefix, int clients) {
        super(describe(target, schema, prefix, clients));
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
        return b;
    }

    private static Map<String, Object> describe(JdbcTarget target, QosSchema schema, String prefix, int clients) {
        Map<String, Object> d = description("jdbc-qos-ingest", target);
        d.put("schema", schema.number());
        d.put("tables", schema.tables(prefix));
        d.put("measurementClients", clients);
        return d;
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
        SplittableRandom random = new SplittableRandom(seed);
        int[] results = new int[QosColumns.RESULTS.size()];
        int clients = ids.length;
        return track(new SyncSession() {
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
        });
    }
}
