package io.queuelab.core.schedule;

import java.time.Duration;

/**
 * One phase of a run: an arrival rate (open loop) or a number of concurrent jobs (closed loop),
 * held for a duration. A warm-up phase's requests are logged but flagged and left out of
 * summaries.
 *
 * @param rate        arrivals per second of this node (open loop); 0 in a closed run
 * @param concurrency jobs kept in the system (closed loop); 0 in an open run
 */
public record Phase(String name, Duration duration, double rate, int concurrency, boolean warmup) {
    public Phase {
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("a phase needs a positive duration");
        }
        if (rate < 0 || Double.isNaN(rate) || Double.isInfinite(rate) || concurrency < 0) {
            throw new IllegalArgumentException("a phase needs a positive rate or concurrency");
        }
        if ((rate > 0) == (concurrency > 0)) {
            throw new IllegalArgumentException("a phase has either a rate (open loop) or a concurrency (closed loop)");
        }
    }

    public static Phase open(String name, Duration duration, double rate, boolean warmup) {
        if (!(rate > 0)) {
            throw new IllegalArgumentException("arrival rate must be positive, got " + rate);
        }
        return new Phase(name, duration, rate, 0, warmup);
    }

    public static Phase closed(String name, Duration duration, int concurrency, boolean warmup) {
        if (concurrency <= 0) {
            throw new IllegalArgumentException("concurrency must be positive, got " + concurrency);
        }
        return new Phase(name, duration, 0, concurrency, warmup);
    }

    public boolean closedLoop() {
        return concurrency > 0;
    }
}
