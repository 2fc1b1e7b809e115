package io.queuelab.core.iot;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Seed 002's sensor data, independent of any database: every second a batch of datapoints, each a
 * timestamp (second + nanosecond) and {@value #CHANNELS} 12-bit values, a sine wave through a
 * divider into four amplitudes and a sawtooth, as the paper's function generators fed its
 * microcontroller. One batch is one ingest request of every IoT backend (MariaDB rows or JSON,
 * InfluxDB line protocol, a MongoDB document would be another), so their response times mean
 * the same thing: from the end of the second the batch covers to its commit.
 *
 * <p>Guarantees: the seconds handed out by {@link #nextBatch} are distinct and consecutive across
 * all threads (one shared counter); the content of the batch of a given second depends only on the
 * stream's seed and that second, so two runs with one seed write the same data.
 */
public final class SensorStream {
    public static final int CHANNELS = 5;
    /** The paper's rate: one datapoint per millisecond. */
    public static final int DEFAULT_POINTS_PER_SECOND = 1000;
    /** 12-bit analog-to-digital converter. */
    static final int MAX_VALUE = 4095;

    private final int pointsPerSecond;
    private final long seed;
    private final AtomicLong nextSecond;

    /**
     * @param firstSecond     the timestamp (epoch second) of the first batch
     * @param pointsPerSecond datapoints per batch, 1 to 1,000,000
     */
    public SensorStream(long firstSecond, int pointsPerSecond, long seed) {
        if (pointsPerSecond < 1 || pointsPerSecond > 1_000_000) {
            throw new IllegalArgumentException("points per second must be 1 to 1,000,000, not " + pointsPerSecond);
        }
        this.pointsPerSecond = pointsPerSecond;
        this.seed = seed;
        this.nextSecond = new AtomicLong(firstSecond);
    }

    public int pointsPerSecond() {
        return pointsPerSecond;
    }

    /** The batch of the next second not yet handed out. */
    public Batch nextBatch() {
        return batch(nextSecond.getAndIncrement());
    }

    /** The batch of {@code second}: points at every 1/pointsPerSecond s with a few microseconds of jitter. */
    public Batch batch(long second) {
        SplittableRandom random = new SplittableRandom(seed ^ (second * 0x9E3779B97F4A7C15L));
        int[] nanos = new int[pointsPerSecond];
        short[] values = new short[pointsPerSecond * CHANNELS];
        long step = 1_000_000_000L / pointsPerSecond;
        for (int i = 0; i < pointsPerSecond; i++) {
            nanos[i] = (int) Math.min(999_999_999L, i * step + random.nextInt((int) Math.min(step, 10_000)));
            double t = second + nanos[i] / 1e9;
            double sine = Math.sin(2 * Math.PI * 3 * t); // the machine's ~3 working cycles per second
            for (int c = 0; c < CHANNELS - 1; c++) {
                double amplitude = (c + 1) / (double) (CHANNELS - 1);
                values[i * CHANNELS + c] = (short) clamp(Math.round(MAX_VALUE / 2.0 * (1 + amplitude * sine)) + random.nextInt(5) - 2);
            }
            values[i * CHANNELS + CHANNELS - 1] = (short) clamp(Math.round(MAX_VALUE * ((t * 3) % 1.0)));
        }
        return new Batch(second, nanos, values);
    }

    private static long clamp(long v) {
        return Math.max(0, Math.min(MAX_VALUE, v));
    }

    /**
     * One second's datapoints.
     *
     * @param second epoch second of every point
     * @param nanos  each point's nanosecond within the second, increasing
     * @param values {@link #CHANNELS} values per point, point after point (read with {@link #value})
     */
    public record Batch(long second, int[] nanos, short[] values) {
        public int points() {
            return nanos.length;
        }

        /** Channel {@code channel} (0-based) of point {@code point}, 0..4095. */
        public int value(int point, int channel) {
            return values[point * CHANNELS + channel];
        }

        /** Seed 002's JSON document of the batch: {"measurements":[{"ns":...,"m":[...]} ...]}. */
        public String json() {
            StringBuilder b = new StringBuilder(32 + points() * 48).append("{\"measurements\":[");
            for (int p = 0; p < points(); p++) {
                b.append(p == 0 ? "{\"ns\":" : ",{\"ns\":").append(nanos[p]).append(",\"m\":[");
                for (int c = 0; c < CHANNELS; c++) {
                    b.append(c == 0 ? "" : ",").append(value(p, c));
                }
                b.append("]}");
            }
            return b.append("]}").toString();
        }
    }
}
