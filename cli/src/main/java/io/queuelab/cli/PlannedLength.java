package io.queuelab.cli;

import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.time.Duration;

/**
 * picocli mixin: {@code --max-duration}, the bound on how long a command that makes many runs (demo,
 * sweep) may plan to take. Guarantees: {@link #check} is called before the command starts anything;
 * it prints the plan's length in one line ("plan: 6 min 14 s of runs (...)"), or refuses a plan
 * longer than the bound in one line that names the option and says what to shorten.
 */
final class PlannedLength {
    @Option(names = "--max-duration", converter = DurationConverter.class, paramLabel = "DURATION",
            description = "Refuse a plan whose runs would take longer than this, before anything starts (default: 30m for "
                    + "demo, 12h for sweep); the planned length is printed first either way.")
    Duration max;

    /**
     * Prints {@code planned} (what it is made of: {@code breakdown}) to {@code out}, or refuses it
     * when it is longer than --max-duration (else {@code defaultMax}).
     */
    void check(String command, Duration planned, String breakdown, Duration defaultMax, PrintWriter out) {
        Duration bound = max != null ? max : defaultMax;
        if (planned.compareTo(bound) > 0) {
            throw new IllegalArgumentException(command + " would take " + format(planned) + " of runs (" + breakdown
                    + "), more than --max-duration " + format(bound) + ": shorten it (fewer repeats, fractions or levels, a shorter "
                    + "--duration) or give a larger --max-duration");
        }
        out.println("plan: " + format(planned) + " of runs (" + breakdown + ")");
        out.flush();
    }

    /** "45 s", "6 min 14 s", "2 h 5 min". */
    static String format(Duration d) {
        long s = Math.round(d.toMillis() / 1000.0);
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return s / 60 + " min" + (s % 60 == 0 ? "" : " " + s % 60 + " s");
        }
        return s / 3600 + " h" + (s % 3600 / 60 == 0 ? "" : " " + s % 3600 / 60 + " min");
    }
}
