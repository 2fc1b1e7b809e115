package io.queuelab.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.context.DriverContext;
import com.datastax.oss.driver.api.core.retry.RetryDecision;
import com.datastax.oss.driver.api.core.retry.RetryPolicy;
import com.datastax.oss.driver.api.core.servererrors.CoordinatorException;
import com.datastax.oss.driver.api.core.servererrors.WriteType;
import com.datastax.oss.driver.api.core.session.Request;

/**
 * A driver retry policy that never retries: every server or connection error reaches the request's
 * completion as it happened, so the request log counts it once (a hidden retry would fold the
 * failure into a successful request's latency).
 */
@SuppressWarnings("deprecation") // the driver's verdict methods default to these decision methods
public final class NoRetryPolicy implements RetryPolicy {

    /** The constructor the driver calls when it instantiates the policy from its configuration. */
    public NoRetryPolicy(DriverContext context, String profileName) {
    }

    @Override
    public RetryDecision onReadTimeout(Request request, ConsistencyLevel cl, int blockFor, int received,
                                       boolean dataPresent, int retryCount) {
        return RetryDecision.RETHROW;
    }

    @Override
    public RetryDecision onWriteTimeout(Request request, ConsistencyLevel cl, WriteType writeType, int blockFor,
                                        int received, int retryCount) {
        return RetryDecision.RETHROW;
    }

    @Override
    public RetryDecision onUnavailable(Request request, ConsistencyLevel cl, int required, int alive, int retryCount) {
        return RetryDecision.RETHROW;
    }

    @Override
    public RetryDecision onRequestAborted(Request request, Throwable error, int retryCount) {
        return RetryDecision.RETHROW;
    }

    @Override
    public RetryDecision onErrorResponse(Request request, CoordinatorException error, int retryCount) {
        return RetryDecision.RETHROW;
    }

    @Override
    public void close() {
    }
}
