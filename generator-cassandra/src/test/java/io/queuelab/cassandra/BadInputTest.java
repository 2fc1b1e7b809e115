package io.queuelab.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import io.queuelab.cassandra.workload.Scenario;
import io.queuelab.cassandra.workload.TimeSeriesSpec;
import io.queuelab.cassandra.workload.TimeSeriesSpec.IndexTechnique;
import io.queuelab.cassandra.workload.TimeSeriesSpec.Layout;
import io.queuelab.cassandra.workload.WisconsinWorkload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input fails early with a one-line message that names the problem. */
class BadInputTest {
    private static final WisconsinWorkload SMALL = new WisconsinWorkload(10, Scenario.READ, 0.5);

    private static String oneLineMessage(Class<? extends Throwable> type, Executable action) {
        String message = assertThrows(type, action).getMessage();
        assertFalse(message.contains("\n"), "one line: " + message);
        return message;
    }

    @Test
    void anUnreachableContactPointIsReported() throws Exception {
        int unused;
        try (ServerSocket socket = new ServerSocket(0)) {
            unused = socket.getLocalPort();
        }
        CqlSettings settings = CqlSettings.local().withContactPoints(List.of(new InetSocketAddress("127.0.0.1", unused)));
        String message = oneLineMessage(IOException.class, () -> CqlBackend.open(settings, SMALL));
        assertTrue(message.startsWith("cannot reach Cassandra at 127.0.0.1:" + unused), message);
    }

    @Test
    void anUnknownKeyspaceIsReportedWhenTheSchemaIsNotCreated() throws Exception {
        CqlSettings settings = TestCassandra.settings("no_such_keyspace").withCreateSchema(false);
        String message = oneLineMessage(IllegalStateException.class, () -> CqlSyncBackend.open(settings, SMALL));
        assertTrue(message.startsWith("keyspace 'no_such_keyspace' does not exist"), message);
    }

    @Test
    void missingTablesAreReportedWhenTheSchemaIsNotCreated() throws Exception {
        try (CqlSession raw = CqlSession.builder().addContactPoints(TestCassandra.cluster().contactPoints())
                .withLocalDatacenter("datacenter1").build()) {
            raw.execute("CREATE KEYSPACE IF NOT EXISTS empty_keyspace WITH replication = "
                    + "{'class': 'SimpleStrategy', 'replication_factor': 1}");
        }
        CqlSettings settings = TestCassandra.settings("empty_keyspace").withCreateSchema(false);
        String message = oneLineMessage(IllegalStateException.class, () -> CqlBackend.open(settings, SMALL));
        assertTrue(message.contains("tables are not in keyspace 'empty_keyspace'"), message);
    }

    @Test
    void aReplicationFactorAboveTheNodeCountFailsTheLoad() throws Exception {
        CqlSettings settings = TestCassandra.settings("rf_three").withKeyspace("rf_three", 3);
        String message = oneLineMessage(IOException.class, () -> CqlBackend.open(settings, SMALL));
        assertTrue(message.startsWith("loading the workload's data (wisconsin_10) at consistency ALL failed"), message);
    }

    @Test
    void invalidSettingsAreRejected() {
        assertTrue(oneLineMessage(IllegalArgumentException.class, () -> CqlSettings.parseConsistency("QUORUMM"))
                .startsWith("invalid consistency level 'QUORUMM' (one of ANY, ONE, TWO"));
        assertEquals("LOCAL_QUORUM", CqlSettings.parseConsistency("local_quorum").name());
        assertTrue(oneLineMessage(IllegalArgumentException.class, () -> CqlSettings.parseContactPoints("127.0.0.1:x"))
                .startsWith("not a contact point: '127.0.0.1:x'"));
        assertEquals(List.of(new InetSocketAddress("127.0.0.1", 9042), new InetSocketAddress("127.0.0.2", 9043)),
                CqlSettings.parseContactPoints("127.0.0.1, 127.0.0.2:9043"));
        assertTrue(oneLineMessage(IllegalArgumentException.class, () -> CqlSettings.local().withKeyspace("1bad", 1))
                .startsWith("not a valid keyspace name"));
        assertTrue(oneLineMessage(IllegalArgumentException.class, () -> CqlSettings.local().withKeyspace("ok", 0))
                .startsWith("replication factor must be >= 1"));
    }

    @Test
    void inconsistentWorkloadShapesAreRejected() {
        assertTrue(oneLineMessage(IllegalArgumentException.class, () -> new TimeSeriesSpec(Layout.BATCHED, 150,
                IndexTechnique.NONE, Scenario.READ, 0.5, 1, 1_000, 3_000, 10, 20, 20))
                .startsWith("--timewidth must be a positive multiple of --batch-size 150"));
        assertTrue(oneLineMessage(IllegalArgumentException.class, () -> new TimeSeriesSpec(Layout.TYPED, 1,
                IndexTechnique.NONE, Scenario.READ, 0.5, 1, 1_000, 100, 10, 200, 200))
                .startsWith("reads need --preload >= --range-max"));
        assertTrue(oneLineMessage(IllegalArgumentException.class, () -> new WisconsinWorkload(10, Scenario.MIXED, 1.5))
                .startsWith("--read-ratio must be between 0 and 1"));
    }
}
