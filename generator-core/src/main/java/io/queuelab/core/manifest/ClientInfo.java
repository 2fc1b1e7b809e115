package io.queuelab.core.manifest;

/** The manifest's {@code client} section: {@code preciseTimers}, whether the run's threads got 1 ns timer slack. */
public record ClientInfo(boolean preciseTimers) {
}
