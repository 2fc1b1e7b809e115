package io.queuelab.core.telemetry;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The clock of a telemetry sampler: runs {@code sample} at once and then every interval (fixed
 * rate, so samples stay on the generator's grid), on one daemon thread of its own that never
 * touches the request path. {@link #close()} stops it and waits for a sample in progress (at most
 * {@link #STOP_WAIT}), so the sampler may close its file and connections afterwards.
 */
public final class SampleTimer implements AutoCloseable {
    public static final Duration STOP_WAIT = Duration.ofSeconds(10);

    private final ScheduledExecutorService timer;

    private SampleTimer(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /** Checks that {@code interval} is positive (a one-line error otherwise), then starts. */
    public static SampleTimer start(String threadName, Duration interval, Runnable sample) {
        requirePositive(interval);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(sample, 0, interval.toNanos(), TimeUnit.NANOSECONDS);
        return new SampleTimer(timer);
    }

    /** The check {@link #start} makes, for samplers that open files or connections before starting. */
    public static void requirePositive(Duration interval) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("telemetry interval must be positive: " + interval);
        }
    }

    @Override
    public void close() {
        timer.shutdown();
        try {
            timer.awaitTermination(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
