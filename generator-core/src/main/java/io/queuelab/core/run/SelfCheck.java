package io.queuelab.core.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.commons.math3.distribution.ExponentialDistribution;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;

import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;

/**
 * The generator's evidence that it kept up, so a generator bottleneck is never mistaken for a
 * server property. For each open-loop phase: the number of arrivals against rate x duration, and
 * a Kolmogorov-Smirnov test of the realized (dispatched) inter-arrival gaps against Exp(rate).
 * For the run: schedule lag percentiles, the longest request queue, drops, client CPU and GC.
 *
 * <p>Checks that fail: a phase whose arrival count is more than 4 standard deviations from
 * rate x duration (Poisson) or off by more than 2 (constant rate); a Poisson phase whose KS test
 * rejects Exp(rate) at alpha = {@value #KS_ALPHA} with a distance above {@value #KS_MAX_DISTANCE}; schedule lag p99 above {@link #LAG_P99_LIMIT};
 * any dropped request; totals that do not balance.
 */
public record SelfCheck(boolean openLoop, List<PhaseCheck> phases, long lagP50Nanos, long lagP99Nanos,
                        long lagP999Nanos, long lagMaxNanos, long maxQueueLength, long dropped,
                        double cpuSeconds, double cpuMicrosPerRequest, double gcPauseSeconds, long gcCount,
                        List<String> failures, String verdict) {

    public static final double KS_ALPHA = 0.01;
    /**
     * The KS distance a rejection must also exceed to fail the check. Each dispatch costs the
     * generator a fraction of a microsecond, which stretches the shortest gaps; with 20,000 gaps
     * the test alone detects that at rates of 10^5/s, where it moves the gap CDF by about
     * rate x loop cost, far below anything a server can tell apart. 0.05 fails a generator whose
     * realized gaps are off by 5 % of their distribution.
     */
    public static final double KS_MAX_DISTANCE = 0.05;
    public static final Duration LAG_P99_LIMIT = Duration.ofMillis(1);
    public static final String KEPT_UP = "the generator kept up";

    /**
     * @param achievedRate completions (ok or error) per second of the phase
     * @param ksD          KS distance of the realized gaps from Exp(rate); NaN where not tested
     */
    public record PhaseCheck(String name, boolean warmup, double targetRate, long scheduled, double expected,
                             double achievedRate, double ksD, double ksPValue, int ksSampleSize) {
    }

    static SelfCheck evaluate(LoadPlan plan, ArrivalRecorder arrivals, long[] completedPerPhase, long maxQueueLength,
                              LogTotals totals, double cpuSeconds, double gcSeconds, long gcCount) {
        List<PhaseCheck> phases = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        boolean open = !plan.closedLoop();
        for (int i = 0; i < plan.phases().size(); i++) {
            Phase p = plan.phases().get(i);
            double seconds = p.duration().toNanos() / 1e9;
            double achieved = completedPerPhase[i] / seconds;
            if (!open) {
                phases.add(new PhaseCheck(p.name(), p.warmup(), 0, completedPerPhase[i], Double.NaN, achieved,
                        Double.NaN, Double.NaN, 0));
                continue;
            }
            phases.add(openPhase(p, plan.arrivals(), 1, arrivals.dispatched(i), achieved, arrivals.gapSample(i),
                    "realized inter-arrival gaps", failures));
        }
        long p50 = arrivals.lag.getValueAtPercentile(50);
        long p99 = arrivals.lag.getValueAtPercentile(99);
        if (open && p99 > LAG_P99_LIMIT.toNanos()) {
            failures.add("schedule lag p99 " + Durations.format(p99) + " exceeds " + Durations.format(LAG_P99_LIMIT.toNanos()));
        }
        if (totals.dropped() > 0) {
            failures.add(totals.dropped() + " requests dropped at the queue bound (the workers could not keep up)");
        }
        if (!totals.balanced()) {
            failures.add("totals do not balance: scheduled " + totals.scheduled() + " != ok + errors + dropped + unfinished");
        }
        String verdict = failures.isEmpty() ? KEPT_UP : "the generator did not keep up: " + String.join("; ", failures);
        return new SelfCheck(open, phases, p50, p99, arrivals.lag.getValueAtPercentile(99.9), arrivals.lag.getMaxValue(),
                maxQueueLength, totals.dropped(), cpuSeconds,
                totals.scheduled() == 0 ? 0 : cpuSeconds * 1e6 / totals.scheduled(), gcSeconds, gcCount,
                List.copyOf(failures), verdict);
    }

    /**
     * The check of one open-loop phase: {@code n} arrivals of {@code schedules} independent
     * schedules against rate x duration, and (Poisson arrivals, at least 20 gaps) a KS test of the
     * gaps, in seconds, against Exp(rate). A failure is appended to {@code failures}, naming the
     * gaps {@code gapsName}; the KS test fails only outside warm-up.
     */
    public static PhaseCheck openPhase(Phase p, LoadPlan.Arrivals arrivals, int schedules, long n, double achievedRate,
                                       double[] gaps, String gapsName, List<String> failures) {
        double expected = p.rate() * (p.duration().toNanos() / 1e9);
        boolean poisson = arrivals == LoadPlan.Arrivals.POISSON;
        // a constant-rate schedule may miss or gain one arrival at each end of its phase
        if (poisson ? Math.abs(n - expected) > 4 * Math.sqrt(expected) + 1 : Math.abs(n - expected) > 2 * schedules) {
            failures.add(String.format(Locale.ROOT, "phase %s scheduled %d requests, expected %.0f", p.name(), n, expected));
        }
        double d = Double.NaN;
        double pValue = Double.NaN;
        if (poisson && gaps.length >= 20) {
            KolmogorovSmirnovTest ks = new KolmogorovSmirnovTest();
            ExponentialDistribution exp = new ExponentialDistribution(null, 1.0 / p.rate());
            d = ks.kolmogorovSmirnovStatistic(exp, gaps);
            pValue = ks.kolmogorovSmirnovTest(exp, gaps, false);
            if (!p.warmup() && pValue < KS_ALPHA && d > KS_MAX_DISTANCE) {
                failures.add(String.format(Locale.ROOT,
                        "phase %s: %s are not Exp(%.4g/s) (KS D=%.4f, p=%.2g)",
                        p.name(), gapsName, p.rate(), d, pValue));
            }
        }
        return new PhaseCheck(p.name(), p.warmup(), p.rate(), n, expected, achievedRate, d, pValue, poisson ? gaps.length : 0);
    }

    public boolean keptUp() {
        return failures.isEmpty();
    }
}
