package io.queuelab.cassandra;

import io.queuelab.cassandra.node.LocalCassandraCluster;
import io.queuelab.cassandra.workload.Scenario;
import io.queuelab.cassandra.workload.WisconsinWorkload;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The node is stopped and restarted while requests flow: every request completes exactly once,
 * failures carry a connection-type class, and requests succeed again after the restart.
 */
class NodeRestartTest {

    @Test
    void requestsFailWithClassifiedErrorsWhileTheNodeIsDownAndSucceedAfterItsRestart() throws Exception {
        LocalCassandraCluster cluster = TestCassandra.cluster();
        try (CqlBackend backend = TestCassandra.asyncBackend("restart",
                new WisconsinWorkload(2_000, Scenario.MIXED, 0.5))) {
            RecordingDriver driver = new RecordingDriver(backend, 4, 11);
            driver.issue(200);
            driver.awaitAll();
            assertEquals(0, driver.failures().size(), () -> "before the stop: " + driver.failures());

            AtomicBoolean issuing = new AtomicBoolean(true);
            Thread load = new Thread(() -> {
                try {
                    while (issuing.get()) {
                        driver.issue(1);
                        Thread.sleep(5);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "restart-test-load");
            load.start();
            Thread.sleep(500);
            assertTrue(cluster.node(1).stop(Duration.ofSeconds(30)), "the test node was running");
            Thread.sleep(1_000);
            int failuresWhileDown = driver.failures().size();
            cluster.restart(1, Duration.ofSeconds(180));
            int issuedAtRestart = driver.issued();
            // the driver reconnects within its reconnection delay (<= 2 s); give it 20 s on a loaded machine
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (System.nanoTime() < deadline && driver.issued() - issuedAtRestart < 400) {
                Thread.sleep(100);
            }
            issuing.set(false);
            load.join();
            driver.awaitAll();

            assertEquals(driver.issued(), driver.completed(), "every request completed exactly once");
            assertTrue(failuresWhileDown > 0, "requests failed while the node was down");
            Collection<String> classes = driver.failureClasses().values();
            assertTrue(classes.contains(CqlErrors.CONNECTION), "no node available counts as connection: " + Set.copyOf(classes));
            // a node shutting down answers "overloaded: Server is shutting down" before its connections close
            assertTrue(Set.of(CqlErrors.CONNECTION, CqlErrors.DRIVER_TIMEOUT, CqlErrors.OVERLOADED)
                            .containsAll(Set.copyOf(classes)),
                    () -> "failure classes: " + Set.copyOf(classes) + " e.g. " + driver.failures().get(0));
            int lastFailure = driver.failureClasses().keySet().stream().mapToInt(Integer::intValue).max().orElseThrow();
            assertTrue(driver.issued() - 1 - lastFailure >= 100,
                    "at least the last 100 requests succeeded after the restart (last failure #" + lastFailure
                            + " of " + driver.issued() + ")");
        }
    }
}
