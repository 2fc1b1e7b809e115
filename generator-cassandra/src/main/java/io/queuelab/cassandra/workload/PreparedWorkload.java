package io.queuelab.cassandra.workload;

/** A workload whose statements are prepared; shared by all sessions of one backend. */
public interface PreparedWorkload {

    /**
     * Writes the data reads will check (at consistency ALL, so any replica a read at ONE asks has
     * it). Blocks until every write is acknowledged.
     */
    void load() throws Exception;

    /** A new issuer with its own random streams; one issuer is used by one thread. */
    OperationIssuer issuer(long seed);
}
