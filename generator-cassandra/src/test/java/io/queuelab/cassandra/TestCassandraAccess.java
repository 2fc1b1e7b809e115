package io.queuelab.cassandra;

import io.queuelab.cassandra.node.LocalCassandraCluster;

/** Lets tests in other packages share {@link TestCassandra}'s node. */
public final class TestCassandraAccess {
    private TestCassandraAccess() {
    }

    public static LocalCassandraCluster cluster() throws Exception {
        return TestCassandra.cluster();
    }
}
