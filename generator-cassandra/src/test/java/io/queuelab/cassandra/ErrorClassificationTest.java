package io.queuelab.cassandra;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import io.queuelab.cassandra.workload.Scenario;
import io.queuelab.cassandra.workload.TimeSeriesSpec;
import io.queuelab.cassandra.workload.TimeSeriesSpec.IndexTechnique;
import io.queuelab.cassandra.workload.TimeSeriesSpec.Layout;
import io.queuelab.cassandra.workload.TimeSeriesWorkload;
import io.queuelab.cassandra.workload.WisconsinWorkload;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Real failures of a real node are classified; the class table holds for every driver error type. */
class ErrorClassificationTest {

    /**
     * A node frozen by SIGSTOP answers nothing: every request sent meanwhile outlives its 1 ms
     * timeout, however fast the machine's reads are (the driver checks timeouts on a 10 ms tick,
     * so a real read faster than that may still succeed). The node is thawed in any case.
     */
    @Test
    void aRequestSlowerThanTheRequestTimeoutIsADriverTimeout() throws Exception {
        TimeSeriesWorkload workload = new TimeSeriesWorkload(new TimeSeriesSpec(Layout.TYPED, 1, IndexTechnique.NONE,
                Scenario.READ, 0.5, 2, 600, 3_000, 1_000, 1_300, 1_300));
        CqlBackend.open(TestCassandra.settings("errors"), workload).close(); // loads at the normal timeout
        long pid = TestCassandra.cluster().node(1).process().orElseThrow().pid();
        try (CqlBackend backend = CqlBackend.open(TestCassandra.settings("errors").withRequestTimeout(Duration.ofMillis(1)),
                workload)) {
            RecordingDriver driver;
            signal("STOP", pid);
            try {
                driver = RecordingDriver.run(backend, 40, 4, 3);
            } finally {
                signal("CONT", pid);
            }
            assertEquals(40, driver.completed());
            assertEquals(40, driver.failures().size(), () -> "a frozen node answers nothing in 1 ms: " + driver.failures());
            assertTrue(driver.failureClasses().values().stream().allMatch(CqlErrors.DRIVER_TIMEOUT::equals),
                    () -> "all failures are driver timeouts: " + driver.failures());
        }
    }

    private static void signal(String name, long pid) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", "-" + name, Long.toString(pid)).start().waitFor(), "kill -" + name);
    }

    @Test
    void aConsistencyLevelAboveTheReplicationFactorIsUnavailable() throws Exception {
        // RF 1 on one node: consistency TWO can never be met, the coordinator answers Unavailable
        CqlSettings settings = TestCassandra.settings("errors")
                .withConsistency(DefaultConsistencyLevel.TWO, DefaultConsistencyLevel.ONE);
        try (CqlBackend backend = CqlBackend.open(settings, new WisconsinWorkload(100, Scenario.WRITE, 0.5))) {
            RecordingDriver driver = RecordingDriver.run(backend, 20, 2, 4);
            assertEquals(20, driver.completed());
            assertEquals(20, driver.failures().size());
            assertTrue(driver.failureClasses().values().stream().allMatch(CqlErrors.UNAVAILABLE::equals),
                    () -> "failures: " + driver.failures());
        }
    }

    @Test
    void everyDriverErrorTypeHasItsClass() {
        Map<Throwable, String> expected = Map.of(
                new DriverTimeoutException("timeout"), CqlErrors.DRIVER_TIMEOUT,
                new ReadTimeoutException(null, DefaultConsistencyLevel.ONE, 0, 1, false), CqlErrors.READ_TIMEOUT,
                new WriteTimeoutException(null, DefaultConsistencyLevel.QUORUM, 1, 2, DefaultWriteType.SIMPLE),
                CqlErrors.WRITE_TIMEOUT,
                new UnavailableException(null, DefaultConsistencyLevel.QUORUM, 2, 1), CqlErrors.UNAVAILABLE,
                new OverloadedException(null), CqlErrors.OVERLOADED,
                new NoNodeAvailableException(), CqlErrors.CONNECTION,
                AllNodesFailedException.fromErrors(java.util.List.of()), CqlErrors.CONNECTION,
                new ClosedConnectionException("closed"), CqlErrors.CONNECTION,
                new SyntaxError(null, "bad"), CqlErrors.OTHER,
                new WrongResultException("differs"), CqlErrors.WRONG_RESULT);
        expected.forEach((failure, errorClass) -> {
            assertEquals(errorClass, CqlErrors.classify(failure), failure.toString());
            assertEquals(errorClass, CqlErrors.classify(new CompletionException(new ExecutionException(failure))),
                    "wrapped " + failure);
        });
        assertTrue(CqlErrors.ALL.containsAll(expected.values()));
    }
}
