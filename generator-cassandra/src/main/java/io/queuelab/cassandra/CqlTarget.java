package io.queuelab.cassandra;

import io.queuelab.core.backend.OperationMix;

import java.util.Map;

/**
 * What the asynchronous and the synchronous CQL backends share: one connection, one workload, one
 * error classification. Subclasses differ only in how a request waits for its completion.
 */
abstract class CqlTarget implements AutoCloseable {
    final CqlConnection connection;

    CqlTarget(CqlConnection connection) {
        this.connection = connection;
    }

    public OperationMix operations() {
        return connection.workload().operations();
    }

    public Map<String, Object> describe() {
        return connection.describe();
    }

    /** One of {@link CqlErrors#ALL}. */
    public String classify(Throwable failure) {
        return CqlErrors.classify(failure);
    }

    @Override
    public void close() {
        connection.close();
    }
}
