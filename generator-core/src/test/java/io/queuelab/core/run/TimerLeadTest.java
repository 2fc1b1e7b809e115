package io.queuelab.core.run;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The timer lead's two quantile trackers against a lateness distribution shaped like a VM's timed
 * wake-ups (an exponential body of ~30 us and a tail of a few percent at 150-400 us), whose true
 * quantiles the test computes from the very samples it feeds.
 */
class TimerLeadTest {
    private static long[] vmLateness(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] late = new long[n];
        for (int i = 0; i < n; i++) {
            late[i] = random.nextDouble() < 0.03
                    ? 150_000 + (long) (random.nextDouble() * 250_000)
                    : 5_000 + (long) (-Math.log(1 - random.nextDouble()) * 25_000);
        }
        return late;
    }

    private static long quantile(long[] values, double q) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    }

    @Test
    void tracksTheMedianAndTheP99OfTheLateness() {
        long[] late = vmLateness(40_000, 1);
        RunClock.TimerLead lead = new RunClock.TimerLead();
        for (long l : late) {
            lead.observe(l);
        }
        // the estimate at the end wanders by a few steps around the quantile it tracks
        long median = lead.nanos();
        assertTrue(median >= quantile(late, 0.40) && median <= quantile(late, 0.60),
                "median lead " + median + " outside p40-p60 " + quantile(late, 0.40) + "-" + quantile(late, 0.60));
        long tail = lead.tailNanos();
        assertTrue(tail >= quantile(late, 0.98) && tail <= quantile(late, 0.995),
                "p99 lead " + tail + " outside p98-p99.5 " + quantile(late, 0.98) + "-" + quantile(late, 0.995));
    }

    @Test
    void reachesTheTailWithinAWarmUpAtLowRates() {
        // 3 s of warm-up at 200/s: 600 wake-ups, from a lead of zero
        long[] late = vmLateness(600, 2);
        RunClock.TimerLead lead = new RunClock.TimerLead();
        for (long l : late) {
            lead.observe(l);
        }
        long tail = lead.tailNanos();
        assertTrue(tail >= quantile(vmLateness(100_000, 3), 0.95), "p99 lead after 600 wake-ups: " + tail);
    }

    @Test
    void theTailIsUsedOnlyUpToTheCapAndNeverBelowTheMedian() {
        RunClock.TimerLead lead = new RunClock.TimerLead();
        for (long l : vmLateness(40_000, 4)) {
            lead.observe(l);
        }
        long median = lead.nanos();
        long tail = lead.tailNanos();
        assertTrue(median < tail, median + " vs " + tail);
        assertEquals(tail, lead.nanos(RunClock.TimerLead.MAX_TAIL_NANOS));
        assertEquals(median + 1, lead.nanos(median + 1));
        assertEquals(median, lead.nanos(0), "a cap of zero leaves the median lead");
    }

    @Test
    void theCapSpendsAFixedShareOfACore() {
        // lead x rate = the share: 250 us at 200/s, 100 us at 500/s, 25 us at 2,000/s
        assertEquals(250_000, SpinPolicy.tailLeadCapNanos(200));
        assertEquals(100_000, SpinPolicy.tailLeadCapNanos(500));
        assertEquals(25_000, SpinPolicy.tailLeadCapNanos(2_000));
        assertEquals(RunClock.TimerLead.MAX_TAIL_NANOS, SpinPolicy.tailLeadCapNanos(10));
        assertEquals(0, SpinPolicy.tailLeadCapNanos(0));
    }

    @Test
    void anEarlyWakeUpSaysNothing() {
        RunClock.TimerLead lead = new RunClock.TimerLead();
        lead.observe(300_000);
        long median = lead.nanos();
        long tail = lead.tailNanos();
        lead.observe(-1);
        assertEquals(median, lead.nanos());
        assertEquals(tail, lead.tailNanos());
    }
}
