package io.queuelab.core.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.commons.math3.analysis.solvers.UnivariateSolverUtils;
import org.apache.commons.math3.distribution.ExponentialDistribution;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;
import org.HdrHistogram.Histogram;

import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;

/**
 * The instrument's evidence that it measured the server and not itself, so a client bottleneck is
 * never mistaken for a server property.
 *
 * <p>Per open-loop phase: the arrivals against rate x duration, a Kolmogorov-Smirnov test of the
 * realized inter-arrival gaps against Exp(rate), and, beside the service time, the client's added
 * delay (sent - intended) of the requests that found an idle worker at their instant: the delay
 * the client put in front of a server that was free. For the run: schedule lag percentiles, the
 * longest queue, drops, the client's CPU (per request and as a share of the machine) and GC, and
 * the accounting, which compares numbers counted independently: the arrivals the schedule (or the
 * closed loop's jobs) put into the client against the records the logger wrote, by outcome, and
 * the schedule's sequence numbers found in the log (a lost or twice-logged request shows there
 * even when the totals happen to agree).
 *
 * <p>Checks that fail: a phase whose arrival count is more than 4 standard deviations from
 * rate x duration (Poisson) or off by more than 2 (constant rate); a Poisson phase whose realized
 * gaps are further from Exp(rate) than the tolerance allows ({@link #ksLimit}: a KS test of
 * "within {@value #KS_TOLERANCE} of Exp(rate)" at alpha = {@value #KS_ALPHA}, with the power stated there);
 * schedule lag p99 above {@link #LAG_P99_LIMIT}; a client delay p99 above both
 * {@value #CLIENT_DELAY_SHARE} of the service p99 and {@link #CLIENT_DELAY_FLOOR}; any dropped
 * request (named as the server's saturation when the schedule was on time and every worker busy);
 * accounting that does not agree; a stall of the client process itself ({@link ClientStall}), which
 * would otherwise pass for queueing behind a slow server.
 */
public record SelfCheck(boolean openLoop, List<PhaseCheck> phases, long lagP50Nanos, long lagP99Nanos,
                        long lagP999Nanos, long lagMaxNanos, long maxQueueLength, long dropped,
                        double cpuSeconds, double cpuMicrosPerRequest, double gcPauseSeconds, long gcCount,
                        List<String> failures, String verdict, double processCpuSeconds, double cpuMachineShare,
                        long lost, long duplicated, List<String> notes, List<ClientStall> clientStalls) {

    /** True when no request was scheduled (or, closed-loop, completed) outside warm-up: the run measured nothing. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean measuredNothing() {
        return failures.stream().anyMatch(f -> f.startsWith(NOTHING_MEASURED));
    }

    /** Lists a manifest of an older writer may lack are empty. */
    public SelfCheck {
        phases = phases == null ? List.of() : phases;
        failures = failures == null ? List.of() : failures;
        notes = notes == null ? List.of() : notes;
        clientStalls = clientStalls == null ? List.of() : clientStalls;
    }

    /** A self-check without client stalls (a merge of nodes, a synthetic run). */
    public SelfCheck(boolean openLoop, List<PhaseCheck> phases, long lagP50Nanos, long lagP99Nanos,
                     long lagP999Nanos, long lagMaxNanos, long maxQueueLength, long dropped,
                     double cpuSeconds, double cpuMicrosPerRequest, double gcPauseSeconds, long gcCount,
                     List<String> failures, String verdict, double processCpuSeconds, double cpuMachineShare,
                     long lost, long duplicated, List<String> notes) {
        this(openLoop, phases, lagP50Nanos, lagP99Nanos, lagP999Nanos, lagMaxNanos, maxQueueLength, dropped, cpuSeconds,
                cpuMicrosPerRequest, gcPauseSeconds, gcCount, failures, verdict, processCpuSeconds, cpuMachineShare, lost,
                duplicated, notes, List.of());
    }

    /**
     * A stall of the client process itself (it did not run at all), {@code startSeconds} after the
     * schedule's start, and the requests whose interval overlapped it (flagged in the log).
     */
    public record ClientStall(double startSeconds, double seconds, long requests) {
    }

    /**
     * The KS test's level: a phase whose realized gap distribution is within {@link #KS_TOLERANCE}
     * of Exp(rate) fails with probability at most this.
     */
    public static final double KS_ALPHA = 0.01;
    /**
     * The KS distance between the realized gap distribution and Exp(rate) that the check
     * tolerates: the null hypothesis is "the generator's gaps are within this distance of the
     * schedule's", not "they are exactly Exp(rate)". A dispatch is stamped at the worker's next
     * clock reading after the instant, a granularity c that moves the gap CDF by up to
     * 1 - exp(-rate x c), about rate x c: 0.012-0.021 at 1,000,000/s with readings ~30 ns apart
     * (docs/benchmarks.md, "the generator at 1,000,000/s"), far
     * below anything a server can tell apart, while a late generator (a dispatcher preempted or
     * blocked for a good share of a mean gap, releasing arrivals in bunches) moves it by 0.1-0.3.
     * 0.03 tolerates a per-arrival cost of 3 % of the mean gap: 30 us at 1,000/s, 60 ns at 500,000/s.
     */
    public static final double KS_TOLERANCE = 0.03;
    public static final Duration LAG_P99_LIMIT = Duration.ofMillis(1);
    /**
     * The share of the service p99 by which the client's hand-off may move the response p99 of the
     * requests that found an idle worker.
     */
    public static final double CLIENT_DELAY_SHARE = 0.10;
    /**
     * The move of the response p99 below which the check never fails: the p99 lateness of one timed
     * thread wake-up on the 2-core VMs this was built on (57-215 us measured, docs/benchmarks.md,
     * "the wake-up floor"), which no client that sleeps between requests can go below. The check is
     * on a p99, so its floor is the timer's p99: with the median's 50 us here, healthy point selects
     * at 200-2000/s on a server with a core of its own were red for moves of 57-191 us, while a
     * client without a core of its own moves it by 0.6 ms and more (docs/benchmarks.md, issue 28
     * item 11). An in-process backend's service time is near zero, so without a floor every such
     * run would fail.
     */
    public static final Duration CLIENT_DELAY_FLOOR = Duration.ofNanos(150_000);
    /**
     * The fewest requests that found an idle worker for the hand-off check to judge their p99: with
     * fewer, the p99 is their largest value, one request's luck. A saturated run has that few (only
     * its first requests find a worker free), and its verdict is the saturation, not the hand-off.
     */
    public static final long CLIENT_DELAY_MIN_REQUESTS = 100;
    public static final String KEPT_UP = "the generator kept up";
    /**
     * How every failure that names the server's saturation begins (drops at the queue bound,
     * requests unfinished at the drain, a queue that grew through a phase, each with the schedule on
     * time and the workers waiting for the server): the run measured a growing queue, not a steady
     * state at its rate.
     */
    public static final String SERVER_SATURATED = "the server was saturated";
    /** The failure that starts the verdict of a run with no request outside warm-up: it is no point of a sweep. */
    public static final String NOTHING_MEASURED = "no request was measured";
    /**
     * The share of the machine's CPU above which the verdict notes the client's cost: a server on
     * the same cores did not get that CPU (a note, not a failure: whether it mattered depends on
     * how busy the server was).
     */
    public static final double CPU_SHARE_NOTE = 0.10;

    /**
     * @param achievedRate        completions (ok or error) per second of the phase
     * @param ksD                 KS distance of the realized gaps from Exp(rate); NaN where not tested
     * @param idleWorkerRequests  requests that found an idle worker (or free in-flight place) at their instant
     * @param clientDelayP50Nanos their sent - intended, p50 (-1 where none)
     * @param clientDelayP99Nanos their sent - intended, p99 (-1 where none)
     * @param serviceP99Nanos     service time (completed - sent) of ok requests, p99 (-1 where none)
     * @param idleWorkerResponseP99Nanos response time (completed - intended) of the ok requests that found an idle
     *                            worker, p99 (-1 where none; 0 in a manifest written before it was recorded)
     * @param idleWorkerServiceP99Nanos  service time of the same requests, p99: the response p99 they would have had
     *                            with a client that added nothing
     */
    public record PhaseCheck(String name, boolean warmup, double targetRate, long scheduled, double expected,
                             double achievedRate, double ksD, double ksPValue, int ksSampleSize,
                             long idleWorkerRequests, long clientDelayP50Nanos, long clientDelayP99Nanos,
                             long serviceP99Nanos, long idleWorkerResponseP99Nanos, long idleWorkerServiceP99Nanos) {
        /** A phase check without client-delay figures (a closed loop, or a merge of nodes). */
        public PhaseCheck(String name, boolean warmup, double targetRate, long scheduled, double expected,
                          double achievedRate, double ksD, double ksPValue, int ksSampleSize) {
            this(name, warmup, targetRate, scheduled, expected, achievedRate, ksD, ksPValue, ksSampleSize, 0, -1, -1, -1, -1, -1);
        }

        PhaseCheck withDelays(Histogram clientDelay, Histogram service, Histogram idleResponse, Histogram idleService) {
            return new PhaseCheck(name, warmup, targetRate, scheduled, expected, achievedRate, ksD, ksPValue,
                    ksSampleSize, clientDelay.getTotalCount(), percentile(clientDelay, 50), percentile(clientDelay, 99),
                    percentile(service, 99), percentile(idleResponse, 99), percentile(idleService, 99));
        }

        /**
         * How much the client's hand-off moved the response p99 of the requests that found an idle
         * worker: their response p99 less their service p99 (never below 0); -1 where not measured.
         */
        public long clientAddedP99Nanos() {
            return idleWorkerServiceP99Nanos <= 0 || idleWorkerResponseP99Nanos <= 0 ? -1
                    : Math.max(0, idleWorkerResponseP99Nanos - idleWorkerServiceP99Nanos);
        }

        private static long percentile(Histogram h, double p) {
            return h.getTotalCount() == 0 ? -1 : h.getValueAtPercentile(p);
        }
    }

    /**
     * What the run counted, each number from its own source, for {@link #evaluate}.
     *
     * @param phaseSeconds      how long each phase ran: its planned duration, or up to a stop (0 after it)
     * @param logFailure        why the request log could not be written (a full disk), or null
     * @param completionSeconds per phase, from its start to the last completion of its requests (the
     *                          drain's included), at least the phase's own seconds: the time its
     *                          completions took
     */
    record Counts(long[] scheduledPerPhase, long droppedAtQueue, long[] completedPerPhase, long maxQueueLength,
                  int workers, LogTotals logged, double[] phaseSeconds, String logFailure, List<ClientStall> stalls,
                  double[] completionSeconds) {
        Counts(long[] scheduledPerPhase, long droppedAtQueue, long[] completedPerPhase, long maxQueueLength,
               int workers, LogTotals logged, double[] phaseSeconds, String logFailure) {
            this(scheduledPerPhase, droppedAtQueue, completedPerPhase, maxQueueLength, workers, logged, phaseSeconds,
                    logFailure, List.of(), phaseSeconds);
        }

        double completionSeconds(int phase) {
            return Math.max(phaseSeconds[phase], completionSeconds[phase]);
        }
    }

    static SelfCheck evaluate(LoadPlan plan, ArrivalRecorder arrivals, Counts counts, ClientCost.Measured cost) {
        List<PhaseCheck> phases = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        boolean open = !plan.closedLoop();
        long measuredRequests = 0;
        for (int i = 0; i < plan.phases().size(); i++) {
            Phase p = plan.phases().get(i);
            double seconds = counts.phaseSeconds()[i];
            // over the time the completions took: a drain's completions over the phase's length alone
            // made 1,278/s look like 3,836/s
            double span = counts.completionSeconds(i);
            double achieved = span > 0 ? counts.completedPerPhase()[i] / span : 0;
            if (!p.warmup()) {
                measuredRequests += open ? counts.scheduledPerPhase()[i] : counts.completedPerPhase()[i];
            }
            PhaseCheck check = open
                    ? openPhase(p, seconds, plan.arrivals(), 1, counts.scheduledPerPhase()[i], achieved,
                    arrivals.gapSample(i), "realized inter-arrival gaps", failures)
                    : new PhaseCheck(p.name(), p.warmup(), 0, counts.completedPerPhase()[i], Double.NaN, achieved,
                    Double.NaN, Double.NaN, 0);
            check = check.withDelays(arrivals.clientDelay(i), arrivals.service(i), arrivals.idleResponse(i), arrivals.idleService(i));
            if (open && !p.warmup()) {
                clientDelay(check, failures);
            }
            phases.add(check);
        }
        long p50 = arrivals.lag.getValueAtPercentile(50);
        long p99 = arrivals.lag.getValueAtPercentile(99);
        boolean onSchedule = p99 <= LAG_P99_LIMIT.toNanos();
        if (open && !onSchedule) {
            failures.add("schedule lag p99 " + Durations.format(p99) + " exceeds " + Durations.format(LAG_P99_LIMIT.toNanos()));
        }
        if (measuredRequests == 0) {
            // nothing to judge is not a run that kept up (a sweep counted it as finished); said first
            failures.add(0, NOTHING_MEASURED + ": none was " + (open ? "scheduled" : "completed") + " outside warm-up "
                    + "(lengthen the run or raise the rate)");
        }
        for (ClientStall stall : counts.stalls()) {
            failures.add(String.format(Locale.ROOT, "the client itself stalled (did not run at all) for %s from %.3f s after the "
                            + "start: the %d requests it touched include the stall in their times, which are not measurements "
                            + "of the server (flagged client_stall in the log)",
                    Durations.format((long) (stall.seconds() * 1e9)), stall.startSeconds(), stall.requests()));
        }
        LogTotals totals = counts.logged();
        if (counts.logFailure() != null) {
            failures.add("the request log could not be written (" + counts.logFailure() + "): the run was stopped, and the "
                    + "records after the last chunk on disk are missing from the log (the totals count them)");
        }
        double serverShare = serverShare(plan, arrivals, counts);
        boolean serverSaturated = onSchedule && serverShare >= 0.5;
        int serverFailures = 0;
        if (totals.dropped() > 0) {
            failures.add(overload(totals.dropped(), counts, phases, onSchedule, serverShare));
            serverFailures += serverSaturated ? 1 : 0;
        }
        if (open && totals.unfinished() > 0) {
            failures.add(unfinished(totals.unfinished(), counts, phases, serverSaturated, serverShare));
            serverFailures += serverSaturated ? 1 : 0;
        } else if (open && serverSaturated && totals.dropped() == 0 && counts.maxQueueLength() > counts.workers()) {
            String grew = queueGrew(counts, phases);
            if (grew != null) {
                failures.add(grew);
                serverFailures++;
            }
        }
        long lost = 0;
        long duplicated = 0;
        if (!totals.balanced()) {
            failures.add("totals do not balance: " + totals.scheduled() + " requests scheduled, "
                    + totals.logged() + " logged (ok + errors + dropped + unfinished)");
        }
        if (open) {
            lost = Math.max(0, totals.scheduled() - arrivals.distinctLogged());
            duplicated = arrivals.duplicated();
            if (lost > 0) {
                failures.add(lost + " scheduled requests never reached the log");
            }
            if (duplicated > 0) {
                failures.add(duplicated + " requests were logged more than once");
            }
            if (counts.droppedAtQueue() != totals.dropped()) {
                failures.add("the schedule dropped " + counts.droppedAtQueue() + " requests but the log holds "
                        + totals.dropped() + " dropped records");
            }
        }
        // when the server's saturation is all that failed, the headline says so rather than blame the generator
        // nor does a run that measured nothing: it is no point of a curve, whoever is to blame
        String verdict = failures.isEmpty() ? KEPT_UP
                : serverFailures == failures.size() || measuredRequests == 0 ? String.join("; ", failures)
                : "the generator did not keep up: " + String.join("; ", failures);
        List<String> notes = new ArrayList<>();
        if (cost.machineShare() > CPU_SHARE_NOTE) {
            notes.add(cost.pinned()
                    ? String.format(Locale.ROOT, "the client used %.0f %% of the %d cpu%s it was pinned to outside warm-up",
                    cost.machineShare() * 100, cost.cores(), cost.cores() == 1 ? "" : "s")
                    : String.format(Locale.ROOT, "the client used %.0f %% of the machine's %d cores outside warm-up: a server "
                    + "on the same machine did not get that CPU", cost.machineShare() * 100, cost.cores()));
        }
        return new SelfCheck(open, phases, p50, p99, arrivals.lag.getValueAtPercentile(99.9), arrivals.lag.getMaxValue(),
                counts.maxQueueLength(), totals.dropped(), cost.cpuSeconds(),
                measuredRequests == 0 ? 0 : cost.cpuSeconds() * 1e6 / measuredRequests, cost.gcSeconds(), cost.gcCount(),
                List.copyOf(failures), verdict, cost.processCpuSeconds(), cost.machineShare(), lost, duplicated,
                List.copyOf(notes), List.copyOf(counts.stalls()));
    }

    /**
     * Fails a phase where the client's hand-off visibly moved what was measured: the response p99 of
     * the requests that found an idle worker (at least {@link #CLIENT_DELAY_MIN_REQUESTS} of them)
     * exceeds their own service p99 by more than {@link #CLIENT_DELAY_SHARE} of it (and by more than
     * {@link #CLIENT_DELAY_FLOOR}). The test is on
     * the measured distribution, not on the hand-off's own tail: a delay that hits a request now and
     * then (a timer's tail, ~150 us on a VM) moves the p99 of the responses little, while a client
     * that delays many requests, or some by far (a stall, a client without a core), moves it at once.
     */
    private static void clientDelay(PhaseCheck c, List<String> failures) {
        long added = c.clientAddedP99Nanos();
        if (added < 0 || c.idleWorkerRequests() < CLIENT_DELAY_MIN_REQUESTS) {
            return;
        }
        double share = (double) added / c.idleWorkerServiceP99Nanos();
        if (share > CLIENT_DELAY_SHARE && added > CLIENT_DELAY_FLOOR.toNanos()) {
            failures.add(String.format(Locale.ROOT, "phase %s: the client's hand-off (p50 %s, p99 %s) moved the response p99 of "
                            + "the requests that found an idle worker by %s = %.0f %% of their service p99 %s",
                    c.name(), Durations.format(c.clientDelayP50Nanos()), Durations.format(c.clientDelayP99Nanos()),
                    Durations.format(added), share * 100, Durations.format(c.idleWorkerServiceP99Nanos())));
        }
    }

    /**
     * The share of the workers' time (workers x measured phases) that requests spent at the
     * server: near 1 when the server kept every worker waiting, near 0 when the workers were busy
     * with the client's own work.
     */
    private static double serverShare(LoadPlan plan, ArrivalRecorder arrivals, Counts counts) {
        double service = 0;
        double seconds = 0;
        for (int i = 0; i < plan.phases().size(); i++) {
            if (!plan.phases().get(i).warmup()) {
                service += arrivals.serviceNanos(i) / 1e9;
                seconds += counts.phaseSeconds()[i];
            }
        }
        int workers = counts.workers();
        return seconds == 0 ? 0 : Math.min(1, service / (seconds * workers));
    }

    /**
     * Requests still queued or in flight when the drain timeout ran out: with the schedule on time
     * and the workers waiting for the server, the server was saturated (its throughput is what the
     * run measured of it); otherwise the client did not keep up.
     */
    private static String unfinished(long unfinished, Counts counts, List<PhaseCheck> phases, boolean serverSaturated,
                                     double serverShare) {
        String rates = phases.stream().filter(p -> !p.warmup())
                .map(p -> String.format(Locale.ROOT, "%s %.4g/s against %.4g/s arriving", p.name(), p.achievedRate(), p.targetRate()))
                .reduce((a, b) -> a + ", " + b).orElse("-");
        String share = String.format(Locale.ROOT, "%.0f %%", serverShare * 100);
        if (serverSaturated) {
            return SERVER_SATURATED + ": " + unfinished + " requests were still queued or in flight when the drain "
                    + "timeout ran out (the schedule was on time, the " + counts.workers() + " workers spent " + share
                    + " of their time waiting for the server; it completed " + rates + ")";
        }
        return unfinished + " requests were still queued or in flight when the drain timeout ran out: the client's "
                + counts.workers() + " workers could not keep up (they spent only " + share + " of their time waiting for "
                + "the server; completed " + rates + ")";
    }

    /**
     * A server that fell behind the arrivals and caught up only after the phase: every request
     * completed (none dropped or unfinished), but a queue longer than the workers built up (checked
     * by the caller) and the measured phase's requests took more than {@link #DRAIN_SHARE} longer
     * than the phase to complete. Their response times are those of a growing queue, not of a
     * steady state at the phase's rate. The drain's share is the phase's length against the time
     * its completions took, free of the arrival count's Poisson noise. Null when no measured phase
     * fell behind.
     */
    private static String queueGrew(Counts counts, List<PhaseCheck> phases) {
        List<String> behind = new ArrayList<>();
        for (int i = 0; i < phases.size(); i++) {
            PhaseCheck p = phases.get(i);
            double seconds = counts.phaseSeconds()[i];
            double span = counts.completionSeconds(i);
            if (!p.warmup() && seconds > 0 && span > seconds * (1 + DRAIN_SHARE)) {
                behind.add(String.format(Locale.ROOT, "%s completed %.4g/s of the %.4g/s that arrived (its requests took %.1f s to"
                        + " complete against the phase's %.1f s)", p.name(), p.achievedRate(), p.scheduled() / seconds, span, seconds));
            }
        }
        return behind.isEmpty() ? null : SERVER_SATURATED + ": the queue grew to " + counts.maxQueueLength() + " with the "
                + counts.workers() + " workers waiting for the server, and " + String.join(", ", behind)
                + ": the response times are of a growing queue, not of a steady state at this rate";
    }

    /** How much longer than its phase a measured phase's completions may take before the server is said to have fallen behind. */
    static final double DRAIN_SHARE = 0.10;

    /**
     * Names the bottleneck of a run that dropped requests: with the schedule on time and the
     * workers' time spent waiting for the server, the server did not serve the requests as fast
     * as they came; with the workers' time spent elsewhere, the client did not.
     */
    private static String overload(long dropped, Counts counts, List<PhaseCheck> phases, boolean onSchedule,
                                   double serverShare) {
        String service = phases.stream().filter(p -> !p.warmup() && p.serviceP99Nanos() >= 0)
                .map(p -> p.name() + " " + Durations.format(p.serviceP99Nanos())).reduce((a, b) -> a + ", " + b)
                .orElse("-");
        String share = String.format(Locale.ROOT, "%.0f %%", serverShare * 100);
        if (onSchedule && serverShare >= 0.5) {
            return SERVER_SATURATED + ": " + dropped + " requests dropped at the queue bound (the schedule was on time, "
                    + "the " + counts.workers() + " workers spent " + share + " of their time waiting for the server, the "
                    + "queue reached " + counts.maxQueueLength() + "; service p99 " + service + ")";
        }
        if (onSchedule) {
            return dropped + " requests dropped at the queue bound: the client's " + counts.workers() + " workers could "
                    + "not keep up (they spent only " + share + " of their time waiting for the server; service p99 "
                    + service + ")";
        }
        return dropped + " requests dropped at the queue bound (the schedule was late as well: the client could not "
                + "keep up)";
    }

    /**
     * The check of one open-loop phase: {@code n} arrivals of {@code schedules} independent
     * schedules against rate x duration, and (Poisson arrivals, at least 20 gaps) a KS test of the
     * gaps, in seconds, against Exp(rate). A failure is appended to {@code failures}, naming the
     * gaps {@code gapsName}; the KS test fails only outside warm-up.
     */
    public static PhaseCheck openPhase(Phase p, LoadPlan.Arrivals arrivals, int schedules, long n, double achievedRate,
                                       double[] gaps, String gapsName, List<String> failures) {
        return openPhase(p, p.duration().toNanos() / 1e9, arrivals, schedules, n, achievedRate, gaps, gapsName, failures);
    }

    /** As above, for a phase that ran {@code seconds} (cut short by a stop). */
    static PhaseCheck openPhase(Phase p, double seconds, LoadPlan.Arrivals arrivals, int schedules, long n,
                                double achievedRate, double[] gaps, String gapsName, List<String> failures) {
        double expected = p.rate() * seconds;
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
            double limit = ksLimit(gaps.length);
            if (!p.warmup() && d > limit) {
                failures.add(String.format(Locale.ROOT,
                        "phase %s: %s are not Exp(%.4g/s) (KS D=%.4f above the limit %.4f: tolerance %.2f + the %.0f %% "
                                + "critical distance at n=%d)",
                        p.name(), gapsName, p.rate(), d, limit, KS_TOLERANCE, KS_ALPHA * 100, gaps.length));
            }
        }
        return new PhaseCheck(p.name(), p.warmup(), p.rate(), n, expected, achievedRate, d, pValue, poisson ? gaps.length : 0);
    }

    /**
     * The KS distance above which {@code n} realized gaps fail the check: {@link #KS_TOLERANCE}
     * plus the distance that n draws from Exp(rate) itself exceed with probability
     * {@link #KS_ALPHA} (Commons Math's KS distribution). By the triangle inequality
     * (D <= distance of the true gap distribution + distance of the sample from it):
     * <ul>
     *   <li>level: gaps whose true distribution is within the tolerance of Exp(rate) fail with
     *       probability at most {@link #KS_ALPHA};</li>
     *   <li>power: gaps whose true distribution is at least {@link #ksDetectedDistance(int)} away
     *       fail with probability at least 0.99. At the largest sample, {@value GapSample#CAPACITY}
     *       gaps, the limit is 0.0415 and the distance detected with power 0.99 is 0.053; at 1,000
     *       gaps (a 10 s phase at 100/s) 0.081 and 0.132.</li>
     * </ul>
     */
    public static double ksLimit(int n) {
        return KS_TOLERANCE + ksCriticalDistance(n, KS_ALPHA);
    }

    /** The KS distance of the true gap distribution from Exp(rate) that n gaps fail with probability 0.99. */
    public static double ksDetectedDistance(int n) {
        return ksLimit(n) + ksCriticalDistance(n, 0.01);
    }

    /** The KS distance that n draws from the hypothesized distribution itself exceed with probability alpha. */
    static double ksCriticalDistance(int n, double alpha) {
        KolmogorovSmirnovTest ks = new KolmogorovSmirnovTest();
        return UnivariateSolverUtils.solve(x -> 1 - ks.cdf(x, n) - alpha, 0.5 / n, 1, 1e-7);
    }

    /** This check with more failures (found after it was made: a merge's damaged node log). */
    public SelfCheck withFailures(List<String> more) {
        List<String> all = new ArrayList<>(failures);
        all.addAll(more);
        String told = failures.isEmpty() ? String.join("; ", more) : verdict + "; " + String.join("; ", more);
        return new SelfCheck(openLoop, phases, lagP50Nanos, lagP99Nanos, lagP999Nanos, lagMaxNanos, maxQueueLength, dropped,
                cpuSeconds, cpuMicrosPerRequest, gcPauseSeconds, gcCount, List.copyOf(all), told, processCpuSeconds,
                cpuMachineShare, lost, duplicated, notes, clientStalls);
    }

    /**
     * The failure that names the server's saturation, if any ({@link #SERVER_SATURATED}): such a
     * run's responses are those of a growing queue, no point of a steady-state curve.
     */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public java.util.Optional<String> serverSaturation() {
        return failures.stream().filter(f -> f.startsWith(SERVER_SATURATED)).findFirst();
    }

    public boolean keptUp() {
        return failures.isEmpty();
    }
}
