package io.queuelab.cassandra.workload;

import java.util.concurrent.CompletionStage;

/**
 * Issues operations without blocking. Not thread-safe: all random choices are made on the calling
 * thread before the request leaves; completion stages may finish on driver threads.
 */
public interface OperationIssuer {

    /**
     * Starts one request of operation {@code operation} (an index into the workload's mix); the stage
     * completes when the request (including any lookup and the correctness check) is done, or
     * exceptionally with the failure.
     */
    CompletionStage<Void> issue(int operation);
}
