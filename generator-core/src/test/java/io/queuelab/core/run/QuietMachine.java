package io.queuelab.core.run;

import org.junit.jupiter.api.Assumptions;

import java.util.ArrayList;
import java.util.List;

/**
 * The rule of a timing claim that other work on the machine can move (a run's realized gaps, a
 * hand-off's median): each attempt is judged with what the kernel says took the machine's cpu time
 * meanwhile ({@link MachineShare}: the host's steal and every other process's busy time). A miss on
 * a quiet machine, where the two took at most {@link #LIMIT} of its cpu time, fails the test at
 * once: no retry hides it. A miss on a busy machine is tried again, up to the attempts given; when
 * every attempt missed on a busy machine, the claim is left unjudged as a skip whose reason gives
 * each attempt's misses and shares (.ci/skips lists the tests allowed to). Every attempt is printed.
 */
final class QuietMachine {
    /** The share of the machine's cpu time that others (steal and other processes) may take from a quiet machine. */
    static final double LIMIT = 0.02;

    private QuietMachine() {
    }

    /** One run of the claim: what it missed, in words with the measured figures; empty when it held. */
    interface Attempt {
        List<String> misses(int attempt) throws Exception;
    }

    static void check(String claim, int attempts, Attempt attempt) throws Exception {
        List<String> said = new ArrayList<>();
        for (int i = 1; i <= attempts; i++) {
            MachineShare machine = MachineShare.start();
            List<String> misses = attempt.misses(i);
            double steal = machine.steal();
            double others = machine.others();
            said.add(String.format(java.util.Locale.ROOT, "attempt %d (steal %.1f %%, other processes %.1f %% of the machine): %s", i,
                    100 * steal, 100 * others, misses.isEmpty() ? "held" : String.join("; ", misses)));
            System.out.println(claim + ": " + said.get(said.size() - 1));
            if (misses.isEmpty()) {
                return;
            }
            if (steal + others <= LIMIT) {
                throw new AssertionError(claim + " missed on a quiet machine (steal and other processes at most "
                        + Math.round(100 * LIMIT) + " % of its cpu time): " + String.join(" | ", said));
            }
        }
        Assumptions.abort("other work took more than " + Math.round(100 * LIMIT) + " % of the machine's cpu time in each of "
                + attempts + " attempts that missed, so the misses are the machine's, not the instrument's: " + String.join(" | ", said));
    }
}
