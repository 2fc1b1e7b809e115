package io.queuelab.sim;

import org.apache.commons.math3.distribution.GammaDistribution;
import org.apache.commons.math3.random.AbstractRandomGenerator;

import java.util.SplittableRandom;

/**
 * The time to write a full buffer: the sum of {@code pages} page-write times. For exponential
 * page writes the sum is Gamma(pages, mean) and is drawn in one sample (Commons Math's
 * Marsaglia-Tsang sampler) instead of {@code pages} logarithms; other distributions are summed.
 */
final class FlushDuration {
    private final Distribution page;
    private final int pages;
    private final SplittableRandom random;
    private final GammaDistribution gamma; // null unless page writes are exponential

    FlushDuration(Distribution page, int pages, SplittableRandom random) {
        this.page = page;
        this.pages = pages;
        this.random = random;
        this.gamma = page instanceof Distribution.Exponential exp
                ? new GammaDistribution(new StreamGenerator(random), pages, exp.mean()) : null;
    }

    double sample() {
        if (gamma != null) {
            return gamma.sample();
        }
        double sum = 0;
        for (int i = 0; i < pages; i++) {
            sum += page.sample(random);
        }
        return sum;
    }

    /** Commons Math's generator interface over a SplittableRandom stream (never reseeded). */
    private static final class StreamGenerator extends AbstractRandomGenerator {
        private final SplittableRandom random;

        StreamGenerator(SplittableRandom random) {
            this.random = random;
        }

        @Override
        public void setSeed(long seed) {
            throw new UnsupportedOperationException("a simulation stream is never reseeded");
        }

        @Override
        public double nextDouble() {
            return random.nextDouble();
        }
    }
}
