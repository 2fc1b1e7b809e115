package io.queuelab.cassandra.workload;

import io.queuelab.core.backend.OperationMix;

import java.util.List;
import java.util.Map;

/**
 * A CQL workload described as data: its operations, its tables, the data it loads before a run,
 * and how it issues each operation. The same workload runs unchanged under the asynchronous and the
 * synchronous backend.
 */
public interface CqlWorkload {

    OperationMix operations();

    /** The CREATE TABLE IF NOT EXISTS statements, unqualified (run in the workload's keyspace). */
    List<String> schema();

    /** A key naming the data {@link PreparedWorkload#load()} writes: equal keys mean equal data. */
    String datasetKey();

    /** Prepares the statements against a connected session. */
    PreparedWorkload prepare(CqlContext context);

    /** What the manifest records about the workload. */
    Map<String, Object> describe();
}
