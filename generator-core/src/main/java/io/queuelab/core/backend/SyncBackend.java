package io.queuelab.core.backend;

/** A backend whose requests block the calling worker thread until they complete. */
public non-sealed interface SyncBackend extends Backend {

    /**
     * Opens the session a worker will use for all its requests (e.g. one JDBC connection).
     * All sessions are opened before the first arrival.
     *
     * @param worker the worker's index, 0-based
     * @param seed   a seed for the session's own parameter streams (keys, values)
     */
    SyncSession openSession(int worker, long seed) throws Exception;
}
