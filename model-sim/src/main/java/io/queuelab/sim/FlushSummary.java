package io.queuelab.sim;

/**
 * The flushes of one replication: the dirty-page buffer's, or the group-commit log's.
 *
 * @param flushes      number of flushes started
 * @param meanPeriod   mean time between the starts of consecutive flushes, seconds (NaN with < 2)
 * @param meanDuration mean duration of one flush, seconds
 * @param meanPages    mean pages written per flush (DPB_max by construction), or commits carried by a log flush
 */
public record FlushSummary(long flushes, double meanPeriod, double meanDuration, double meanPages) {
}
