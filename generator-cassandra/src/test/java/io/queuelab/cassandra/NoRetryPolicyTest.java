package io.queuelab.cassandra;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.retry.RetryDecision;
import com.datastax.oss.driver.api.core.retry.RetryPolicy;
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.session.Request;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every session queuelab opens runs with {@link NoRetryPolicy}, and the policy rethrows in each
 * case where the driver's default policy would try again (a read timeout with enough replicas but
 * no data, an unavailable coordinator, an aborted request, an overloaded node): the failure reaches
 * the request's record once instead of hiding in a retried request's latency.
 */
class NoRetryPolicyTest {
    private static final Request SELECT = SimpleStatement.newInstance("SELECT now() FROM system.local");

    @Test
    void everySessionsDriverConfigurationNamesThePolicy() {
        for (CqlSettings settings : List.of(CqlSettings.local(), CqlSettings.local().withKeyspace("other", 3))) {
            assertEquals(NoRetryPolicy.class.getName(), CqlConnection.driverConfig(settings).getInitialConfig()
                    .getDefaultProfile().getString(DefaultDriverOption.RETRY_POLICY_CLASS));
        }
    }

    @Test
    void theFirstTryOfEveryFailureIsRethrown() {
        RetryPolicy policy = new NoRetryPolicy(null, "default");
        DefaultConsistencyLevel one = DefaultConsistencyLevel.ONE;
        List<RetryDecision> decisions = List.of(
                policy.onReadTimeoutVerdict(SELECT, one, 1, 1, false, 0).getRetryDecision(),
                policy.onWriteTimeoutVerdict(SELECT, one, DefaultWriteType.BATCH_LOG, 1, 0, 0).getRetryDecision(),
                policy.onUnavailableVerdict(SELECT, one, 1, 0, 0).getRetryDecision(),
                policy.onRequestAbortedVerdict(SELECT, new ClosedConnectionException("closed"), 0).getRetryDecision(),
                policy.onErrorResponseVerdict(SELECT, new OverloadedException(null), 0).getRetryDecision());
        assertEquals(List.of(RetryDecision.RETHROW, RetryDecision.RETHROW, RetryDecision.RETHROW, RetryDecision.RETHROW,
                RetryDecision.RETHROW), decisions);
    }
}
