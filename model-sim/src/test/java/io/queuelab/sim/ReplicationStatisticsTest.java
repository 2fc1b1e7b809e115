package io.queuelab.sim;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplicationStatisticsTest {

    @Test
    void mserCutsAnInitialTransientAndNothingFromAStationarySeries() {
        SplittableRandom random = new SplittableRandom(1);
        double[] y = new double[2000];
        for (int i = 0; i < y.length; i++) {
            y[i] = random.nextGaussian() + (i < 150 ? 5.0 * (150 - i) / 150 : 0);
        }
        int cut = Mser.truncation(y, y.length);
        assertTrue(cut >= 100 && cut <= 200, "cut " + cut);

        for (int i = 0; i < y.length; i++) {
            y[i] = random.nextGaussian();
        }
        assertTrue(Mser.truncation(y, y.length) < 100);
    }

    @Test
    void warmupFromAnOverloadedStartIsRemoved() {
        // requests 0..49999 see a long queue (response 10 s), the rest 1 s: the cut must land after the transient
        ReplicationStatistics statistics = new ReplicationStatistics();
        double t = 0;
        for (int i = 0; i < 1_000_000; i++) {
            double response = i < 50_000 ? 10 : 1;
            t += 0.5;
            statistics.answered(t, t, t + response);
        }
        ReplicationResult r = statistics.finish(0, true, 0.95, 0);
        assertEquals(1.0, r.meanResponse(), 1e-12);
        assertTrue(r.warmupCustomers() >= 50_000 && r.warmupCustomers() <= 50_000 + 1_000_000 / 16, "cut " + r.warmupCustomers());
        assertEquals(r.customers() + r.warmupCustomers(), 1_000_000);
        assertEquals(2.0, r.throughput(), 1e-3);

        ReplicationStatistics kept = new ReplicationStatistics();
        for (int i = 0; i < 1000; i++) {
            kept.answered(i, i, i + (i < 10 ? 10 : 1));
        }
        assertEquals(1.09, kept.finish(0, false, 0.95, 0).meanResponse(), 1e-12);
    }
}
