package io.queuelab.jdbc;

import org.apache.commons.math3.distribution.UniformIntegerDistribution;
import org.apache.commons.math3.distribution.ZipfDistribution;
import org.apache.commons.math3.random.RandomGenerator;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the values of one statement parameter ({@code ?}) are drawn; written in workload files as
 * {@code uniform(lo, hi)}, {@code zipfian(n, theta)} or {@code sequential(lo, hi)}.
 *
 * <p>Guarantees: every value is an integer in the stated range; a session's generator is a pure
 * function of its seed (same seed, same values), except {@code sequential}, whose counter is shared
 * by all sessions of a backend so that no two requests get the same value before it wraps.
 */
public sealed interface ParameterSpec {

    /** A generator for one session, drawing from {@code random}. */
    LongSupplier newGenerator(RandomGenerator random);

    /** The textual form, as a workload file writes it. */
    String text();

    /** Uniform integers in [lo, hi], both inclusive. */
    record Uniform(int lo, int hi) implements ParameterSpec {
        public Uniform {
            if (lo > hi) {
                throw new IllegalArgumentException("uniform(lo, hi) needs lo <= hi: " + lo + " > " + hi);
            }
        }

        @Override
        public LongSupplier newGenerator(RandomGenerator random) {
            UniformIntegerDistribution distribution = new UniformIntegerDistribution(random, lo, hi);
            return distribution::sample;
        }

        @Override
        public String text() {
            return "uniform(" + lo + ", " + hi + ")";
        }
    }

    /**
     * Zipf-distributed ranks over n items with exponent theta (Commons Math's rejection-inversion
     * sampler); rank k (1 = the most frequent) is written as the value k - 1, so values lie in [0, n).
     */
    record Zipfian(int n, double theta) implements ParameterSpec {
        public Zipfian {
            if (n < 1 || !(theta > 0) || Double.isInfinite(theta)) {
                throw new IllegalArgumentException("zipfian(n, theta) needs n >= 1 and theta > 0: " + n + ", " + theta);
            }
        }

        @Override
        public LongSupplier newGenerator(RandomGenerator random) {
            ZipfDistribution distribution = new ZipfDistribution(random, n, theta);
            return () -> distribution.sample() - 1L;
        }

        @Override
        public String text() {
            return "zipfian(" + n + ", " + theta + ")";
        }
    }

    /** lo, lo+1, ..., hi, lo, ... shared by all sessions of one backend. */
    final class Sequential implements ParameterSpec {
        private final long lo;
        private final long hi;
        private final AtomicLong next = new AtomicLong();

        public Sequential(long lo, long hi) {
            if (lo > hi) {
                throw new IllegalArgumentException("sequential(lo, hi) needs lo <= hi: " + lo + " > " + hi);
            }
            this.lo = lo;
            this.hi = hi;
        }

        @Override
        public LongSupplier newGenerator(RandomGenerator random) {
            long span = hi - lo + 1;
            return () -> lo + Math.floorMod(next.getAndIncrement(), span);
        }

        @Override
        public String text() {
            return "sequential(" + lo + ", " + hi + ")";
        }
    }

    /**
     * Parses {@code uniform(lo, hi)}, {@code zipfian(n, theta)} or {@code sequential(lo, hi)}.
     *
     * @throws IllegalArgumentException with a one-line message naming what is wrong
     */
    static ParameterSpec parse(String text) {
        Matcher m = Pattern.compile("\\s*([a-z]+)\\s*\\(\\s*([^,\\s)]+)\\s*,\\s*([^,\\s)]+)\\s*\\)\\s*").matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("parameter generator '" + text
                    + "' is not one of uniform(lo, hi), zipfian(n, theta), sequential(lo, hi)");
        }
        String a = m.group(2);
        String b = m.group(3);
        try {
            return switch (m.group(1)) {
                case "uniform" -> new Uniform(Integer.parseInt(a), Integer.parseInt(b));
                case "zipfian" -> new Zipfian(Integer.parseInt(a), Double.parseDouble(b));
                case "sequential" -> new Sequential(Long.parseLong(a), Long.parseLong(b));
                default -> throw new IllegalArgumentException("unknown parameter generator '" + m.group(1)
                        + "' (expected uniform, zipfian or sequential)");
            };
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("parameter generator '" + text.strip() + "' has a bad number: " + e.getMessage());
        }
    }
}
