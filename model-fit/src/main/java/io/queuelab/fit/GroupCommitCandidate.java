package io.queuelab.fit;

import io.queuelab.fit.runs.LogCounters;
import io.queuelab.fit.runs.RunData;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.Distribution;
import io.queuelab.sim.FittedModel;
import io.queuelab.sim.GroupCommitModel;
import io.queuelab.sim.Simulation;
import org.apache.commons.math3.optim.InitialGuess;
import org.apache.commons.math3.optim.MaxEval;
import org.apache.commons.math3.optim.PointValuePair;
import org.apache.commons.math3.optim.SimpleBounds;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.apache.commons.math3.optim.nonlinear.scalar.ObjectiveFunction;
import org.apache.commons.math3.optim.nonlinear.scalar.noderiv.BOBYQAOptimizer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The group-commit model ({@link GroupCommitModel}) of a write workload on a server that shares
 * its log flushes: every part of it measured apart from the response times but one constant.
 * <ul>
 *   <li>K and c: the system's limits; the cpu per request: the server process's own cpu counters
 *       (the fit runs' median, {@link LoadDemand});</li>
 *   <li>the flush, its fixed part F0 and what each commit adds p: the server's own count of commits
 *       per fsync at each fit load ({@link LogCounters}), matched by the model's commits per flush
 *       (a simulation at each fit rate; BOBYQA over F0 and p, the same seed every time);</li>
 *   <li>the flush's shape: the spread of the lowest-rate run's requests served alone
 *       ({@link ServedAlone}: cpu and one flush of one commit, nothing shared) about their mean;</li>
 *   <li>the latency outside: the one constant taken from a response time, the lowest-rate run's
 *       mean response less the model's there (the modified M/M/1's l is taken the same way).</li>
 * </ul>
 * Not identified without K and c, the server's cpu counters, 100 requests served alone in the
 * lowest-rate run, or the commit and fsync counters of two fit runs or more (a read-only workload
 * commits nothing to share).
 */
final class GroupCommitCandidate implements CandidateModel {
    static final String NAME = "group-commit";
    /** Customers of each simulation the fit of F0 and p runs (at each fit rate, for each trial). */
    static final int FIT_CUSTOMERS = 20_000;
    /** Customers of each simulated fitted mean (the residuals). */
    static final int MEAN_CUSTOMERS = 60_000;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "client queue -> K connections -> cpu on c cores shared -> one log flush at a time carrying every waiting commit";
    }

    @Override
    public Card card() {
        return new Card("client queue, K connections, the cpu on c cores shared, then one log flush at a time that carries every commit"
                + " waiting when it starts (group commit); a constant latency outside",
                "the cpu per request from the server's cpu counters; the flush (a fixed part and a part per commit) from the server's"
                        + " commits per fsync at each fit load; its shape from the requests served alone; the latency: the lowest-rate run's mean"
                        + " response less the model's",
                "every request commits and waits for its flush; one flush at a time; the fsync counter counts the log's flushes",
                "writes (UPDATE, INSERT) on InnoDB or another store with a group-committed log, with the server's counters sampled");
    }

    /** F0 and p, from the counters (not the response times). */
    @Override
    public int parameters() {
        return 2;
    }

    /** The flush is the storage's time, not a demand: a server doing more work per request does not flush longer. */
    @Override
    public boolean demandScalable() {
        return false;
    }

    @Override
    public CandidateFit fit(FitData data) throws IOException {
        List<Mm1Point> points = data.points();
        String method = "measured: cpu per request from the server's cpu counters; the flush F0 + p b (b commits) from the server's commits"
                + " per fsync at each fit load; its shape from the lowest-rate run's requests served alone; the latency: that run's mean"
                + " response less the model's";
        if (points.isEmpty()) {
            return unidentified(method, points, "no open run to fit");
        }
        SystemLimits limits = data.limits();
        if (limits.connections() == 0 || !limits.coresKnown()) {
            return unidentified(method, points, "the client's connections K and the server's cores c must be known (" + limits + ")");
        }
        int k = limits.connections(), c = limits.cores();
        Optional<LoadDemand> load = data.loadDemand();
        if (load.isEmpty()) {
            return unidentified(method, points, "the fit runs did not sample the server's cpu (host resources with the server's pid:"
                    + " --telemetry-interval)");
        }
        double cpu = load.get().median();
        List<double[]> counted = new ArrayList<>(); // {rate, commits per fsync}
        for (RunData r : data.runs()) {
            LogCounters.of(r).ifPresent(n -> counted.add(new double[] {r.arrivalRate(), n.commitsPerFsync()}));
        }
        if (counted.size() < 2) {
            return unidentified(method, points, "the server's commit and fsync counters (server-status.csv: Com_update, Com_insert,"
                    + " Innodb_data_fsyncs) of two fit runs or more are needed; " + counted.size() + " had them (a read-only workload"
                    + " commits nothing)");
        }
        Optional<Distribution> aloneTimes = ServedAlone.of(data.lowestRate(), DemandModelFit.DEMAND_VALUES);
        if (aloneTimes.isEmpty()) {
            return unidentified(method, points, "fewer than " + ServedAlone.MIN_REQUESTS + " requests of " + data.lowestRate().name()
                    + " were served alone (a flush of one commit is read from them)");
        }
        double[] alone = ((Distribution.Empirical) aloneTimes.get()).values();
        double aloneMean = java.util.Arrays.stream(alone).average().orElseThrow();

        // F0 and p in units of the time a request alone takes, so the search's steps are of the data's own scale
        double unit = aloneMean;
        double[] rates = counted.stream().mapToDouble(x -> x[0]).toArray();
        double[] perFsync = counted.stream().mapToDouble(x -> x[1]).toArray();
        java.util.function.ToDoubleFunction<double[]> misfit = x -> {
            GroupCommitModel m = model(cpu, k, c, alone, aloneMean, x[0] * unit, x[1] * unit);
            double s = 0;
            for (int i = 0; i < rates.length; i++) {
                double b = commitsPerFlush(m, rates[i], data.seed());
                s += Double.isFinite(b) ? Math.pow(Math.log(b / perFsync[i]), 2) : 100;
            }
            return s;
        };
        double[] lower = {1e-3, 0}, upper = {1, 1};
        // the most loaded run's flushes back to back: F0 ~ commits per fsync / rate there
        int last = rates.length - 1;
        double[] start = {Math.min(0.9, Math.max(0.01, perFsync[last] / rates[last] / unit)), 0.01};
        PointValuePair best;
        try {
            best = new BOBYQAOptimizer(5, 0.05, 1e-4).optimize(new MaxEval(300), new ObjectiveFunction(misfit::applyAsDouble),
                    GoalType.MINIMIZE, new InitialGuess(start), new SimpleBounds(lower, upper));
        } catch (org.apache.commons.math3.exception.TooManyEvaluationsException e) {
            return unidentified(method, points, "the flush's F0 and p did not converge in 300 trials");
        }
        double f0 = best.getPoint()[0] * unit, p = best.getPoint()[1] * unit;
        GroupCommitModel fitted = model(cpu, k, c, alone, aloneMean, f0, p);
        // the latency: what the lowest-rate run's mean response holds beyond the model's there (a measured run's service
        // times hold the network's round trip, a simulated run's do not: the mean response holds it in both)
        Mm1Point lowest = points.get(0);
        double latency = lowest.meanResponse() - mean(fitted, 0, lowest.lambda(), data.seed());
        double flooredLatency = Math.max(0, latency);

        List<Residual> residuals = new ArrayList<>();
        StringBuilder perRun = new StringBuilder();
        for (int i = 0; i < rates.length; i++) {
            perRun.append(String.format(Locale.ROOT, "%s%.4g/s: %.2f counted, %.2f modelled", i == 0 ? "" : "; ", rates[i], perFsync[i],
                    commitsPerFlush(fitted, rates[i], data.seed())));
        }
        for (Mm1Point pt : points) {
            residuals.add(new Residual(pt.name(), pt.lambda(), pt.meanResponse(), mean(fitted, flooredLatency, pt.lambda(), data.seed())));
        }
        Identification.Checks checks = new Identification.Checks()
                .note(String.format(Locale.ROOT, "cpu %.4f ms a request (server counters), flush %.4f ms + %.4f ms a commit, latency %.4f ms,"
                        + " c = %d, K = %d", cpu * 1e3, f0 * 1e3, p * 1e3, latency * 1e3, c, k))
                .note("commits per flush: " + perRun)
                .require(latency > -0.05 * lowest.meanResponse(), String.format(Locale.ROOT, "the model's mean response at %.4g/s"
                        + " (%.4f ms) exceeds the measured %.4f ms: the fsyncs counted are not the log's flushes a request waits for",
                        lowest.lambda(), (lowest.meanResponse() - latency) * 1e3, lowest.meanResponse() * 1e3))
                .notPinned("F0", best.getPoint()[0], lower[0], upper[0])
                .residuals(points, residuals);
        List<Parameter> parameters = List.of(Parameter.of("cpu", cpu, "s"), Parameter.of("F0", f0, "s"), Parameter.of("p", p, "s"),
                Parameter.of("latency", flooredLatency, "s"), Parameter.of("c", c, "cores"), Parameter.of("K", k, "connections"));
        ModelFit fit = new ModelFit(description(), method, parameters, residuals, lambda -> mean(fitted, flooredLatency, lambda, data.seed()),
                checks.result());
        if (!fit.identified()) {
            return CandidateFit.unidentified(NAME, parameters(), fit);
        }
        // a closed run of N jobs holds N connections
        return new CandidateFit(NAME, parameters(), fit, lambda -> new FittedModel(NAME, fitted, flooredLatency),
                jobs -> new FittedModel(NAME, new GroupCommitModel(fitted.cpu(), jobs, c, fitted.flush(), fitted.perCommit(), 0),
                        flooredLatency), null);
    }

    /**
     * The model with flushes of mean F0: the requests served alone about their mean, moved to F0
     * (floored at 0). The cpu is exponential of the counters' mean: its spread cannot be told from
     * the flush's in a request alone, and a constant cpu would keep closed jobs in lock-step (all
     * leaving their shared cores at once, all in one flush), which no server does.
     */
    static GroupCommitModel model(double cpu, int k, int c, double[] alone, double aloneMean, double f0, double p) {
        double[] flush = new double[alone.length];
        for (int i = 0; i < alone.length; i++) {
            flush[i] = Math.max(0, f0 + alone[i] - aloneMean);
        }
        return new GroupCommitModel(Distribution.exponential(cpu), k, c, Distribution.empirical(flush), p, 0);
    }

    private static double commitsPerFlush(GroupCommitModel m, double rate, long seed) {
        if (!m.stableAt(rate)) {
            return Double.NaN;
        }
        try {
            return Simulation.of(m, ArrivalProcess.open(rate)).customers(FIT_CUSTOMERS).replications(1).seed(seed).run().flushSize()
                    .orElseThrow().value();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static double mean(GroupCommitModel m, double latency, double rate, long seed) {
        if (!m.stableAt(rate)) {
            return Double.NaN;
        }
        try {
            return new FittedModel(NAME, m, latency).predict(ArrivalProcess.open(rate), MEAN_CUSTOMERS, 1, seed).meanResponse();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private CandidateFit unidentified(String method, List<Mm1Point> points, String reason) {
        return CandidateFit.unidentified(this, method, points, reason);
    }
}
