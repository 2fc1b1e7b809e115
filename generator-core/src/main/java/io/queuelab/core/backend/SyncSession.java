package io.queuelab.core.backend;

/** One worker's connection to a {@link SyncBackend}; used by one thread only. */
public interface SyncSession extends AutoCloseable {

    /**
     * Executes one request of the given operation and returns when it has completed.
     * A thrown exception is a failed request; the pipeline classifies it with
     * {@link Backend#classify(Throwable)} and logs it. A session may repair itself (reconnect)
     * on a later call.
     */
    void execute(int operation) throws Exception;

    @Override
    default void close() throws Exception {
    }
}
