package io.queuelab.jdbc;

import io.queuelab.core.backend.SyncBackend;
import io.queuelab.core.backend.SyncSession;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What every backend over a JDBC connection shares (the Wisconsin workloads, seed 002's IoT
 * ingest, seed 000's write and end-to-end tests), so that it is decided in one place.
 *
 * <p>Guarantees: a failed request's class is {@link JdbcErrors#classify}'s, the same for every
 * such backend (docs/jdbc.md's table; a subclass cannot decide otherwise); {@link #describe()} is
 * the map fixed when the backend opened, whose {@code jdbcUrl} is the redacted URL (never a
 * password); {@link #close()} closes every session opened through {@link #track} and still open
 * (the pipeline normally closes them itself), once.
 */
public abstract class JdbcFamilyBackend implements SyncBackend {
    private final Map<String, Object> description;
    private final List<SyncSession> sessions = new CopyOnWriteArrayList<>();

    /** @param description what the manifest records of the backend, begun by {@link #description} */
    protected JdbcFamilyBackend(Map<String, Object> description) {
        this.description = description;
    }

    /** A description's first entries: the backend's name and the target's URL without credentials. */
    protected static Map<String, Object> description(String backend, JdbcTarget target) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("backend", backend);
        d.put("jdbcUrl", target.redactedUrl());
        return d;
    }

    /** Registers a session just opened, so that {@link #close()} closes it if the pipeline did not. */
    protected final <T extends SyncSession> T track(T session) {
        sessions.add(session);
        return session;
    }

    @Override
    public final Map<String, Object> describe() {
        return description;
    }

    @Override
    public final String classify(Throwable failure) {
        return JdbcErrors.classify(failure);
    }

    /** Closes every session still open; a session that fails to close does not keep the others open. */
    @Override
    public void close() {
        for (SyncSession session : sessions) {
            try {
                session.close();
            } catch (Exception ignored) {
                // a broken connection has nothing left to release
            }
        }
        sessions.clear();
    }
}
