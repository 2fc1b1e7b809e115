package io.queuelab.core.run;

import io.queuelab.core.log.LogFormat;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One request on its way through the pipeline, with its timestamp chain (ns after the run's
 * anchor). Exactly one party logs it: whoever wins {@link #claim()} (the worker or callback that
 * completes it, or the driver at a hard stop), so a request can never be counted twice.
 */
final class Request {
    private static final VarHandle CLAIMED;

    static {
        try {
            CLAIMED = MethodHandles.lookup().findVarHandle(Request.class, "claimed", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final int operation;
    final int phase;
    /** Log flags; the logger adds {@code FLAG_CLIENT_STALL} when it logs the request. */
    int flags;
    final long intended;
    /** The arrival's place in the open-loop schedule (0, 1, ...); -1 in a closed loop. */
    final long seq;
    /** When the request entered the client: a worker woke for it, or it joined the queue. */
    long dispatched = LogFormat.NONE;
    /** True when an idle worker (or a free in-flight place) was waiting for it at its instant. */
    boolean idleWorker;
    long dequeued = LogFormat.NONE;
    long sent = LogFormat.NONE;
    long completed = LogFormat.NONE;
    int worker;
    int outcome = LogFormat.OK;
    /** The failure of an errored request (outcome set by the logger from its class). */
    Throwable failure;
    @SuppressWarnings("unused")
    private volatile int claimed;

    Request(int operation, int phase, int flags, long intended, long seq) {
        this.operation = operation;
        this.phase = phase;
        this.flags = flags;
        this.intended = intended;
        this.seq = seq;
    }

    /** True for exactly one caller: the one that may complete and log this request. */
    boolean claim() {
        return CLAIMED.compareAndSet(this, 0, 1);
    }
}
