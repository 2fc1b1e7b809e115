package io.queuelab.jdbc;

import java.sql.SQLException;
import java.sql.Statement;

/**
 * A request to stop a load before its end (Ctrl-C, SIGTERM). Guarantees: once requested, the
 * statement the load has registered with {@link #running} is cancelled ({@code KILL QUERY} through
 * the driver; a LOAD DATA is not registered, its stream ends instead) and the load checks the
 * request before each further statement, so it ends within one short statement; the loader then
 * throws {@link Interrupted}, whose message says what was kept. Past its last check a load
 * registers nothing and completes, so the message of an {@link Interrupted} is never wrong about
 * the relation. The loaders' own guarantee stands: no table is left half filled under the
 * relation's name. Thread-safe; the first reason wins.
 */
public final class LoadStop {
    private volatile String reason;
    private volatile Statement running;

    /** Asks the load to stop and cancels the statement it runs now, if any. */
    public void request(String why) {
        synchronized (this) {
            if (reason == null) {
                reason = why;
            }
        }
        cancel(running);
    }

    public boolean requested() {
        return reason != null;
    }

    /** Why the load was asked to stop; null if it was not. */
    public String reason() {
        return reason;
    }

    /** The statement the load executes from now on: a stop request cancels it on the server. */
    public void running(Statement statement) {
        running = statement;
        if (requested()) {
            cancel(statement); // a request that came before the statement was known
        }
    }

    /** Throws {@link Interrupted} with {@code kept} as what is left when a stop was requested. */
    public void check(String kept) throws Interrupted {
        if (requested()) {
            throw new Interrupted(kept);
        }
    }

    private static void cancel(Statement statement) {
        if (statement == null) {
            return;
        }
        try {
            statement.cancel();
        } catch (SQLException | RuntimeException ignored) {
            // the statement ended or its connection is gone: the load checks the request before its next one
        }
    }

    /** A load that ended at a stop request; the message says what was kept (the caller adds why and when). */
    public static final class Interrupted extends SQLException {
        public Interrupted(String kept) {
            super(kept);
        }
    }
}
