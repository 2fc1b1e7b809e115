package io.queuelab.fit;

import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.runs.RunShape;
import io.queuelab.fit.runs.ServerWork;

import java.io.IOException;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What a candidate model is fitted to: the open runs (sorted by arrival rate), each reduced to its
 * {@link Mm1Point}, the closed runs (sorted by N: only the models measured from closed runs, such
 * as the dirty-page-buffer model, use them), the system's limits, the seed of every simulation
 * a fit runs, and the client time measured apart ({@link ClientTime}: a round-trip run among the
 * runs given), which the models with a latency beside the server take instead of splitting it off
 * the responses.
 */
public record FitData(List<RunData> runs, List<Mm1Point> points, List<RunData> closedRuns, SystemLimits limits, long seed,
                      Optional<ClientTime> clientTime) {
    public FitData {
        runs = List.copyOf(runs);
        points = List.copyOf(points);
        closedRuns = List.copyOf(closedRuns);
        java.util.Objects.requireNonNull(clientTime, "clientTime");
    }

    /**
     * The runs with a successful request among {@code runs}: the open ones sorted by arrival rate
     * (those that are {@link #steadyOpen} only), the closed by N; a round-trip run among them is
     * the client time ({@link ClientTime.Split}), not a run to fit.
     */
    public static FitData of(List<RunData> runs, SystemLimits limits, long seed) throws IOException {
        ClientTime.Split split = ClientTime.Split.of(runs);
        List<RunData> measured = split.runs().stream().filter(r -> r.okCount() > 0).toList();
        List<RunData> open = measured.stream().filter(FitData::steadyOpen)
                .sorted(Comparator.comparingDouble(RunData::arrivalRate)).toList();
        List<RunData> closed = measured.stream().filter(r -> RunShape.of(r).closed())
                .sorted(Comparator.comparingInt(r -> RunShape.of(r).jobs())).toList();
        return new FitData(open, open.stream().map(Mm1Point::of).toList(), closed, limits, seed, split.clientTime());
    }

    /**
     * The latency beside the server of a run of this kind ({@code closedLoop}: a closed run's, else
     * an open one's): the client time of the round trip of that kind where round trips were
     * measured (a closed load's differs from an open one's: docs/models.md), else {@code otherwise}.
     */
    public double latency(boolean closedLoop, double otherwise) {
        return clientTime.map(t -> t.seconds(closedLoop)).orElse(otherwise);
    }

    /** This data with {@code time} as its client time. */
    public FitData withClientTime(Optional<ClientTime> time) {
        return new FitData(runs, points, closedRuns, limits, seed, time);
    }

    /**
     * Whether {@code run} is a point of a steady-state fit: an open run with a successful request
     * whose self-check does not name the server's saturation ({@link RunData#serverSaturation}). A
     * saturated run's responses are those of a queue that grew through it; at its rate a
     * steady-state model has no answer to compare them with, and through it a fit bends to the
     * growth.
     */
    public static boolean steadyOpen(RunData run) {
        return RunShape.of(run).open() && run.okCount() > 0 && run.serverSaturation().isEmpty();
    }

    /** Whether {@code run} is an open run with a successful request whose self-check names the server's saturation. */
    public static boolean saturatedOpen(RunData run) {
        return RunShape.of(run).open() && run.okCount() > 0 && run.serverSaturation().isPresent();
    }

    /**
     * One line for each open run among {@code runs} that {@link #of} leaves out, naming it and why,
     * rather than dropping it without a word: a run that measured no request (a sweep's run at a
     * rate too low for its length), one whose measured requests all failed, and one whose
     * self-check says the server was saturated.
     */
    public static List<String> leftOut(List<RunData> runs) {
        return runs.stream().filter(r -> RunShape.of(r).open() && !steadyOpen(r))
                .map(r -> "note: run " + r.name() + (r.arrivals() == 0 ? " measured no request (none outside warm-up)"
                        : r.okCount() == 0 ? " had no successful request among its " + r.arrivals() + " measured"
                        : ": " + r.serverSaturation().orElseThrow())
                        + ": left out of the fit, not a point of it")
                .toList();
    }

    /**
     * Arrival rates within this fraction of each other are one rate: runs at one target rate
     * measure rates a few per cent apart (Poisson noise), and cannot separate what a fit at two
     * rates separates (before: runs at one rate gave an "identified" fit with mu = 3.5e10/s).
     */
    static final double ONE_RATE_SPREAD = 0.05;

    /** How many distinct arrival rates the open runs are at: rates within {@link #ONE_RATE_SPREAD} of a lower one count as it. */
    public int distinctRates() {
        int distinct = 0;
        double groupStart = Double.NEGATIVE_INFINITY;
        for (Mm1Point p : points.stream().sorted(Comparator.comparingDouble(Mm1Point::lambda)).toList()) {
            if (p.lambda() > groupStart * (1 + ONE_RATE_SPREAD)) {
                distinct++;
                groupStart = p.lambda();
            }
        }
        return distinct;
    }

    /**
     * This data, when its open runs are at {@code minimum} distinct arrival rates or more
     * ({@link #distinctRates}: runs are counted by their rates, not as points); otherwise an
     * IllegalArgumentException (one line) naming {@code what} needs them.
     */
    public FitData requireRates(int minimum, String what) {
        if (points.size() < minimum) {
            throw new IllegalArgumentException(what + " needs open runs at " + minimum + " or more arrival rates, got " + points.size());
        }
        int distinct = distinctRates();
        if (distinct < minimum) {
            double low = points.stream().mapToDouble(Mm1Point::lambda).min().orElse(0);
            double high = points.stream().mapToDouble(Mm1Point::lambda).max().orElse(0);
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
                    "the %d runs are at %s (%.4g-%.4g/s): %s needs open runs at %d or more arrival rates", points.size(),
                    distinct == 1 ? "one arrival rate" : "only " + distinct + " distinct arrival rates", low, high, what, minimum));
        }
        return this;
    }

    /**
     * The server the open runs measured ({@link ServerWork}: the medians of their cpu speed and cpu
     * per request): the one a demand model is fitted to, and the one held-out runs are compared with.
     */
    public ServerWork server() throws IOException {
        return ServerWork.median(runs);
    }

    /**
     * The fit runs' server cpu per request by load ({@link LoadDemand}), of the runs that sampled it;
     * per core of the server when its cores are known, else of one (the interpolation is the same).
     */
    public Optional<LoadDemand> loadDemand() throws IOException {
        return LoadDemand.of(runs, limits.coresKnown() ? limits.cores() : 1);
    }

    /** The run with the lowest arrival rate: the least contended, where demand is closest to service. */
    RunData lowestRate() {
        return runs.get(0);
    }
}
