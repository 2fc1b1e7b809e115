package io.queuelab.core.run;

import io.queuelab.core.backend.OperationMix;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ScheduleCursorTest {
    private static final long START = 5_000_000_000L;

    private static List<Request> arrivals(LoadPlan plan) {
        ScheduleCursor cursor = new ScheduleCursor(plan, new PhaseTimes(plan, START), OperationMix.single("op"),
                new SplittableRandom(1), new SplittableRandom(2));
        List<Request> all = new ArrayList<>();
        for (Request r = cursor.take(); r != null; r = cursor.take()) {
            all.add(r);
        }
        return all;
    }

    private static long inPhase(List<Request> arrivals, int phase) {
        return arrivals.stream().filter(r -> r.phase == phase).count();
    }

    @Test
    void aConstantRatePhaseHoldsRateTimesDurationArrivalsAndKeepsTheOneAtTheWarmupBoundary() {
        // issue 27: 89 of 90 were scheduled in the measured second after a warm-up, the one at the boundary lost
        LoadPlan plan = new LoadPlan(List.of(Phase.open("warmup", Duration.ofSeconds(1), 90, true),
                Phase.open("main", Duration.ofSeconds(1), 90, false)), LoadPlan.Arrivals.CONSTANT, Duration.ZERO);
        List<Request> all = arrivals(plan);
        assertEquals(90, inPhase(all, 0));
        assertEquals(90, inPhase(all, 1));
        Request firstMeasured = all.stream().filter(r -> r.phase == 1).findFirst().orElseThrow();
        assertEquals(START + 1_000_000_000L, firstMeasured.intended, "the arrival at the boundary opens the measured phase");
        for (int i = 1; i < all.size(); i++) {
            assertEquals(1e9 / 90, all.get(i).intended - all.get(i - 1).intended, 1.0, "one gap between arrivals " + i);
        }
    }

    @Test
    void rateTimesDurationArrivalsForRatesWhoseGapIsNotWhole() {
        for (double rate : new double[] {3, 7, 90, 1000, 2999}) {
            LoadPlan plan = new LoadPlan(List.of(Phase.open("warmup", Duration.ofSeconds(3), rate, true),
                    Phase.open("main", Duration.ofSeconds(3), rate, false)), LoadPlan.Arrivals.CONSTANT, Duration.ZERO);
            List<Request> all = arrivals(plan);
            assertEquals(Math.round(3 * rate), inPhase(all, 0), "warm-up at " + rate + "/s");
            assertEquals(Math.round(3 * rate), inPhase(all, 1), "main at " + rate + "/s");
        }
    }

    @Test
    void poissonArrivalsStayInsideTheirPhase() {
        LoadPlan plan = new LoadPlan(List.of(Phase.open("warmup", Duration.ofSeconds(1), 500, true),
                Phase.open("main", Duration.ofSeconds(2), 500, false)), LoadPlan.Arrivals.POISSON, Duration.ZERO);
        PhaseTimes times = new PhaseTimes(plan, START);
        List<Request> all = arrivals(plan);
        for (Request r : all) {
            assertEquals(r.phase, times.phaseAt(r.intended), "arrival " + r.seq);
        }
        assertEquals(1500, all.size(), 4 * Math.sqrt(1500));
    }
}
