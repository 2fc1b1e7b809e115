package io.queuelab.sim;

/**
 * The flushes of the dirty-page buffer in one replication.
 *
 * @param flushes      number of flushes started
 * @param meanPeriod   mean time between the starts of consecutive flushes, seconds (NaN with < 2)
 * @param meanDuration mean duration of one flush, seconds
 * @param meanPages    mean pages written per flush (DPB_max by construction)
 */
public record FlushSummary(long flushes, double meanPeriod, double meanDuration, double meanPages) {
}
