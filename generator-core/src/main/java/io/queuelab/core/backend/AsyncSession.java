package io.queuelab.core.backend;

/** The dispatcher's connection to an {@link AsyncBackend}; {@link #execute} is called by one thread. */
public interface AsyncSession extends AutoCloseable {

    /**
     * Issues one request and returns without waiting for it. Exactly one of
     * {@link Completion#succeeded()} or {@link Completion#failed(Throwable)} must be called later,
     * on any thread (or already within this call). An exception thrown from this method counts as
     * the request's failure.
     */
    void execute(int operation, Completion completion);

    @Override
    default void close() throws Exception {
    }

    /** The callback of one asynchronous request. */
    interface Completion {
        void succeeded();

        void failed(Throwable failure);
    }
}
