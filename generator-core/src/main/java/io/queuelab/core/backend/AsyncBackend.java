package io.queuelab.core.backend;

/**
 * A backend whose requests are issued without blocking and complete by callback.
 * The pipeline bounds the requests in flight itself; requests beyond the bound wait in the
 * generator's queue, where their wait is measured.
 */
public non-sealed interface AsyncBackend extends Backend {

    /**
     * Opens the session the dispatcher uses for all requests (e.g. one driver session with its
     * connection pool). Opened before the first arrival.
     *
     * @param seed a seed for the session's parameter streams
     */
    AsyncSession openSession(long seed) throws Exception;
}
