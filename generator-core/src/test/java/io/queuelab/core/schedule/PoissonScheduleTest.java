package io.queuelab.core.schedule;

import org.apache.commons.math3.distribution.ExponentialDistribution;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PoissonScheduleTest {
    private static final double RATE = 250.0;
    private static final int N = 20_000;

    private static double[] gapsSeconds(ArrivalSchedule s) {
        double[] gaps = new double[N];
        double previous = s.poisson() ? 0 : s.nextOffsetNanos(); // a constant schedule's first arrival is at the start
        for (int i = 0; i < N; i++) {
            double next = s.nextOffsetNanos();
            gaps[i] = (next - previous) / 1e9;
            previous = next;
        }
        return gaps;
    }

    private static double ksPValue(double[] gaps) {
        return new KolmogorovSmirnovTest().kolmogorovSmirnovTest(new ExponentialDistribution(null, 1 / RATE), gaps, false);
    }

    @Test
    void poissonGapsHaveTheRightMeanAndAreExponential() {
        double[] gaps = gapsSeconds(new PoissonSchedule(RATE, new SplittableRandom(42)));
        double mean = java.util.Arrays.stream(gaps).average().orElseThrow();
        assertEquals(1 / RATE, mean, 0.02 / RATE, "mean gap within 2% of 1/lambda");
        assertTrue(ksPValue(gaps) >= 0.01, "KS test must not reject Exp(lambda) at alpha 0.01");
    }

    @Test
    void constantRateGapsAreRejectedByTheSameTest() {
        double[] gaps = gapsSeconds(new ConstantRateSchedule(RATE));
        assertEquals(1 / RATE, gaps[123], 1e-12);
        assertTrue(ksPValue(gaps) < 0.01, "deterministic gaps are not exponential");
    }

    @Test
    void sameSeedSameSchedule() {
        PoissonSchedule a = new PoissonSchedule(RATE, new SplittableRandom(7));
        PoissonSchedule b = new PoissonSchedule(RATE, new SplittableRandom(7));
        for (int i = 0; i < 1000; i++) {
            assertEquals(a.nextOffsetNanos(), b.nextOffsetNanos());
        }
    }

    @Test
    void nonPositiveRatesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new PoissonSchedule(0, new SplittableRandom(1)));
        assertThrows(IllegalArgumentException.class, () -> new ConstantRateSchedule(-5));
        assertThrows(IllegalArgumentException.class, () -> new ConstantRateSchedule(Double.NaN));
    }

    @Test
    void nodePlansSplitTheRate() {
        LoadPlan plan = new LoadPlan(java.util.List.of(Phase.open("main", java.time.Duration.ofSeconds(1), 900, false)),
                LoadPlan.Arrivals.POISSON, java.time.Duration.ZERO);
        assertEquals(300, plan.forNode(3).phases().get(0).rate(), 1e-9);
    }
}
