package io.queuelab.cassandra.workload;

import io.queuelab.core.backend.OperationMix;

import java.util.List;

/** Which operations a run issues: only writes, only reads, or both in a given ratio. */
public enum Scenario {
    WRITE, READ, MIXED;

    /**
     * The operation mix of this scenario over a workload's one read and one write operation.
     * Operation codes: in MIXED, 0 = read and 1 = write; otherwise 0 is the only operation.
     *
     * @param readRatio the share of reads in MIXED (0 < r < 1)
     */
    OperationMix mix(String readName, String writeName, double readRatio) {
        return switch (this) {
            case WRITE -> OperationMix.single(writeName);
            case READ -> OperationMix.single(readName);
            case MIXED -> {
                if (!(readRatio > 0 && readRatio < 1)) {
                    throw new IllegalArgumentException("--read-ratio must be between 0 and 1 (exclusive) for the mixed scenario, was " + readRatio);
                }
                yield OperationMix.weighted(List.of(readName, writeName), new double[] {readRatio, 1 - readRatio});
            }
        };
    }

    /** True when operation {@code code} of {@link #mix} is a read. */
    boolean isRead(int code) {
        return this == READ || (this == MIXED && code == 0);
    }
}
