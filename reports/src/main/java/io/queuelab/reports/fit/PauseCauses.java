package io.queuelab.reports.fit;

import io.queuelab.reports.data.IntervalSeries;
import io.queuelab.reports.data.RunData;
import io.queuelab.reports.data.ServerTelemetry;

import java.util.Locale;
import java.util.Optional;

/**
 * Whether the pauses found in a run coincide with the server writing pages, from the server
 * telemetry on the run's clock: a departure gap can be a flush of dirty pages (the
 * dirty-page-buffer model's pause) or the generator and server losing the CPU on a shared
 * machine, and the departure log alone cannot tell them apart. Each telemetry interval of the
 * measured phase is marked by whether InnoDB flushed pages in it (its pages-flushed counter rose);
 * each pause is put in the interval holding its midpoint. Flush pauses crowd into the intervals
 * with page writes; pauses of another cause fall in both kinds at about the same rate. Where the
 * server writes pages nearly all the time (a saturated slow disk) there is nothing to contrast,
 * and the summary says the telemetry does not tell.
 *
 * @param pausesWithWrites    pauses whose midpoint lies in an interval with pages flushed
 * @param secondsWithWrites   length of the measured phase's intervals with pages flushed
 * @param pausesWithoutWrites the other pauses
 * @param secondsWithoutWrites length of the measured phase's intervals without
 */
public record PauseCauses(int pausesWithWrites, double secondsWithWrites, int pausesWithoutWrites, double secondsWithoutWrites) {
    /** Telemetry series the causes are read from ({@link ServerTelemetry#innodb}). */
    static final String PAGES_FLUSHED = "pages flushed/s";
    /**
     * Pauses are called flushes when their rate in intervals with page writes is at least this
     * many times their rate in the intervals without (and none are called flushes without writes).
     */
    public static final double FLUSH_RATIO = 5;

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
     * @param sampleEnds instants (s) of the telemetry samples, each closing the interval since the previous one
     * @param rates      pages flushed per second in the interval closed by each sample
     * @param from       start of the measured phase (s)
     * @param to         its end (s)
     */
    static PauseCauses of(double[] sampleEnds, double[] rates, double from, double to, Flushes pauses) {
        double withWrites = 0, withoutWrites = 0;
        int pausesWith = 0, pausesWithout = 0;
        for (int i = 1; i < sampleEnds.length; i++) {
            double a = Math.max(from, sampleEnds[i - 1]), b = Math.min(to, sampleEnds[i]);
            if (b <= a) {
                continue;
            }
            boolean writes = rates[i] > 0;
            if (writes) {
                withWrites += b - a;
            } else {
                withoutWrites += b - a;
            }
            for (int k = 0; k < pauses.count(); k++) {
                double middle = pauses.starts()[k] + pauses.pauses()[k] / 2;
                if (middle > a && middle <= b) {
                    if (writes) {
                        pausesWith++;
                    } else {
                        pausesWithout++;
                    }
                }
            }
        }
        return new PauseCauses(pausesWith, withWrites, pausesWithout, withoutWrites);
    }

    /** Pauses per second in the intervals with page writes. */
    public double rateWithWrites() {
        return secondsWithWrites > 0 ? pausesWithWrites / secondsWithWrites : Double.NaN;
    }

    /** Pauses per second in the intervals without page writes. */
    public double rateWithoutWrites() {
        return secondsWithoutWrites > 0 ? pausesWithoutWrites / secondsWithoutWrites : Double.NaN;
    }

    /**
     * Whether the pauses are flushes: found in intervals with page writes, at a rate there at least
     * {@link #FLUSH_RATIO} times the rate in the intervals without (half a pause stands in for
     * none, so a few pauses all during writes count).
     */
    public boolean flushes() {
        if (pausesWithWrites == 0 || !(secondsWithWrites > 0)) {
            return false;
        }
        double without = secondsWithoutWrites > 0 ? Math.max(pausesWithoutWrites, 0.5) / secondsWithoutWrites : 0;
        return rateWithWrites() >= FLUSH_RATIO * without;
    }

    /** One line: the counts, the rates and what they say. */
    public String summary() {
        String counts = String.format(Locale.ROOT,
                "%d pauses in the %.0f s with pages flushed (%.3g/s), %d in the %.0f s without (%.3g/s)",
                pausesWithWrites, secondsWithWrites, rateWithWrites(), pausesWithoutWrites, secondsWithoutWrites, rateWithoutWrites());
        if (secondsWithWrites == 0) {
            return counts + ": the server wrote no page, so the pauses are not flushes (CPU scheduling or another cause)";
        }
        if (flushes()) {
            return counts + ": the pauses go with page writes (flush pauses)";
        }
        // pauses as frequent without writes as with them: not flushes, or flushes on a device that writes all the time
        return counts + ": the pauses are no more frequent while pages are written, so the telemetry does not show them to be"
                + " flushes (CPU scheduling, or writes going on all the time)";
    }
}
