package io.queuelab.reports.fit;

import io.queuelab.reports.data.RunData;
import io.queuelab.reports.data.RunShape;

import java.util.Comparator;
import java.util.List;

/**
 * What a candidate model is fitted to: the open runs (sorted by arrival rate), each reduced to its
 * {@link Mm1Point}, the system's limits, and the seed of every simulation a fit runs.
 */
public record FitData(List<RunData> runs, List<Mm1Point> points, SystemLimits limits, long seed) {
    public FitData {
        runs = List.copyOf(runs);
        points = List.copyOf(points);
    }

    /** The open runs with a successful request among {@code runs}, sorted by arrival rate. */
    public static FitData of(List<RunData> runs, SystemLimits limits, long seed) {
        List<RunData> open = runs.stream().filter(r -> RunShape.of(r).open() && r.okCount() > 0)
                .sorted(Comparator.comparingDouble(RunData::arrivalRate)).toList();
        return new FitData(open, open.stream().map(Mm1Point::of).toList(), limits, seed);
    }

    /**
     * This data, when it holds open runs at {@code minimum} arrival rates or more; otherwise an
     * IllegalArgumentException (one line) naming {@code what} needs them.
     */
    public FitData requireRates(int minimum, String what) {
        if (points.size() < minimum) {
            throw new IllegalArgumentException(what + " needs open runs at " + minimum + " or more arrival rates, got " + points.size());
        }
        return this;
    }

    /** The run with the lowest arrival rate: the least contended, where demand is closest to service. */
    RunData lowestRate() {
        return runs.get(0);
    }
}
