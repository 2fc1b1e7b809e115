package io.queuelab.core.manifest;

/**
 * The manifest's {@code client} section: what the run's timing threads got from the kernel.
 * {@code preciseTimers}: 1 ns timer slack; {@code schedulerSliceNanos}: their scheduler time slice in ns,
 * 0 when they kept the kernel's default (a manifest written before this field reads as 0).
 */
public record ClientInfo(boolean preciseTimers, long schedulerSliceNanos) {
}
