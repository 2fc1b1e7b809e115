package io.queuelab.fit;

import io.queuelab.fit.runs.IntervalSeries;
import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.runs.ServerTelemetry;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether the pauses found in a run go with the server writing pages, from the server telemetry
 * on the run's clock: a departure gap can be a flush of dirty pages (the dirty-page-buffer
 * model's pause) or the generator and server losing the CPU on a shared machine, and the
 * departure log alone cannot tell them apart.
 *
 * <p>InnoDB counts a flushed page when its write completes, so a flush batch shows in the
 * telemetry as a rise of the pages-flushed counter at or just after the end of the pause it
 * caused. A pause is "with writes" when a sample with such a rise falls in its window, from its
 * start to one sample interval after its end. By chance alone, a window of that length placed
 * anywhere in the measured phase holds a rise with probability q (measured on the run's own
 * samples); the expected count is the sum of the pauses' q. Flush pauses: most pauses (at least
 * {@link #MOST}) are with writes, and {@link #SIGMAS} standard deviations more than chance. Where
 * the server writes in nearly every sample (a saturated slow disk, or samples long against the
 * flushes) every window holds a rise, and the summary says the telemetry does not tell.
 *
 * @param pauses           pauses considered (those inside the measured phase)
 * @param withWrites       pauses whose window holds a rise of the pages-flushed counter
 * @param expected         pauses expected with writes by chance
 * @param standardDeviation of that count under chance (independent pauses)
 * @param writeShare       share of the measured phase's samples with pages flushed
 * @param sampleSeconds    the telemetry's sample interval (median)
 */
public record PauseCauses(int pauses, int withWrites, double expected, double standardDeviation, double writeShare,
                          double sampleSeconds) {
    /** Telemetry series the causes are read from ({@link ServerTelemetry}'s InnoDB series). */
    static final String PAGES_FLUSHED = "pages flushed/s";
    /** Share of the pauses that must be with writes. */
    public static final double MOST = 0.8;
    /** Standard deviations above chance the count must be. */
    public static final double SIGMAS = 3;
    /** Positions per sample interval at which a window is placed to measure chance. */
    private static final int POSITIONS_PER_SAMPLE = 10;

    /** The causes of the run's pauses, if the run has InnoDB telemetry covering its measured phase. */
    public static Optional<PauseCauses> of(RunData run, Flushes pauses, Optional<ServerTelemetry> telemetry) {
        double[][] flushed = telemetry.map(t -> t.series().get(PAGES_FLUSHED)).orElse(null);
        if (flushed == null || flushed[0].length < 2) {
            return Optional.empty();
        }
        IntervalSeries series = run.series();
        int first = -1, last = -1;
        for (int i = 0; i < series.length(); i++) {
            if (series.completions(i) > 0) {
                last = i;
                first = first < 0 ? i : first;
            }
        }
        if (first < 0) {
            return Optional.empty();
        }
        return Optional.of(of(flushed[0], flushed[1], series.startSeconds(first), series.startSeconds(last) + series.intervalSeconds(),
                pauses));
    }

    /**
     * @param sampleEnds instants (s) of the telemetry samples, ascending, each closing the interval since the one before
     * @param rates      pages flushed per second in the interval closed by each sample
     * @param from       start of the measured phase (s)
     * @param to         its end (s)
     */
    static PauseCauses of(double[] sampleEnds, double[] rates, double from, double to, Flushes pauses) {
        double[] spacing = new double[Math.max(1, sampleEnds.length - 1)];
        for (int i = 1; i < sampleEnds.length; i++) {
            spacing[i - 1] = sampleEnds[i] - sampleEnds[i - 1];
        }
        double dt = new org.apache.commons.math3.stat.descriptive.rank.Median().evaluate(spacing);
        int samples = 0;
        double[] rises = new double[sampleEnds.length];
        int n = 0;
        for (int i = 0; i < sampleEnds.length; i++) {
            if (sampleEnds[i] > from && sampleEnds[i] <= to + dt) {
                samples++;
                if (rates[i] > 0) {
                    rises[n++] = sampleEnds[i];
                }
            }
        }
        rises = Arrays.copyOf(rises, n);
        int considered = 0, with = 0;
        double expected = 0, variance = 0;
        for (int k = 0; k < pauses.count(); k++) {
            double start = pauses.starts()[k], window = pauses.pauses()[k] + dt;
            if (start < from || start + pauses.pauses()[k] > to) {
                continue;
            }
            considered++;
            if (holdsRise(rises, start, window)) {
                with++;
            }
            double q = chance(rises, from, to, window, dt / POSITIONS_PER_SAMPLE);
            expected += q;
            variance += q * (1 - q);
        }
        return new PauseCauses(considered, with, expected, Math.sqrt(variance), samples == 0 ? 0 : (double) n / samples, dt);
    }

    private static boolean holdsRise(double[] rises, double start, double length) {
        int i = Arrays.binarySearch(rises, start);
        int next = i >= 0 ? i : -i - 1;
        return next < rises.length && rises[next] <= start + length;
    }

    /** Share of window positions in [from, to - length] (step {@code step}) holding a rise. */
    private static double chance(double[] rises, double from, double to, double length, double step) {
        int positions = 0, holding = 0;
        for (double t = from; t <= to - length; t += step) {
            positions++;
            if (holdsRise(rises, t, length)) {
                holding++;
            }
        }
        return positions == 0 ? 1 : (double) holding / positions;
    }

    /** Whether the pauses are flushes by the rule of the class comment. */
    public boolean flushes() {
        return pauses > 0 && withWrites >= MOST * pauses && withWrites >= expected + SIGMAS * standardDeviation
                && standardDeviation > 0;
    }

    /** One line: the counts against chance and what they say. */
    public String summary() {
        String counts = String.format(Locale.ROOT,
                "%d of %d pauses end within one sample (%.3g s) of a rise in pages flushed, %.1f +- %.1f by chance"
                        + " (pages flushed in %.0f %% of the samples)",
                withWrites, pauses, sampleSeconds, expected, standardDeviation, 100 * writeShare);
        if (writeShare == 0) {
            return counts + ": the server wrote no page, so the pauses are not flushes (CPU scheduling or another cause)";
        }
        if (flushes()) {
            return counts + ": the pauses go with page writes (flush pauses)";
        }
        return counts + ": the telemetry does not show them to be flushes (CPU scheduling, or samples too coarse for the"
                + " writes; try a shorter --telemetry-interval)";
    }
}
