package io.queuelab.fit;

import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.runs.ServerWork;
import io.queuelab.sim.ClientLimitedModel;
import io.queuelab.sim.Distribution;
import io.queuelab.sim.FittedModel;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;

/**
 * The client-limited processor-sharing system (client queue, K connections, c cores) with nothing
 * fitted to the response times: every number of it is measured apart from them. The demand's mean
 * is the server's own cpu time per request (the service demand law, D = U / X, from the server
 * process's cpu counters, {@link ServerWork}) at the load of the run predicted: the fit runs'
 * figures interpolated in the server's busy fraction ({@link LoadDemand}; a closed run takes the
 * most loaded fit run's, right for jobs without think time, which keep the server busy, not for a few
 * jobs that think), because the same query costs this server more
 * cpu when it is lightly loaded; its shape is the service times of the fit run nearest in load,
 * de-shared over c cores ({@link ServiceDemand}; a lightly loaded server runs part of its requests
 * at a slower speed, a busy one hardly ever); and what those service times hold beyond the server's
 * cpu (the network, the server's wake-ups) is a constant latency: the lowest-rate run's mean
 * de-shared service time less its own cpu per request. So it
 * tests the structure (K, c, processor sharing) alone: where it misses and the fitted client-ps
 * does not, the fit's scale made up for a structure that is not there.
 *
 * <p>Not identified without the server's cpu time (no {@code --telemetry-interval}, a server
 * queuelab has no pid of), without K and c, or when more than {@link #MAX_BELOW_LATENCY} of a fit
 * run's service times lie below the latency: then the time beside the cpu is no constant (the
 * embedded server's UPDATEs wait for a group commit's log flush, a time that varies with the
 * group), and flooring those service times at 0 would give the demand a shape no server has.
 */
final class MeasuredDemandCandidate implements CandidateModel {
    static final String NAME = "client-ps-cpu";
    /** The largest share of a fit run's service times below the latency that leaves the latency a constant. */
    static final double MAX_BELOW_LATENCY = 0.10;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Card card() {
        return new Card("as client-ps: client queue, K connections, c cores shared",
                "nothing fitted to the response times: the demand's mean is the server's own cpu per request at the run's load"
                        + " (host-resources telemetry of the fit runs), its shape their service times; a constant latency beside it: the"
                        + " client time of round trips (SELECT 1) where the fit runs include them, else the lowest-rate run's service less its cpu",
                "the time beside the cpu is a constant (not a log flush that varies); the server's cpu counters are available",
                "a server whose work per request changes with its load, run with --telemetry-interval: tests the structure alone",
                "`client-ps`, the demand of each load's own, the latency outside the queue");
    }

    @Override
    public String description() {
        return "client queue -> K connections -> c cores shared, the demand's mean the server's measured cpu per request";
    }

    @Override
    public boolean demandFollowsLoad() {
        return true;
    }

    /** Nothing is estimated from the response times. */
    @Override
    public int parameters() {
        return 0;
    }

    @Override
    public CandidateFit fit(FitData data) throws IOException {
        List<Mm1Point> points = data.points();
        String method = "measured: E[D] at each load = the server cpu per request the fit runs measured at theirs (service demand law),"
                + " interpolated in the server's busy fraction; the demand's shape the de-shared service times of the fit run nearest"
                + " in load; latency = " + (data.clientTime().isPresent() ? "the client time (" + data.clientTime().get().runs() + ")"
                : "the mean of " + (data.runs().isEmpty() ? "the lowest-rate run" : data.lowestRate().name()) + "'s less its cpu per request")
                + "; nothing fitted";
        if (points.isEmpty()) {
            return unidentified(method, points, "no open run to take the demand's shape from");
        }
        SystemLimits limits = data.limits();
        if (limits.whyNotBothKnown().isPresent()) {
            return unidentified(method, points, limits.whyNotBothKnown().get());
        }
        int k = limits.connections(), c = limits.cores();
        Optional<LoadDemand> measured = data.loadDemand(); // c is known here
        if (measured.isEmpty()) {
            return unidentified(method, points, "the fit runs did not sample the server's cpu (host resources with the server's pid:"
                    + " --telemetry-interval)");
        }
        LoadDemand load = measured.get();
        double demandMean = load.median();
        // each measured fit run's de-shared service times, the demand's shape at its load; its counter must be the server's
        Map<RunData, Measured> measuredRuns = new LinkedHashMap<>();
        for (RunData r : data.runs()) {
            Optional<LoadDemand.Point> point = LoadDemand.Point.of(r, c);
            if (point.isPresent() || r == data.lowestRate()) {
                Distribution service = ServiceDemand.of(r, c, DemandModelFit.DEMAND_VALUES);
                double d = point.map(LoadDemand.Point::cpuSecondsPerRequest).orElse(Double.NaN);
                if (d < ServerWork.MIN_FACTOR * service.mean()) {
                    return unidentified(method, points, String.format(Locale.ROOT, "the server's cpu per request in %s (%.3f ms) is under"
                            + " %.0f %% of its service time (%.3f ms): the sampled process is not the one doing the work", r.name(), d * 1e3,
                            100 * ServerWork.MIN_FACTOR, service.mean() * 1e3));
                }
                measuredRuns.put(r, new Measured(point, service));
            }
        }
        // the latency beside the cpu: the client time measured apart, else the lowest-rate run's mean service time less its cpu
        // per request (or the one at its load)
        Measured lowest = measuredRuns.get(data.lowestRate());
        double latency = data.latency(false, Math.max(0, lowest.service().mean()
                - lowest.point().map(LoadDemand.Point::cpuSecondsPerRequest).orElseGet(() -> load.atRate(data.lowestRate().arrivalRate()))));
        int parallelism = Math.min(c, k);
        // the demand's shape at a load is the de-shared service times of the fit run nearest to it in busy fraction, less the
        // latency: a lightly loaded server runs part of its requests slower (two speeds), a busy one hardly ever
        List<LoadShape> shapes = new ArrayList<>();
        String belowName = null;
        double below = 0;
        for (Map.Entry<RunData, Measured> e : measuredRuns.entrySet()) {
            Measured m = e.getValue();
            if (m.point().isPresent()) {
                double share = belowLatency(m.service(), latency);
                if (belowName == null || share > below) {
                    belowName = e.getKey().name();
                    below = share;
                }
                Distribution shifted = DemandModelFit.shift(m.service(), latency);
                // scaled by the shifted values' own mean: the floor at 1 ns makes it more than the mean less the latency
                Distribution demand = DemandModelFit.scale(shifted, demandMean / shifted.mean());
                shapes.add(new LoadShape(m.point().get().busy(), demand, DemandCurve.tabulate(dd -> new ClientLimitedModel(dd, k, c),
                        demand, parallelism, DemandCurve.RHO, DemandModelFit.CURVE_CUSTOMERS, 20, data.seed())));
            }
        }
        // the demand at a rate is the one the server measured at that load: the nearest shape's curve time-scaled by it
        DoubleUnaryOperator scaleAt = lambda -> load.atRate(lambda) / demandMean;
        java.util.function.DoubleFunction<LoadShape> shapeAt = lambda -> LoadShape.nearest(shapes, load.busyAt(lambda));
        List<Residual> residuals = new ArrayList<>();
        for (Mm1Point p : points) {
            residuals.add(new Residual(p.name(), p.lambda(), p.meanResponse(),
                    shapeAt.apply(p.lambda()).curve().meanResponse(p.lambda(), scaleAt.applyAsDouble(p.lambda())) + latency));
        }
        Identification.Checks checks = new Identification.Checks().trendFollowedByDemand(points)
                .note(String.format(Locale.ROOT, "E[D] = %.3f ms (the fit runs' median server cpu per request; at their loads %s),"
                        + " latency %.3f ms%s, c = %d, K = %d", demandMean * 1e3, load.describe(), latency * 1e3,
                        data.clientTime().isPresent() ? " (latency: the client time, measured apart)" : "", c, k))
                .note(String.format(Locale.ROOT, "service times below the latency: at most %.1f %% (%s)", 100 * below, belowName))
                .require(below <= MAX_BELOW_LATENCY, String.format(Locale.ROOT, "the service times are not the server's cpu plus a"
                        + " constant latency: %.0f %% of %s's lie below the latency %.3f ms (" + (data.clientTime().isPresent()
                        ? "the client time" : "the lowest-rate run's mean service time less its cpu per request") + "), so the time beside the cpu varies from request to request (a log flush, a lock"
                        + " wait), which this model does not have", 100 * below, belowName, latency * 1e3))
                .require(points.stream().allMatch(p -> load.busyAt(p.lambda()) * c / parallelism <= DemandCurve.MAX_RHO),
                        String.format(Locale.ROOT, "the fit run at %.4g/s is beyond the capacity the server's measured cpu per request"
                                        + " gives (%.4g/s = %d core(s) / %.3f ms): it overloaded the server, no steady state to fit",
                                points.get(points.size() - 1).lambda(), parallelism / load.saturated(), parallelism,
                                load.saturated() * 1e3))
                .residuals(points, residuals);
        List<Parameter> parameters = List.of(Parameter.of("E[D]", demandMean, "s"), Parameter.of("latency", latency, "s"),
                Parameter.of("c", c, "cores"), Parameter.of("K", k, "connections"));
        double[] curveErrors = points.stream().mapToDouble(p -> shapeAt.apply(p.lambda()).curve().relativeError(p.lambda(),
                scaleAt.applyAsDouble(p.lambda()))).toArray();
        ModelFit fit = new ModelFit(description(), method, parameters, residuals,
                lambda -> shapeAt.apply(lambda).curve().meanResponse(lambda, scaleAt.applyAsDouble(lambda)) + latency, checks.result());
        if (!fit.identified()) {
            return CandidateFit.unidentified(NAME, parameters(), fit);
        }
        double closedLatency = data.latency(true, latency);
        Distribution saturated = DemandModelFit.scale(LoadShape.mostBusy(shapes).demand(),
                load.saturated() / demandMean);
        // a closed run of N jobs holds N sessions (K is then N) and keeps the server busy: the most loaded fit run's demand
        return new CandidateFit(NAME, parameters(), fit,
                lambda -> new FittedModel(NAME, new ClientLimitedModel(DemandModelFit.scale(shapeAt.apply(lambda).demand(),
                        scaleAt.applyAsDouble(lambda)), k, c), latency),
                jobs -> new FittedModel(NAME, new ClientLimitedModel(saturated, jobs, c), closedLatency), curveErrors);
    }

    /**
     * The share of a run's de-shared service times below the latency: with service time = cpu +
     * a constant latency none would be; de-sharing's own error puts a few there.
     */
    private static double belowLatency(Distribution service, double latency) {
        double[] values = ((Distribution.Empirical) service).values();
        return values.length == 0 ? 0 : (double) java.util.Arrays.stream(values).filter(v -> v < latency).count() / values.length;
    }

    /** A fit run's load and cpu per request (empty: not sampled) and its de-shared service times. */
    private record Measured(Optional<LoadDemand.Point> point, Distribution service) {
    }

    /** A fit run's demand (mean: the fit runs' median cpu per request) at its busy fraction, and its curve. */
    private record LoadShape(double busy, Distribution demand, DemandCurve curve) {
        static LoadShape nearest(List<LoadShape> shapes, double busy) {
            return shapes.stream().min(java.util.Comparator.comparingDouble(s -> Math.abs(s.busy() - busy))).orElseThrow();
        }

        static LoadShape mostBusy(List<LoadShape> shapes) {
            return shapes.stream().max(java.util.Comparator.comparingDouble(LoadShape::busy)).orElseThrow();
        }
    }

    private CandidateFit unidentified(String method, List<Mm1Point> points, String reason) {
        return CandidateFit.unidentified(this, method, points, reason);
    }
}
