package io.queuelab.fit;

import io.queuelab.sim.ClientLimitedModel;
import io.queuelab.sim.Distribution;
import io.queuelab.sim.FittedModel;
import io.queuelab.sim.Model;
import org.apache.commons.math3.fitting.leastsquares.MultivariateJacobianFunction;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.util.Pair;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The fits of the models driven by a measured demand distribution: M/G/1 and M/G/c FCFS and the
 * client-limited processor-sharing system. The demand's shape is the empirical distribution of the
 * lowest-rate run's service times (where requests least slow each other); its scale s is fitted by
 * weighted least squares of the mean response over the runs ({@link DemandCurve}: Pollaczek-Khinchine
 * for M/G/1; for M/G/c and the client-limited system, which have no exact formula, one tabulation by
 * simulation, then closed arithmetic). The server's cores c are taken from {@link SystemLimits}
 * when known, otherwise fitted by profiling: s is fitted for each c and the c with the least
 * squares kept.
 */
final class DemandModelFit implements CandidateModel {
    /** Customers per tabulated point of the final curve (up to 20 times more near saturation, see DemandCurve). */
    static final long CURVE_CUSTOMERS = 30_000;
    /** Customers per point of the coarse curve that compares core counts (up to 10 times more near saturation). */
    static final long PROFILE_CUSTOMERS = 3_000;
    /** The most cores a fit tries when the runs do not say. */
    static final int MAX_FITTED_CORES = 16;
    /** Values kept of the demand's empirical distribution. */
    static final int DEMAND_VALUES = 100_000;

    enum Kind { MG1, MGC, CLIENT_PS }

    private final Kind kind;

    DemandModelFit(Kind kind) {
        this.kind = kind;
    }

    @Override
    public String name() {
        return switch (kind) {
            case MG1 -> "mg1";
            case MGC -> "mgc";
            case CLIENT_PS -> "client-ps";
        };
    }

    @Override
    public Card card() {
        return switch (kind) {
            case MG1 -> new Card("one FCFS server; the demand's distribution measured",
                    "the lowest-rate open run's service times (the shape), their scale by least squares of the runs' mean response",
                    "one request served at a time, in arrival order; a demand that does not change with the load",
                    "a server that serves one request at a time (one connection, or one core and no sharing)",
                    "`client-ps` with K = c = 1: one request in service, the others wait in arrival order");
            case MGC -> new Card("c FCFS servers (the server's cores); the demand's distribution measured",
                    "as mg1; c from the manifest's placement or --server-cores, else fitted",
                    "c requests served at once, each on a core of its own, the others wait in arrival order",
                    "a server with as many connections as cores, each query on one core",
                    "`client-ps` with K = c: each request in service has a core of its own");
            case CLIENT_PS -> new Card("the client's FIFO queue, K connections, a server of c cores shared by the requests inside"
                    + " (processor sharing); the demand's distribution measured",
                    "as mg1; K from the manifest's workers (or --connections), c as mgc",
                    "the cores shared evenly at every instant; a demand that does not change with the load",
                    "a database run: more connections than cores, queries that share the cores",
                    "`client-ps` (the demand, K, c)");
        };
    }

    @Override
    public String description() {
        return switch (kind) {
            case MG1 -> "M/G/1 FCFS, the demand distribution measured";
            case MGC -> "M/G/c FCFS, c the server's cores, the demand distribution measured";
            case CLIENT_PS -> "client queue -> K connections -> c cores shared by the requests inside, the demand distribution measured";
        };
    }

    /** The demand's scale; a fit that also chooses c (not given by the runs) estimates one more ({@link #fit}). */
    @Override
    public int parameters() {
        return 1;
    }

    private Model model(Distribution demand, int cores, int connections) {
        return switch (kind) {
            case MG1 -> ClientLimitedModel.fcfs(demand, 1);
            case MGC -> ClientLimitedModel.fcfs(demand, cores);
            case CLIENT_PS -> new ClientLimitedModel(demand, connections, cores);
        };
    }

    private int parallelism(int cores, int connections) {
        return switch (kind) {
            case MG1 -> 1;
            case MGC -> cores;
            case CLIENT_PS -> Math.min(cores, connections);
        };
    }

    @Override
    public CandidateFit fit(FitData data) throws IOException {
        List<Mm1Point> points = data.points();
        String method = "demand: the service times of " + data.lowestRate().name() + " scaled by s; s by least squares of"
                + " the mean response (weights 1/standard error^2, 1/R^2 without errors) on "
                + (kind == Kind.MG1 ? "the Pollaczek-Khinchine curve" : "a curve simulated once");
        if (points.size() < 2) {
            return unidentified(method, points, "a fit needs open runs at 2 or more arrival rates, got " + points.size());
        }
        int k = data.limits().connections();
        if (kind == Kind.CLIENT_PS && k == 0) {
            return unidentified(method, points, "the client's connections K are unknown (" + data.limits().connectionsSource() + ")");
        }
        List<Integer> candidates = new ArrayList<>();
        if (kind == Kind.MG1) {
            candidates.add(1);
        } else if (data.limits().coresKnown()) {
            candidates.add(data.limits().cores());
        } else {
            // beyond K cores the client-limited system cannot tell c apart: the K requests inside never share
            int top = kind == Kind.CLIENT_PS ? Math.min(k, MAX_FITTED_CORES) : MAX_FITTED_CORES;
            for (int c = 1; c <= top; c++) {
                candidates.add(c);
            }
        }
        ScaleFit best = null;
        for (int c : candidates) {
            ScaleFit f = fitScale(points, demand(data, c), c, k, candidates.size() == 1, data.seed());
            if (f != null && (best == null || f.cost < best.cost)) {
                best = f;
            }
        }
        if (best != null && candidates.size() > 1) {
            best = fitScale(points, demand(data, best.cores), best.cores, k, true, data.seed()); // the chosen c on the fine curve
        }
        if (best == null) {
            return unidentified(method, points, "the least-squares search found no demand scale that keeps every run below the model's capacity");
        }
        ScaleFit f = best;
        Distribution demand = f.demand;
        Distribution scaled = scale(demand, f.s);
        List<Residual> residuals = new ArrayList<>();
        for (Mm1Point p : points) {
            residuals.add(new Residual(p.name(), p.lambda(), p.meanResponse(), f.curve.meanResponse(p.lambda(), f.s)));
        }
        double maxScale = points.stream().mapToDouble(p -> f.curve.maxScale(p.lambda())).min().orElseThrow();
        Identification.Checks checks = new Identification.Checks().risingTrend(points)
                .note(String.format(Locale.ROOT, "utilization reached %.2f at %.4g/s",
                        f.curve.utilization(points.get(points.size() - 1).lambda(), f.s), points.get(points.size() - 1).lambda()))
                .notPinned("s", f.s, 1e-6, maxScale)
                .relativeError("s", f.se, f.s, "s");
        if (kind != Kind.MG1) {
            checks.note(data.limits().coresKnown() ? "c = " + f.cores + " from " + data.limits().coresSource()
                    : "c = " + f.cores + " fitted (least squares over c = 1.." + candidates.size() + ")");
        }
        checks.residuals(points, residuals);
        List<Parameter> parameters = new ArrayList<>(List.of(
                new Parameter("s", f.s, f.se, ""),
                new Parameter("E[D]", scaled.mean(), f.se * demand.mean(), "s")));
        if (kind != Kind.MG1) {
            parameters.add(Parameter.of("c", f.cores, "cores"));
        }
        if (kind == Kind.CLIENT_PS) {
            parameters.add(Parameter.of("K", k, "connections"));
        }
        double[] curveErrors = points.stream().mapToDouble(p -> f.curve.relativeError(p.lambda(), f.s)).toArray();
        ModelFit fit = new ModelFit(description(), method, parameters, residuals, lambda -> f.curve.meanResponse(lambda, f.s),
                checks.result());
        // c chosen by least squares is a parameter the data fixed: the residual test loses its degree of freedom
        int estimated = parameters() + (candidates.size() > 1 ? 1 : 0);
        if (!fit.identified()) {
            return CandidateFit.unidentified(name(), estimated, fit);
        }
        int cores = f.cores;
        FittedModel open = new FittedModel(name(), model(scaled, cores, k), 0);
        // a closed run of N jobs holds N sessions: the client-limited model's K is then N
        return new CandidateFit(name(), estimated, fit, rate -> open,
                jobs -> new FittedModel(name(), model(scaled, cores, kind == Kind.CLIENT_PS ? jobs : k), 0), curveErrors);
    }

    private record ScaleFit(int cores, Distribution demand, DemandCurve curve, double s, double se, double cost) {
    }

    /**
     * The demand the lowest-rate run shows under this model's assumption: its service times for
     * the FCFS models (a request is never slowed inside), de-shared over c cores for the
     * client-limited one ({@link ServiceDemand}).
     */
    private Distribution demand(FitData data, int cores) throws IOException {
        return ServiceDemand.of(data.lowestRate(), kind == Kind.CLIENT_PS ? cores : ServiceDemand.UNSHARED, DEMAND_VALUES);
    }

    /**
     * Weights of the least squares: 1 / (the point's standard error and the curve's simulation
     * error in quadrature)^2 where every point has a standard error, so that a noisy run near
     * saturation pulls the scale no more than its noise allows; else 1/R^2 (relative errors).
     */
    private static double[] weights(List<Mm1Point> points, DemandCurve curve, double s) {
        double[] w = new double[points.size()];
        boolean errorsKnown = points.stream().allMatch(p -> Double.isFinite(p.standardError()) && p.standardError() > 0);
        for (int i = 0; i < w.length; i++) {
            Mm1Point p = points.get(i);
            double sigma = errorsKnown ? Math.hypot(p.standardError(), curve.relativeError(p.lambda(), s) * p.meanResponse())
                    : p.meanResponse();
            w[i] = 1 / (sigma * sigma);
        }
        return w;
    }

    /** Fits s for c cores; null when no s keeps every point below the model's capacity. */
    private ScaleFit fitScale(List<Mm1Point> points, Distribution demand, int cores, int connections, boolean fine, long seed)
            throws IOException {
        int parallelism = parallelism(cores, connections);
        DemandCurve curve = kind == Kind.MG1 ? DemandCurve.pollaczekKhinchine(demand) : fine
                ? DemandCurve.tabulate(d -> model(d, cores, connections), demand, parallelism, DemandCurve.RHO, CURVE_CUSTOMERS, 20, seed)
                : DemandCurve.tabulate(d -> model(d, cores, connections), demand, parallelism, DemandCurve.COARSE_RHO, PROFILE_CUSTOMERS, 10,
                        seed);
        double maxScale = points.stream().mapToDouble(p -> curve.maxScale(p.lambda())).min().orElseThrow() * (1 - 1e-9);
        // start where the lowest-rate point is met, the demand's own scale, within the model's capacity
        double start = Math.min(1.0, 0.5 * maxScale);
        int n = points.size();
        MultivariateJacobianFunction f = params -> {
            double s = params.getEntry(0);
            RealVector value = new ArrayRealVector(n);
            RealMatrix jacobian = new Array2DRowRealMatrix(n, 1);
            double h = Math.max(1e-9, s * 1e-4);
            for (int i = 0; i < n; i++) {
                double lambda = points.get(i).lambda();
                double r = curve.meanResponse(lambda, s);
                double lower = curve.meanResponse(lambda, Math.max(s - h, 1e-12));
                value.setEntry(i, r);
                jacobian.setEntry(i, 0, (r - lower) / (s - Math.max(s - h, 1e-12)));
            }
            return new Pair<>(value, jacobian);
        };
        return WeightedLeastSquares.fit(points, weights(points, curve, start), f, new double[] {start}, p -> {
            p.setEntry(0, Math.min(Math.max(p.getEntry(0), 1e-6), maxScale));
            return p;
        }).map(optimum -> new ScaleFit(cores, demand, curve, optimum.getPoint().getEntry(0), Mm1Fits.standardErrors(optimum, n, 1)[0],
                optimum.getCost())).orElse(null);
    }

    /** The values less {@code by}, none below a nanosecond. */
    static Distribution shift(Distribution demand, double by) {
        double[] values = ((Distribution.Empirical) demand).values();
        for (int i = 0; i < values.length; i++) {
            values[i] = Math.max(1e-9, values[i] - by);
        }
        return Distribution.empirical(values);
    }

    static Distribution scale(Distribution demand, double s) {
        double[] values = ((Distribution.Empirical) demand).values();
        for (int i = 0; i < values.length; i++) {
            values[i] *= s;
        }
        return Distribution.empirical(values);
    }

    private CandidateFit unidentified(String method, List<Mm1Point> points, String reason) {
        return CandidateFit.unidentified(this, method, points, reason);
    }
}
