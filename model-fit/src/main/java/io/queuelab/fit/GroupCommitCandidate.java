package io.queuelab.fit;

import io.queuelab.fit.runs.LogCounters;
import io.queuelab.fit.runs.RunData;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.Distribution;
import io.queuelab.sim.FittedModel;
import io.queuelab.sim.GroupCommitModel;
import org.apache.commons.math3.optim.InitialGuess;
import org.apache.commons.math3.optim.MaxEval;
import org.apache.commons.math3.optim.SimpleBounds;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.apache.commons.math3.optim.nonlinear.scalar.ObjectiveFunction;
import org.apache.commons.math3.optim.nonlinear.scalar.noderiv.BOBYQAOptimizer;
import org.apache.commons.math3.optim.univariate.BrentOptimizer;
import org.apache.commons.math3.optim.univariate.SearchInterval;
import org.apache.commons.math3.optim.univariate.UnivariateObjectiveFunction;
import org.apache.commons.math3.optim.univariate.UnivariatePointValuePair;

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
 *   <li>the latency outside: the client time measured apart ({@link ClientTime}, a round-trip run
 *       among the fit runs), and then the flush of one commit is what it leaves of those requests'
 *       time beside their cpu, and only p is matched to the counters (Brent's method); without a
 *       round trip the split of that time into a flush of one commit and a latency is matched with
 *       p (a constant latency: the requests that a stall of the server reached are not alone).</li>
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
                        + " commits per fsync at each fit load; its shape from the requests served alone; the latency: the client time of"
                        + " round trips (SELECT 1) where the fit runs include them (the flush of one commit is then what it leaves), else their"
                        + " response less their cpu and flush",
                "every request commits and waits for its flush; one flush at a time; the fsync counter counts the log's flushes",
                "writes (UPDATE, INSERT) on InnoDB or another store with a group-committed log, with the server's counters sampled",
                "`group-commit` (the cpu, K, c, the flush F0 + p b), the latency outside the queue");
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
                + " per fsync at each fit load; its shape from the lowest-rate run's requests served alone; the latency: their response"
                + " less their cpu and flush";
        if (points.isEmpty()) {
            return unidentified(method, points, "no open run to fit");
        }
        SystemLimits limits = data.limits();
        if (limits.whyNotBothKnown().isPresent()) {
            return unidentified(method, points, limits.whyNotBothKnown().get());
        }
        int k = limits.connections(), c = limits.cores();
        Optional<LoadDemand> load = data.loadDemand();
        if (load.isEmpty()) {
            return unidentified(method, points, "the fit runs did not sample the server's cpu (host resources with the server's pid:"
                    + " --telemetry-interval)");
        }
        LoadDemand cpuByLoad = load.get();
        // the server's cpu per request at each rate: it falls with the load (0.194 ms at 25 % busy, 0.076 ms at 88 % on demo d)
        java.util.function.DoubleUnaryOperator cpuAt = cpuByLoad::atRate;
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

        // A request alone takes its time before the send (the hand-off; in a simulated run the latency), its cpu, a flush of one
        // commit, and the latency outside (in a measured run inside its service time): the flush of one commit, F0 + p, is at
        // most that response less the cpu, and the latency is what the flush leaves of it. The search runs over F(1) as a share
        // of that bound and over p as a share of F(1), so that neither can leave a negative latency
        double beforeSend = ServedAlone.meanBeforeSend(data.lowestRate()).orElse(0);
        double aloneResponse = aloneMean + beforeSend;
        double cpuAlone = cpuAt.applyAsDouble(data.lowestRate().arrivalRate());
        double bound = aloneResponse - cpuAlone;
        if (!(bound > 0)) {
            return unidentified(method, points, String.format(Locale.ROOT, "the server's cpu per request at %s's load (%.4f ms) is no"
                    + " less than what its requests served alone take (%.4f ms): the cpu counted is not only the requests'",
                    data.lowestRate().name(), cpuAlone * 1e3, aloneResponse * 1e3));
        }
        double[] rates = counted.stream().mapToDouble(x -> x[0]).toArray();
        double[] perFsync = counted.stream().mapToDouble(x -> x[1]).toArray();
        java.util.function.ToDoubleFunction<double[]> misfit = x -> {
            double s = 0;
            Distribution flush = flush(alone, aloneMean, x[0] * bound * (1 - x[1])); // the same at every rate
            for (int i = 0; i < rates.length; i++) {
                GroupCommitModel m = model(cpuAt.applyAsDouble(rates[i]), k, c, flush, x[0] * bound * x[1]);
                double b = commitsPerFlush(m, rates[i], data.seed());
                s += Double.isFinite(b) ? Math.pow(Math.log(b / perFsync[i]), 2) : 100;
            }
            return s;
        };
        double[] lower = {1e-3, 0}, upper = {1, 1};
        double[] best;
        Optional<ClientTime> clientTime = data.clientTime();
        if (clientTime.isPresent()) {
            // the client time measured apart is the latency: the flush of one commit is what it leaves, and only p is fitted
            double share = (bound - clientTime.get().open().seconds()) / bound;
            if (!(share >= lower[0])) {
                return unidentified(method, points, String.format(Locale.ROOT, "the client time (%.4f ms, %s) leaves no flush in what"
                        + " %s's requests served alone take beside their cpu (%.4f ms)", clientTime.get().open().seconds() * 1e3,
                        clientTime.get().open().run(), data.lowestRate().name(), bound * 1e3));
            }
            UnivariatePointValuePair p1 = new BrentOptimizer(1e-4, 1e-6).optimize(new MaxEval(100), GoalType.MINIMIZE,
                    new SearchInterval(0, 1), new UnivariateObjectiveFunction(x -> misfit.applyAsDouble(new double[] {share, x})));
            best = new double[] {share, p1.getPoint()};
        } else {
            // the most loaded run's flushes back to back: a flush ~ commits per fsync / rate there
            int last = rates.length - 1;
            double[] start = {Math.min(0.9, Math.max(0.01, perFsync[last] / rates[last] / bound)), 0.1};
            try {
                best = new BOBYQAOptimizer(5, 0.05, 1e-4).optimize(new MaxEval(300), new ObjectiveFunction(misfit::applyAsDouble),
                        GoalType.MINIMIZE, new InitialGuess(start), new SimpleBounds(lower, upper)).getPoint();
            } catch (org.apache.commons.math3.exception.TooManyEvaluationsException e) {
                return unidentified(method, points, "the flush's F0 and p did not converge in 300 trials");
            }
        }
        double flushOfOne = best[0] * bound;
        double p = flushOfOne * best[1], f0 = flushOfOne - p;
        Distribution flush = flush(alone, aloneMean, f0);
        java.util.function.DoubleFunction<GroupCommitModel> openAt = lambda -> model(cpuAt.applyAsDouble(lambda), k, c, flush, p);
        double latency = bound - flushOfOne;
        double flooredLatency = Math.max(0, latency);
        double closedLatency = data.latency(true, flooredLatency);
        List<Residual> residuals = new ArrayList<>();
        StringBuilder perRun = new StringBuilder();
        for (int i = 0; i < rates.length; i++) {
            perRun.append(String.format(Locale.ROOT, "%s%.4g/s: %.2f counted, %.2f modelled", i == 0 ? "" : "; ", rates[i], perFsync[i],
                    commitsPerFlush(openAt.apply(rates[i]), rates[i], data.seed())));
        }
        for (Mm1Point pt : points) {
            residuals.add(new Residual(pt.name(), pt.lambda(), pt.meanResponse(), mean(openAt.apply(pt.lambda()), flooredLatency, pt.lambda(),
                    data.seed())));
        }
        Identification.Checks checks = new Identification.Checks()
                .note(String.format(Locale.ROOT, "cpu per request (server counters) %.4f-%.4f ms over the fit loads, flush %.4f ms + %.4f ms"
                        + " a commit, latency %.4f ms (the requests served alone less their cpu and flush), c = %d, K = %d",
                        cpuAt.applyAsDouble(rates[rates.length - 1]) * 1e3, cpuAt.applyAsDouble(rates[0]) * 1e3, f0 * 1e3, p * 1e3,
                        latency * 1e3, c, k))
                .note("commits per flush: " + perRun)
                // the upper end is a latency of 0, which a server on the same machine may rightly have (the cpu counted per request
                // at a light load holds its wake-ups and network work): said, not refused; a flush of nothing is no group commit
                .notPinned("the flush of one commit, as a share of what a request alone leaves beside its cpu,", best[0],
                        lower[0], Double.POSITIVE_INFINITY)
                .note(clientTime.isPresent() ? "latency: the client time, measured apart (" + clientTime.get().runs() + ")"
                        : best[0] > 0.999 ? "the counters' flush takes all that a request alone leaves beside its cpu: latency 0"
                        : "the flush of one commit is " + Math.round(100 * best[0]) + " % of what a request alone leaves beside"
                        + " its cpu")
                .residuals(points, residuals);
        List<Parameter> parameters = List.of(Parameter.of("cpu", cpuByLoad.median(), "s"), Parameter.of("F0", f0, "s"), Parameter.of("p", p, "s"),
                Parameter.of("latency", flooredLatency, "s"), Parameter.of("c", c, "cores"), Parameter.of("K", k, "connections"));
        ModelFit fit = new ModelFit(description(), method, parameters, residuals, lambda -> mean(openAt.apply(lambda), flooredLatency, lambda,
                data.seed()), checks.result());
        if (!fit.identified()) {
            return CandidateFit.unidentified(NAME, parameters(), fit);
        }
        // a closed run of N jobs holds N connections; its cpu per request is the server's at the load the jobs make
        return new CandidateFit(NAME, parameters(), fit, lambda -> new FittedModel(NAME, openAt.apply(lambda), flooredLatency),
                jobs -> new FittedModel(NAME, closedAt(jobs, cpuByLoad, c, flush, p, closedLatency, data.seed()),
                        closedLatency), null);
    }

    /**
     * The model of a closed run of {@code jobs}: its cpu per request the server's at the busy fraction
     * the jobs keep it at, found by a few rounds of: simulate, busy = X(N) cpu / c, cpu = the
     * counters' at that busy fraction (from the most loaded fit run's cpu); one job keeps a server
     * far from busy (a quarter on demo d), many keep it busy.
     */
    static GroupCommitModel closedAt(int jobs, LoadDemand cpuByLoad, int c, Distribution flush, double p, double latency, long seed) {
        double cpu = cpuByLoad.saturated();
        for (int round = 0; round < 3; round++) {
            try {
                double x = new FittedModel(NAME, model(cpu, jobs, c, flush, p), latency)
                        .predict(ArrivalProcess.closed(jobs), FIT_CUSTOMERS, 1, seed).throughput();
                cpu = cpuByLoad.at(Math.min(1, x * cpu / c)); // the busy fraction of the c cores, as the counters' points are
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return model(cpu, jobs, c, flush, p);
    }

    /** Flushes of mean F0: the requests served alone about their mean, moved to F0 (floored at 0). */
    static Distribution flush(double[] alone, double aloneMean, double f0) {
        double[] flush = new double[alone.length];
        for (int i = 0; i < alone.length; i++) {
            flush[i] = Math.max(0, f0 + alone[i] - aloneMean);
        }
        return Distribution.empirical(flush);
    }

    /**
     * The model with these flushes. The cpu is exponential of the counters' mean: its spread cannot
     * be told from the flush's in a request alone, and a constant cpu would keep closed jobs in
     * lock-step (all leaving their shared cores at once, all in one flush), which no server does.
     */
    static GroupCommitModel model(double cpu, int k, int c, Distribution flush, double p) {
        return new GroupCommitModel(Distribution.exponential(cpu), k, c, flush, p, 0);
    }

    private static double commitsPerFlush(GroupCommitModel m, double rate, long seed) {
        if (!m.stableAt(rate)) {
            return Double.NaN;
        }
        try {
            // the latency outside the server moves no commit from one flush to another
            return new FittedModel(NAME, m, 0).predict(ArrivalProcess.open(rate), FIT_CUSTOMERS, 1, seed).commitsPerFlush();
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
