package io.queuelab.cassandra;

import io.queuelab.cassandra.workload.CqlWorkload;
import io.queuelab.cassandra.workload.OperationIssuer;
import io.queuelab.core.backend.AsyncBackend;
import io.queuelab.core.backend.AsyncSession;

import java.util.Map;

/**
 * The asynchronous CQL backend (seed 003's {@code executeAsync} client): {@code execute} issues a
 * request and returns at once; the completion callback runs when the driver (and the workload's
 * correctness check) is done. The pipeline bounds the requests in flight; the driver neither
 * retries nor queues beyond its pool (see {@link NoRetryPolicy}).
 */
public final class CqlBackend extends CqlTarget implements AsyncBackend {

    private CqlBackend(CqlConnection connection) {
        super(connection);
    }

    /** Connects, creates the schema if asked, loads the workload's data once, prepares its statements. */
    public static CqlBackend open(CqlSettings settings, CqlWorkload workload) throws Exception {
        return new CqlBackend(CqlConnection.open(settings, workload));
    }

    @Override
    public AsyncSession openSession(long seed) {
        OperationIssuer issuer = connection.prepared().issuer(seed);
        return (operation, completion) -> {
            try {
                issuer.issue(operation).whenComplete((ignored, failure) -> {
                    if (failure == null) {
                        completion.succeeded();
                    } else {
                        completion.failed(CqlErrors.unwrap(failure));
                    }
                });
            } catch (RuntimeException e) {
                completion.failed(e);
            }
        };
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> d = super.describe();
        d.put("client", "async (executeAsync, completion callbacks)");
        return d;
    }
}
