package io.queuelab.cassandra;

import io.queuelab.cassandra.workload.CqlWorkload;
import io.queuelab.cassandra.workload.OperationIssuer;
import io.queuelab.core.backend.SyncBackend;
import io.queuelab.core.backend.SyncSession;

import java.util.Map;
import java.util.concurrent.ExecutionException;

/**
 * The synchronous CQL backend (seed 003's earlier blocking client): each worker thread blocks until
 * its request completes. It issues exactly the requests of {@link CqlBackend} and waits on them
 * the way the driver's own blocking {@code execute} does, so the two modes differ only in how the
 * client waits.
 */
public final class CqlSyncBackend extends CqlTarget implements SyncBackend {

    private CqlSyncBackend(CqlConnection connection) {
        super(connection);
    }

    /** Connects, creates the schema if asked, loads the workload's data once, prepares its statements. */
    public static CqlSyncBackend open(CqlSettings settings, CqlWorkload workload) throws Exception {
        return new CqlSyncBackend(CqlConnection.open(settings, workload));
    }

    @Override
    public SyncSession openSession(int worker, long seed) {
        OperationIssuer issuer = connection.prepared().issuer(seed);
        return operation -> {
            try {
                issuer.issue(operation).toCompletableFuture().get();
            } catch (ExecutionException e) {
                Throwable cause = CqlErrors.unwrap(e);
                throw cause instanceof Exception exception ? exception : e;
            }
        };
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> d = super.describe();
        d.put("client", "sync (worker threads block on each request)");
        return d;
    }
}
