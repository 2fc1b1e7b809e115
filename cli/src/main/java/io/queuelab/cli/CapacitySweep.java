package io.queuelab.cli;

import io.queuelab.core.backend.Backend;
import io.queuelab.core.run.RunCompanion;
import io.queuelab.reports.data.RunData;
import io.queuelab.reports.fit.HeldOutValidation;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The capacity mode of a sweep: a short closed-loop saturation probe (many concurrent jobs, so the
 * server is never idle) measures the throughput X_max, then the sweep's open-loop rates are chosen
 * fractions of it, so that the queueing near the knee is in the data. Guarantees: the probe is an
 * ordinary closed run; it is written beside the sweep while the sweep runs and moved into it
 * afterwards ({@link #PROBE_PREFIX} + N), so the reports see it as one more closed run.
 */
final class CapacitySweep {
    static final String PROBE_PREFIX = "capacity-probe-closed-";

    /** The probe's result: its run directory (beside the sweep) and the throughput it measured. */
    record Probe(Path dir, int jobs, double maxThroughput) {
        /** The open-loop levels at the given fractions of X_max. */
        List<SweepCommand.Level> levels(List<Double> fractions) {
            return levels(fractions, List.of());
        }

        /**
         * The open-loop levels at the given fractions of X_max, then each of {@code repeats} (some of
         * those fractions; one listed twice is run twice more) in their order, after the whole sweep:
         * a repeat follows other loads than its first run did, as a later run of the same load would.
         */
        List<SweepCommand.Level> levels(List<Double> fractions, List<Double> repeats) {
            List<SweepCommand.Level> levels = new ArrayList<>();
            for (double f : fractions) {
                levels.add(new SweepCommand.Level(rate(f), 0));
            }
            List<Double> done = new ArrayList<>();
            for (double f : repeats) {
                done.add(f);
                levels.add(new SweepCommand.Level(rate(f), 0, java.util.Collections.frequency(done, f)));
            }
            return levels;
        }

        /** Rates rounded to 0.1/s: readable directory names, far below the noise of X_max. */
        private double rate(double fraction) {
            return Math.max(0.1, Math.round(fraction * maxThroughput * 10) / 10.0);
        }

        /** Moves the probe's run into the finished sweep directory. */
        Path moveInto(Path sweep) throws IOException {
            return Files.move(dir, sweep.resolve(PROBE_PREFIX + jobs));
        }
    }

    private CapacitySweep() {
    }

    /** --repeat's default: the loads the report holds out ({@link HeldOutValidation#heldOutLoads}). */
    static final String HELD_OUT = "held-out";

    /**
     * The fractions to run again ({@code --repeat}): {@link #HELD_OUT}, "none", or a list of
     * fractions each of which is one of {@code fractions} (already checked); a fraction listed k
     * times is run k times more.
     */
    static List<Double> repeats(String repeat, List<Double> fractions) {
        if (repeat.equals("none")) {
            return List.of();
        }
        if (repeat.equals(HELD_OUT)) {
            return HeldOutValidation.heldOutLoads(fractions.stream().sorted().toList());
        }
        List<Double> repeats = new ArrayList<>();
        for (String part : repeat.split(",")) {
            double f;
            try {
                f = Double.parseDouble(part.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--repeat takes " + HELD_OUT + ", none, or fractions from --fractions, got '" + part + "'");
            }
            if (!fractions.contains(f)) {
                throw new IllegalArgumentException("--repeat " + f + " is not one of --fractions " + fractions + ": a repeat runs a load of"
                        + " the sweep again");
            }
            repeats.add(f);
        }
        return repeats;
    }

    /** Checks the fractions before any run: each in (0, 1], no two alike. */
    static List<Double> fractions(List<Double> fractions) {
        if (fractions.isEmpty()) {
            throw new IllegalArgumentException("--fractions needs at least one fraction of the capacity, e.g. 0.1,0.5,0.9");
        }
        for (double f : fractions) {
            if (!(f > 0 && f <= 1)) {
                throw new IllegalArgumentException("every fraction of the capacity must be in (0, 1] (beyond it an open queue"
                        + " grows without bound), got " + f);
            }
        }
        if (fractions.stream().distinct().count() != fractions.size()) {
            throw new IllegalArgumentException("--fractions lists a fraction twice: " + fractions);
        }
        return List.copyOf(fractions);
    }

    /**
     * Runs the saturation probe: {@code jobs} closed-loop jobs for {@code duration} after
     * {@code warmup}, into a directory beside {@code sweep} (which must not exist yet).
     */
    static Probe probe(Path sweep, int jobs, Duration duration, Duration warmup, GeneratorOptions generator, Backend backend,
                       RunCompanion companion, Map<String, Object> settings, PrintWriter out) throws Exception {
        if (jobs < 1) {
            throw new IllegalArgumentException("--probe-jobs must be at least 1, got " + jobs);
        }
        Path dir = sweep.resolveSibling(sweep.getFileName() + "." + PROBE_PREFIX + jobs);
        if (Files.exists(dir)) {
            throw new IllegalArgumentException(dir + " already exists (a capacity probe left by a sweep that died): remove it");
        }
        out.printf(Locale.ROOT, "capacity probe: %d closed-loop jobs for %s%n", jobs, duration);
        SweepCommand.Level level = new SweepCommand.Level(0, jobs);
        RunCommand.execute(generator.config(level.plan(duration, warmup, false), dir), backend, settings, out, companion);
        double throughput = RunData.read(dir).throughput();
        if (!(throughput > 0)) {
            throw new IllegalStateException("the capacity probe completed no request: no capacity to take fractions of");
        }
        out.printf(Locale.ROOT, "capacity probe: X_max = %.1f requests/s with N = %d%n%n", throughput, jobs);
        out.flush();
        return new Probe(dir, jobs, throughput);
    }
}
