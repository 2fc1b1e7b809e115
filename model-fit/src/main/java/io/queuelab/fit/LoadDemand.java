package io.queuelab.fit;

import io.queuelab.fit.runs.RunData;
import org.apache.commons.math3.stat.descriptive.rank.Median;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The server's cpu time per request as its load sets it, measured on the fit runs alone: each
 * run's cpu per request (the service demand law, D = U / X, from the server's own cpu counters)
 * at that run's busy fraction U = X D / c. Between two runs' busy fractions D is interpolated
 * linearly, beyond the least and most busy it is theirs (never extrapolated: one run's noise would
 * swing it). So a server that spends more per request when it is lightly loaded (measured here:
 * the embedded MariaDB's range query takes 40 % more cpu at 12 % busy than at 60 % and above, at
 * the same probe speed, docs/experiments.md) is modelled at each load with the work it does there.
 *
 * <p>Guarantees: {@link #at} is positive, and continuous unless two runs share a busy fraction;
 * {@link #busyAt} is the first root of U = lambda D(U) / c on a grid of 256 steps up to the highest
 * load possible, refined by bisection (the load an open arrival stream reaches from an idle server): a
 * crossing and its return within one step are not seen, and the next root is returned.
 */
public record LoadDemand(List<Point> points, int cores) {
    /** Steps of the search for the least root. */
    private static final int GRID = 256;

    /** One fit run: its busy fraction and its cpu seconds per request. */
    public record Point(String run, double busy, double cpuSecondsPerRequest) {
        /** {@code run}'s, with its busy fraction of {@code cores} (U = X D / c); empty when its server's cpu was not sampled. */
        public static Optional<Point> of(RunData run, int cores) throws IOException {
            double d = run.serverWork().cpuSecondsPerRequest();
            return d > 0 && run.throughput() > 0 ? Optional.of(new Point(run.name(), run.throughput() * d / cores, d)) : Optional.empty();
        }
    }

    public LoadDemand {
        if (points.isEmpty() || cores < 1) {
            throw new IllegalArgumentException("a load demand needs a measured run and the server's cores");
        }
        for (Point p : points) {
            if (!(p.busy() >= 0 && Double.isFinite(p.busy()) && p.cpuSecondsPerRequest() > 0 && Double.isFinite(p.cpuSecondsPerRequest()))) {
                throw new IllegalArgumentException("a run's busy fraction and cpu per request must be finite, the latter positive: " + p);
            }
        }
        points = points.stream().sorted(Comparator.comparingDouble(Point::busy)).toList();
    }

    /** The fit runs' points, of the runs whose server cpu was sampled; empty when none was. */
    public static Optional<LoadDemand> of(List<RunData> runs, int cores) throws IOException {
        List<Point> points = new ArrayList<>();
        for (RunData r : runs) {
            Point.of(r, cores).ifPresent(points::add);
        }
        return points.isEmpty() ? Optional.empty() : Optional.of(new LoadDemand(points, cores));
    }

    /** Cpu seconds per request at busy fraction {@code busy}. */
    public double at(double busy) {
        Point first = points.get(0);
        if (busy <= first.busy()) {
            return first.cpuSecondsPerRequest();
        }
        for (int i = 1; i < points.size(); i++) {
            Point a = points.get(i - 1), b = points.get(i);
            if (busy <= b.busy()) {
                double w = b.busy() > a.busy() ? (busy - a.busy()) / (b.busy() - a.busy()) : 1;
                return a.cpuSecondsPerRequest() + w * (b.cpuSecondsPerRequest() - a.cpuSecondsPerRequest());
            }
        }
        return points.get(points.size() - 1).cpuSecondsPerRequest();
    }

    /** The busy fraction an open load of {@code lambda} per second gives: the least U with U = lambda D(U) / c (above 1: overloaded). */
    public double busyAt(double lambda) {
        if (!(lambda >= 0 && Double.isFinite(lambda))) {
            throw new IllegalArgumentException("an arrival rate must be finite and not negative, got " + lambda);
        }
        // h(U) = lambda D(U) / c - U is positive at 0 and negative at the top: the largest D times lambda / c, plus 2
        double top = 2 + lambda * points.stream().mapToDouble(Point::cpuSecondsPerRequest).max().orElseThrow() / cores;
        double step = top / GRID, lo = 0, hi = top;
        for (int i = 1; i <= GRID; i++) {
            if (lambda * at(i * step) / cores - i * step <= 0) {
                hi = i * step;
                lo = hi - step;
                break;
            }
        }
        for (int i = 0; i < 60; i++) {
            double mid = (lo + hi) / 2;
            if (lambda * at(mid) / cores - mid > 0) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    /** Cpu seconds per request at an open load of {@code lambda} per second. */
    public double atRate(double lambda) {
        return at(busyAt(lambda));
    }

    /** Cpu seconds per request of a server never idle (a closed run with no think time): the most busy fit run's. */
    public double saturated() {
        return points.get(points.size() - 1).cpuSecondsPerRequest();
    }

    /** The median of the runs' cpu per request. */
    public double median() {
        return new Median().evaluate(points.stream().mapToDouble(Point::cpuSecondsPerRequest).toArray());
    }

    /** "2.410 ms at 12 % busy, ..." for the fit's method line. */
    String describe() {
        return points.stream().map(p -> String.format(Locale.ROOT, "%.3f ms at %.0f %% busy", p.cpuSecondsPerRequest() * 1e3,
                100 * p.busy())).collect(Collectors.joining(", "));
    }
}
