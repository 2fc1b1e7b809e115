package io.queuelab.sim;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A distribution of a time in seconds (service, network delay, think time, dirty-page write).
 * Every implementation is immutable and samples only from the stream it is given, so a simulation
 * is deterministic for a given seed.
 */
public sealed interface Distribution
        permits Distribution.Exponential, Distribution.Deterministic, Distribution.ShiftedExponential,
        Distribution.Empirical {

    /** One sample, in seconds (never negative). */
    double sample(SplittableRandom random);

    /** The mean, in seconds. */
    double mean();

    /** A lower bound of every sample (used to reorder requests after a delay without an event list). */
    double lowerBound();

    /** The parameters for a manifest: {"type": ..., ...}. */
    Map<String, Object> describe();

    static Exponential exponential(double mean) {
        return new Exponential(mean);
    }

    static Deterministic deterministic(double value) {
        return new Deterministic(value);
    }

    static ShiftedExponential shiftedExponential(double shift, double exponentialMean) {
        return new ShiftedExponential(shift, exponentialMean);
    }

    /** Resamples measured values (seconds), each with equal probability. */
    static Empirical empirical(double[] values) {
        return new Empirical(values);
    }

    /**
     * The service times (completed - sent of every successful request) measured in a run
     * directory, as an empirical distribution.
     */
    static Empirical empiricalServiceTimes(java.nio.file.Path runDir) throws java.io.IOException {
        long[] nanos = RunLogs.serviceTimes(runDir);
        if (nanos.length == 0) {
            throw new java.io.IOException("no successful requests to take service times from in " + runDir);
        }
        double[] seconds = new double[nanos.length];
        for (int i = 0; i < nanos.length; i++) {
            seconds[i] = nanos[i] / 1e9;
        }
        return new Empirical(seconds);
    }

    /**
     * Parses {@code exp:MEAN}, {@code det:VALUE}, {@code shexp:SHIFT,MEAN} or a bare number (an
     * exponential mean); all in seconds. Empirical distributions are built from data, not parsed.
     */
    /**
     * The distribution a manifest describes ({@link #describe()}'s record); one that cannot be
     * rebuilt from it (an empirical sample, whose values a manifest does not hold; an unknown type)
     * is an IllegalArgumentException.
     */
    static Distribution of(io.queuelab.core.manifest.DistributionSpec d) {
        String type = d == null || d.type() == null ? "" : d.type();
        return switch (type) {
            case "exponential" -> exponential(number(d.mean()));
            case "deterministic" -> deterministic(number(d.value()));
            case "shifted-exponential" -> shiftedExponential(number(d.shift()), number(d.exponentialMean()));
            case "empirical" -> throw new IllegalArgumentException("an empirical distribution of " + d.values()
                    + " values cannot be rebuilt from its description (the manifest holds its size and mean only)");
            default -> throw new IllegalArgumentException("cannot rebuild a distribution of type '" + type + "'");
        };
    }

    private static double number(Double x) {
        return x == null ? Double.NaN : x;
    }

    static Distribution parse(String spec) {
        String s = spec.trim();
        int colon = s.indexOf(':');
        String kind = colon < 0 ? "exp" : s.substring(0, colon).trim().toLowerCase(java.util.Locale.ROOT);
        String args = colon < 0 ? s : s.substring(colon + 1);
        try {
            return switch (kind) {
                case "exp" -> exponential(Double.parseDouble(args.trim()));
                case "det" -> deterministic(Double.parseDouble(args.trim()));
                case "shexp" -> {
                    String[] parts = args.split(",");
                    if (parts.length != 2) {
                        throw new IllegalArgumentException("shexp needs SHIFT,MEAN: " + spec);
                    }
                    yield shiftedExponential(Double.parseDouble(parts[0].trim()), Double.parseDouble(parts[1].trim()));
                }
                default -> throw new IllegalArgumentException(
                        "unknown distribution '" + kind + "' in '" + spec + "' (expected exp:MEAN, det:VALUE or shexp:SHIFT,MEAN)");
            };
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number in distribution '" + spec + "'");
        }
    }

    private static double checkTime(String what, double value, boolean positive) {
        if (!Double.isFinite(value) || value < 0 || (positive && value == 0)) {
            throw new IllegalArgumentException(what + " must be a finite " + (positive ? "positive" : "non-negative")
                    + " number of seconds, got " + value);
        }
        return value;
    }

    /** Exponential with the given mean (not rate). */
    record Exponential(double mean) implements Distribution {
        public Exponential {
            checkTime("exponential mean", mean, true);
        }

        @Override
        public double sample(SplittableRandom random) {
            // the JDK's ziggurat (RandomGenerator.nextExponential, Java 17): about 2 ns a sample where -log(1 - U) took 15
            return mean * random.nextExponential();
        }

        @Override
        public double lowerBound() {
            return 0;
        }

        @Override
        public Map<String, Object> describe() {
            return Map.of("type", "exponential", "mean", mean);
        }
    }

    /** Always the same value. */
    record Deterministic(double value) implements Distribution {
        public Deterministic {
            checkTime("deterministic value", value, false);
        }

        @Override
        public double sample(SplittableRandom random) {
            return value;
        }

        @Override
        public double mean() {
            return value;
        }

        @Override
        public double lowerBound() {
            return value;
        }

        @Override
        public Map<String, Object> describe() {
            return Map.of("type", "deterministic", "value", value);
        }
    }

    /** A constant plus an exponential: the network delay of the dirty-page-buffer model. */
    record ShiftedExponential(double shift, double exponentialMean) implements Distribution {
        public ShiftedExponential {
            checkTime("shift", shift, false);
            checkTime("exponential mean", exponentialMean, true);
        }

        @Override
        public double sample(SplittableRandom random) {
            return shift + exponentialMean * random.nextExponential(); // the ziggurat, as Exponential's
        }

        @Override
        public double mean() {
            return shift + exponentialMean;
        }

        @Override
        public double lowerBound() {
            return shift;
        }

        @Override
        public Map<String, Object> describe() {
            return Map.of("type", "shifted-exponential", "shift", shift, "exponentialMean", exponentialMean);
        }
    }

    /** Resampling of measured values: each sample is one of the values, uniformly at random. */
    record Empirical(double[] values) implements Distribution {
        public Empirical {
            if (values.length == 0) {
                throw new IllegalArgumentException("an empirical distribution needs at least one value");
            }
            values = values.clone();
            for (double v : values) {
                checkTime("empirical value", v, false);
            }
        }

        @Override
        public double[] values() {
            return values.clone();
        }

        @Override
        public double sample(SplittableRandom random) {
            return values[random.nextInt(values.length)];
        }

        @Override
        public double mean() {
            return Arrays.stream(values).average().orElseThrow();
        }

        @Override
        public double lowerBound() {
            return Arrays.stream(values).min().orElseThrow();
        }

        @Override
        public Map<String, Object> describe() {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("type", "empirical");
            d.put("values", values.length);
            d.put("mean", mean());
            return d;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Empirical e && Arrays.equals(values, e.values);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(values);
        }

        @Override
        public String toString() {
            return "Empirical[" + values.length + " values, mean " + mean() + "]";
        }
    }
}
