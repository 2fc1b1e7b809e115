package io.queuelab.fit;

import io.queuelab.fit.runs.RunData;

import java.util.List;
import java.util.Locale;

/**
 * The dirty-page-buffer model configured from measurements exactly as seed 004 section 4.2 does
 * it (models.md section 3), from three runs:
 * <ul>
 * <li>a closed run with many concurrent requests: min(T_pause) from its gap distribution, T_pause
 *     = the mean of its departure gaps longer than that, and its throughput P_closed;</li>
 * <li>an open run at a high rate: the flush period p (median time between its flushes, found by
 *     the same {@link FlushDetector} as every other run's, from its own busy gaps) and its
 *     throughput P; DPB_max = P p;</li>
 * <li>a closed run with one request: E[T] and min T.</li>
 * </ul>
 * Then E[T_dp] = T_pause / DPB_max, E[T_proc] = 1/P_closed - E[T_dp], E[T_nd] = E[T] - E[T_proc]
 * - E[T_dp]; T_nd = c + Exp(E[T_nd] - c) with c the shortest response time of the N = 1 run.
 *
 * <p>T_proc's distribution is not taken as exponential, as the paper's magnetic disk allowed: a
 * real server's normal period is often far from it (e.g. bimodal). Its shape is the N = 1 run's
 * response times outside flushes (all but the 1/DPB_max longest: with one job, one request in
 * DPB_max waits through a flush) less T_nd's constant c, scaled to the mean E[T_proc], where that
 * shape is farther than {@link #EXPONENTIAL_ENOUGH} (KS D) from an exponential; nearer, T_proc
 * stays the paper's exponential. {@link #exponentialProcessing()} gives the paper's form.
 *
 * @param normalPeriod the N = 1 run's responses outside flushes less c (seconds), the shape of T_proc; null for Exp
 */
public record DpbFit(double processingMean, double networkDelayConstant, double networkDelayMean,
                     int bufferPages, double dirtyPageMean,
                     double flushPeriodSeconds, double openThroughput, double pauseThresholdSeconds,
                     double meanPauseSeconds, double closedThroughput, double singleMeanResponse,
                     Flushes openFlushes, Flushes closedFlushes, io.queuelab.sim.Distribution normalPeriod) {

    public static DpbFit fit(RunData openHighRate, RunData closedHighN, RunData closedSingle) {
        return fit(openHighRate, closedHighN, closedSingle, Double.NaN);
    }

    /**
     * The fit with min(T_pause) given, as the paper sets it "by examining" a run, in place of
     * each run's own {@link FlushDetector#threshold}: both runs' pauses are then the gaps longer
     * than it. Where a flush is not one clean stop but a stretch in which a few requests still
     * get through (a modern InnoDB's LRU flush batches), the automatic threshold cuts it into many
     * short pauses, and the flush period comes out as the spacing of those.
     *
     * @param minPauseSeconds min(T_pause) in seconds, or NaN for each run's own threshold
     */
    public static DpbFit fit(RunData openHighRate, RunData closedHighN, RunData closedSingle, double minPauseSeconds) {
        boolean given = !Double.isNaN(minPauseSeconds);
        if (given && !(minPauseSeconds > 0 && minPauseSeconds < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("min(T_pause) must be a positive number of seconds, got " + minPauseSeconds);
        }
        double threshold = given ? minPauseSeconds : FlushDetector.threshold(closedHighN);
        Flushes closedFlushes = FlushDetector.detect(closedHighN, threshold);
        if (closedFlushes.count() == 0) {
            throw new IllegalArgumentException("no flush pauses longer than " + fmt(threshold) + " s in " + closedHighN.name()
                    + ": the dirty-page-buffer model does not apply (or the run is too short)");
        }
        Flushes openFlushes = given ? FlushDetector.detect(openHighRate, threshold) : FlushDetector.detect(openHighRate);
        if (openFlushes.count() < 2) {
            throw new IllegalArgumentException("fewer than two flushes in " + openHighRate.name() + ": no flush period");
        }
        double period = openFlushes.periodSeconds();
        double openThroughput = openHighRate.throughput();
        int dpbMax = (int) Math.max(1, Math.round(openThroughput * period));
        double pause = closedFlushes.meanPauseSeconds();
        double dirtyPage = pause / dpbMax;
        double closedThroughput = closedHighN.throughput();
        double processing = 1 / closedThroughput - dirtyPage;
        if (!(processing > 0)) {
            // a modern InnoDB flushes adaptively: short pauses can pass the gap threshold without being buffer flushes
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
                    "the pauses found do not fit the dirty-page-buffer model: E[T_proc] = 1/P - E[T_dp] = %.3g s"
                            + " (P %.4g/s from %s, E[T_dp] = %.3g s from %d pauses of %.3g s over DPB_max %d): no periodic flushes",
                    processing, closedThroughput, closedHighN.name(), dirtyPage, closedFlushes.count(), pause, dpbMax));
        }
        double single = closedSingle.meanResponseSeconds();
        double networkDelay = single - processing - dirtyPage;
        double constant = Math.min(closedSingle.responseNanos().getMinValue() / 1e9, networkDelay);
        io.queuelab.sim.Distribution normal = null;
        try {
            // the normal period's responses less the network delay's constant part: the shape of T_proc. With one job
            // and no think time exactly one request in DPB_max follows a flush and waits through it: those are the
            // 1/DPB_max longest responses, left out
            double cut = closedSingle.quantileSeconds(1 - 1.0 / dpbMax);
            double[] values = ((io.queuelab.sim.Distribution.Empirical) ServiceDemand.responsesBelow(closedSingle, cut,
                    DemandModelFit.DEMAND_VALUES)).values();
            for (int i = 0; i < values.length; i++) {
                values[i] = Math.max(0, values[i] - constant);
            }
            io.queuelab.sim.Distribution shape = io.queuelab.sim.Distribution.empirical(values);
            // an empirical shape carries the sampling noise of one run: keep the paper's exponential where it describes
            // the normal period as well as any yardstick of a few thousand requests could tell
            normal = shape.mean() > 0 && distanceFromExponential(values) > EXPONENTIAL_ENOUGH ? shape : null;
        } catch (IllegalArgumentException noneShorter) {
            // every response of the N = 1 run met a flush: keep the paper's exponential
        }
        return new DpbFit(processing, constant, networkDelay - constant, dpbMax, dirtyPage, period, openThroughput,
                threshold, pause, closedThroughput, single, openFlushes, closedFlushes, normal);
    }

    /**
     * The KS distance of the normal period's shape from an exponential of the same mean below
     * which T_proc stays exponential (the paper's form): about what a comparison of a few
     * thousand requests can resolve (1.36 / sqrt(n) = 0.05 at n = 740).
     */
    static final double EXPONENTIAL_ENOUGH = 0.05;

    /** KS D between the values and the exponential distribution of their mean. */
    static double distanceFromExponential(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        double mean = java.util.Arrays.stream(sorted).average().orElse(0);
        double d = 0;
        for (int i = 0; i < sorted.length; i++) {
            double f = 1 - Math.exp(-sorted[i] / mean);
            d = Math.max(d, Math.max(Math.abs((double) (i + 1) / sorted.length - f), Math.abs((double) i / sorted.length - f)));
        }
        return d;
    }

    /** The same fit with the paper's exponential T_proc. */
    public DpbFit exponentialProcessing() {
        return new DpbFit(processingMean, networkDelayConstant, networkDelayMean, bufferPages, dirtyPageMean, flushPeriodSeconds,
                openThroughput, pauseThresholdSeconds, meanPauseSeconds, closedThroughput, singleMeanResponse, openFlushes,
                closedFlushes, null);
    }

    /** E[T_nd] = c + the exponential part's mean. */
    public double networkDelayTotal() {
        return networkDelayConstant + networkDelayMean;
    }

    /**
     * Whether the flushes found pin the model down: the mean pause (hence E[T_dp]) and the flush
     * period (hence DPB_max) within {@link Identification#MAX_RELATIVE_ERROR} of their values,
     * and a network delay E[T_nd] = E[T] - E[T_proc] - E[T_dp] that is not negative.
     */
    public Identification identification() {
        return new Identification.Checks()
                .note(closedFlushes.count() + " pauses in the closed run, " + openFlushes.count() + " flushes in the open run")
                .relativeError("T_pause", closedFlushes.meanPauseStandardError(), meanPauseSeconds, "T_pause")
                .relativeError("the flush period", openFlushes.periodStandardError(), flushPeriodSeconds, "the period")
                .require(networkDelayTotal() >= 0, String.format(Locale.ROOT,
                        "E[T_nd] = E[T] - E[T_proc] - E[T_dp] = %.4g s is negative: the N = 1 run is faster than the fitted"
                                + " processing and flush work", networkDelayTotal()))
                .result();
    }

    /** The fitted parameters in the form of the paper's Table 1 (name, value) rows. */
    public List<String[]> table1() {
        return List.of(
                new String[] {"T_proc", normalPeriod == null ? "Exp(" + ms(processingMean) + ")"
                        : "mean " + ms(processingMean) + ", shaped as the N = 1 run's responses outside flushes less c"},
                new String[] {"T_nd", ms(networkDelayConstant) + " + Exp(" + ms(networkDelayMean) + ")"},
                new String[] {"DPB_max", Integer.toString(bufferPages)},
                new String[] {"T_dp", "Exp(" + ms(dirtyPageMean) + ")"});
    }

    /** How each value was obtained (the intermediate measurements). */
    public List<String[]> measurements() {
        return List.of(
                new String[] {"min(T_pause), closed run", ms(pauseThresholdSeconds)},
                new String[] {"T_pause (mean of " + closedFlushes.count() + " pauses)", ms(meanPauseSeconds)},
                new String[] {"P, closed run", fmt(closedThroughput) + " /s"},
                new String[] {"min(T_pause), open run", ms(openFlushes.thresholdSeconds())},
                new String[] {"flush period p, open run (" + openFlushes.count() + " flushes)", fmt(flushPeriodSeconds) + " s"},
                new String[] {"P, open run", fmt(openThroughput) + " /s"},
                new String[] {"E[T], N = 1", ms(singleMeanResponse)});
    }

    /** The fitted model as every prediction, refinement and yardstick simulates it (no latency: T_nd is the model's own stage). */
    public io.queuelab.sim.FittedModel fitted() {
        return new io.queuelab.sim.FittedModel("dpb", model(), 0);
    }

    /** The same fit with E[T_proc], E[T_dp] and DPB_max set (a refinement's), T_nd and T_proc's shape kept. */
    public DpbFit withRefined(double processingMean, double dirtyPageMean, int bufferPages) {
        return new DpbFit(processingMean, networkDelayConstant, networkDelayMean, bufferPages, dirtyPageMean, flushPeriodSeconds,
                openThroughput, pauseThresholdSeconds, meanPauseSeconds, closedThroughput, singleMeanResponse, openFlushes,
                closedFlushes, normalPeriod);
    }

    /** The parameters as model-sim's DPB arguments (procMean, ndConstant, ndMean, dpbMax, dpMean). */
    public io.queuelab.sim.DirtyPageBufferModel model() {
        io.queuelab.sim.DirtyPageBufferModel exponential = io.queuelab.sim.DirtyPageBufferModel.of(processingMean,
                networkDelayConstant, Math.max(1e-9, networkDelayMean), bufferPages, dirtyPageMean);
        if (normalPeriod == null) {
            return exponential;
        }
        return new io.queuelab.sim.DirtyPageBufferModel(exponential.networkDelay(),
                DemandModelFit.scale(normalPeriod, processingMean / normalPeriod.mean()), bufferPages, exponential.dirtyPage());
    }

    /**
     * Whether the model explains the open run it was fitted from (its response-time CDF against the
     * model's at its rate, within the simulation-noise yardstick: {@link LackOfFit}), and what it
     * predicts for runs it was not fitted to, each from its rate (open) or N (closed) alone.
     *
     * @param heldOut runs measured with the same server and load, none of the three the fit took
     */
    public TestedDpb tested(RunData openHighRate, List<RunData> heldOut, long seed) throws java.io.IOException {
        io.queuelab.sim.FittedModel fitted = fitted();
        RunPrediction open = RunPrediction.open(openHighRate.source().toString(), openHighRate, fitted, seed);
        List<RunPrediction> predictions = new java.util.ArrayList<>();
        for (RunData run : heldOut) {
            predictions.add(RunPrediction.of(run.source().toString(), run, fitted, seed));
        }
        return new TestedDpb(this, LackOfFit.test(List.of(), List.of(), null, 0, List.of(open)), open, List.copyOf(predictions));
    }

    /**
     * A DPB fit with its lack-of-fit verdict on the open run it was fitted from, and its
     * predictions of the held-out runs.
     */
    public record TestedDpb(DpbFit fit, LackOfFit lackOfFit, RunPrediction open, List<RunPrediction> heldOut) {
        /** How many held-out runs' measured response-time CDF is within simulation noise of the predicted one. */
        public long heldOutWithinNoise() {
            return heldOut.stream().filter(RunPrediction::withinYardstick).count();
        }

        /** "predicts: CDF within simulation noise at k of n held-out runs", or empty without held-out runs. */
        public String predictionSummary() {
            return heldOut.isEmpty() ? "" : String.format(Locale.ROOT,
                    "predicts: response-time CDF within simulation noise at %d of %d held-out runs", heldOutWithinNoise(), heldOut.size());
        }
    }

    /** A time in seconds written in milliseconds (the unit of every response-time table). */
    static String ms(double seconds) {
        return String.format(Locale.ROOT, "%.4g ms", seconds * 1e3);
    }

    static String fmt(double v) {
        return String.format(Locale.ROOT, "%.4g", v);
    }
}
