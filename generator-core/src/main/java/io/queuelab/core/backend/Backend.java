package io.queuelab.core.backend;

import java.util.Map;

/**
 * A system under test, as the request pipeline sees it. Every backend is exactly one of
 * {@link SyncBackend} (a worker thread blocks on each request, as JDBC does) or
 * {@link AsyncBackend} (a request is issued and its completion arrives by callback, as the
 * Cassandra driver does).
 *
 * <p>A backend names its operations once ({@link #operations()}); a request carries an operation's
 * index in that mix, and the same index is written to the request log.
 */
public sealed interface Backend extends AutoCloseable permits SyncBackend, AsyncBackend {

    /** The operations this backend can execute and their mix; index = operation code. */
    OperationMix operations();

    /**
     * What the manifest should record about the system under test (server version, settings that
     * shape the results). Never credentials. Called once, after the backend is ready.
     */
    default Map<String, Object> describe() {
        return Map.of();
    }

    /**
     * What the backend counted over the run that the request log cannot show, added to the
     * manifest's {@code backend.server} after the drain (the sessions closed, the backend still
     * open): e.g. the points a fire-and-forget protocol sent against those the server stored.
     * Called once; a failure is recorded under {@code describeAtEndFailed}. Default: nothing.
     */
    default Map<String, Object> describeAtEnd() throws Exception {
        return Map.of();
    }

    /**
     * The error class of a failed request, a short stable name such as {@code timeout},
     * {@code connection_lost} or {@code deadlock}. Must be cheap: it runs once per failure.
     */
    default String classify(Throwable failure) {
        return "error";
    }

    /** Releases connections and threads; called once at the end of a run. */
    @Override
    void close() throws Exception;
}
