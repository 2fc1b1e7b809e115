package io.queuelab.core.clock;

/**
 * How far a local clock was from a reference clock at one instant, as a Cristian-style probe saw it:
 * {@code reference = local + offsetNanos}, exact to within {@code uncertaintyNanos} (half the round
 * trip of the best exchange, an upper bound on the error whatever the network's asymmetry).
 *
 * @param offsetNanos      reference clock minus local clock
 * @param uncertaintyNanos the true offset lies within {@code offsetNanos} plus or minus this
 * @param localNanos       the local clock's reading (ns, on the clock being compared) at the best exchange
 * @param exchanges        exchanges made; the one with the shortest round trip is kept
 */
public record ClockOffset(long offsetNanos, long uncertaintyNanos, long localNanos, int exchanges) {
}
