package io.queuelab.reports.fit;

import io.queuelab.reports.data.ServerWork;
import io.queuelab.sim.ClientLimitedModel;
import io.queuelab.sim.Distribution;
import io.queuelab.sim.FittedModel;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The client-limited processor-sharing system (client queue, K connections, c cores) with nothing
 * fitted to the response times: every number of it is measured apart from them. The demand's mean
 * is the server's own cpu time per request (the service demand law, D = U / X, from the server
 * process's cpu counters: the median over the fit runs, {@link ServerWork}); its shape is the
 * lowest-rate run's service times de-shared over c cores ({@link ServiceDemand}); and what those
 * service times hold beyond the server's cpu (the network, the server's wake-ups) is a constant
 * latency: the lowest-rate run's mean de-shared service time less its own cpu per request. So it
 * tests the structure (K, c, processor sharing) alone: where it misses and the fitted client-ps
 * does not, the fit's scale made up for a structure that is not there.
 *
 * <p>Not identified without the server's cpu time (no {@code --telemetry-interval}, a server
 * queuelab has no pid of) or without K and c.
 */
final class MeasuredDemandCandidate implements CandidateModel {
    static final String NAME = "client-ps-cpu";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "client queue -> K connections -> c cores shared, the demand's mean the server's measured cpu per request";
    }

    /** Nothing is estimated from the response times. */
    @Override
    public int parameters() {
        return 0;
    }

    @Override
    public CandidateFit fit(FitData data) throws IOException {
        List<Mm1Point> points = data.points();
        String method = "measured: E[D] = the fit runs' median server cpu per request (service demand law); the demand's shape the"
                + " de-shared service times of " + (data.runs().isEmpty() ? "the lowest-rate run" : data.lowestRate().name())
                + "; latency = their mean less that run's cpu per request; nothing fitted";
        if (points.isEmpty()) {
            return unidentified(method, points, "no open run to take the demand's shape from");
        }
        SystemLimits limits = data.limits();
        if (limits.connections() == 0 || !limits.coresKnown()) {
            return unidentified(method, points, "the client's connections K and the server's cores c must be known (" + limits + ")");
        }
        double demandMean = data.server().cpuSecondsPerRequest();
        if (!(demandMean > 0)) {
            return unidentified(method, points, "the fit runs did not sample the server's cpu (host resources with the server's pid:"
                    + " --telemetry-interval)");
        }
        int k = limits.connections(), c = limits.cores();
        Distribution shape = ServiceDemand.of(data.lowestRate(), c, DemandModelFit.DEMAND_VALUES);
        if (demandMean < ServerWork.MIN_FACTOR * shape.mean()) {
            return unidentified(method, points, String.format(Locale.ROOT, "the server's cpu per request (%.3f ms) is under %.0f %% of the"
                    + " lowest-rate run's service time (%.3f ms): the sampled process is not the one doing the work", demandMean * 1e3,
                    100 * ServerWork.MIN_FACTOR, shape.mean() * 1e3));
        }
        double lowestCpu = data.lowestRate().serverWork().cpuSecondsPerRequest();
        double latency = Math.max(0, shape.mean() - (lowestCpu > 0 ? lowestCpu : demandMean));
        Distribution shiftedShape = shifted(shape, latency);
        // scaled by the shifted values' own mean: the floor at 1 ns makes it more than shape.mean() - latency
        Distribution demand = DemandModelFit.scale(shiftedShape, demandMean / shiftedShape.mean());
        int parallelism = Math.min(c, k);
        DemandCurve curve = DemandCurve.tabulate(d -> new ClientLimitedModel(d, k, c), demand, parallelism, DemandCurve.RHO,
                DemandModelFit.CURVE_CUSTOMERS, 20, data.seed());
        List<Residual> residuals = new ArrayList<>();
        for (Mm1Point p : points) {
            residuals.add(new Residual(p.name(), p.lambda(), p.meanResponse(), curve.meanResponse(p.lambda(), 1) + latency));
        }
        Identification.Checks checks = new Identification.Checks().risingTrend(points)
                .note(String.format(Locale.ROOT, "E[D] = %.3f ms (server cpu per request), latency %.3f ms, c = %d, K = %d",
                        demandMean * 1e3, latency * 1e3, c, k))
                .require(points.stream().allMatch(p -> curve.utilization(p.lambda(), 1) <= DemandCurve.MAX_RHO),
                        String.format(Locale.ROOT, "the fit run at %.4g/s is beyond the capacity the server's measured cpu per request"
                                        + " gives (%.4g/s = %d core(s) / %.3f ms): it overloaded the server, no steady state to fit",
                                points.get(points.size() - 1).lambda(), parallelism / demandMean, parallelism, demandMean * 1e3))
                .residuals(points, residuals);
        List<Parameter> parameters = List.of(Parameter.of("E[D]", demandMean, "s"), Parameter.of("latency", latency, "s"),
                Parameter.of("c", c, "cores"), Parameter.of("K", k, "connections"));
        double[] curveErrors = points.stream().mapToDouble(p -> curve.relativeError(p.lambda(), 1)).toArray();
        ModelFit fit = new ModelFit(description(), method, parameters, residuals, lambda -> curve.meanResponse(lambda, 1) + latency,
                checks.result());
        if (!fit.identified()) {
            return CandidateFit.unidentified(NAME, parameters(), fit);
        }
        FittedModel open = new FittedModel(NAME, new ClientLimitedModel(demand, k, c), latency);
        // a closed run of N jobs holds N sessions: K is then N
        return new CandidateFit(NAME, parameters(), fit, open, jobs -> new FittedModel(NAME, new ClientLimitedModel(demand, jobs, c), latency),
                curveErrors);
    }

    /** The values less {@code by}, none below a nanosecond. */
    private static Distribution shifted(Distribution d, double by) {
        double[] values = ((Distribution.Empirical) d).values();
        for (int i = 0; i < values.length; i++) {
            values[i] = Math.max(1e-9, values[i] - by);
        }
        return Distribution.empirical(values);
    }

    private CandidateFit unidentified(String method, List<Mm1Point> points, String reason) {
        return CandidateFit.unidentified(this, method, points, reason);
    }
}
