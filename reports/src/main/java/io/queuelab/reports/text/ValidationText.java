package io.queuelab.reports.text;

import io.queuelab.fit.CandidateFit;
import io.queuelab.fit.FitServer;
import io.queuelab.fit.HeldOutValidation;
import io.queuelab.fit.HeldOutValidation.ModelOutcome;
import io.queuelab.fit.HeldOutValidation.Result;
import io.queuelab.fit.RepeatedRuns;
import io.queuelab.fit.RunPrediction;
import io.queuelab.fit.runs.ServerWork;

import java.util.List;
import java.util.Locale;

/**
 * The plain-text rendering of a held-out validation ({@link HeldOutValidation.Result}): the table
 * {@code queuelab validate} prints, and the table of predicted vs measured runs that {@code fit}
 * prints too. A load a model cannot carry is printed as its saturation, never as a number.
 */
public final class ValidationText {
    private ValidationText() {
    }

    /** The plain-text table {@code validate} prints. */
    public static String toTable(Result result) {
        StringBuilder s = new StringBuilder();
        result.leftOut().forEach(note -> s.append(note).append('\n'));
        result.notes().forEach(note -> s.append(note).append('\n'));
        s.append("system: ").append(result.limits()).append('\n');
        result.clientTime().ifPresent(t -> s.append(t.describeUse()).append('\n'));
        if (result.fitServer().known()) {
            s.append("server of the fit runs (medians): ").append(result.fitServer().medians()).append("; each run's 'server' below is its"
                    + " own over theirs at its load (the fit runs' cpu per request interpolated in the server's busy fraction; a closed"
                    + " run's load from its measured throughput), cpu speed / cpu per request (1.10 = a cpu 10 % slower, or 10 % more cpu per"
                    + " request, than the fit runs' server at that load)\n");
        }
        for (RepeatedRuns.Group g : result.repeats()) {
            s.append("repeated load ").append(g.load()).append(" (").append(g.runs()).append("), the server's own spread: ")
                    .append(g.describe()).append('\n');
        }
        for (ModelOutcome o : result.models()) {
            CandidateFit f = o.fit();
            s.append('\n').append(f.name()).append(": ").append(FitTables.of(f.fit()));
            if (!o.fitRuns().isEmpty()) {
                s.append("  fit runs (the model's prediction of the runs it was fitted to):\n");
                appendPredictions(s, o.fitRuns(), result.fitServer());
            }
            if (!o.predictions().isEmpty()) {
                s.append(String.format(Locale.ROOT, "  held-out runs (error %s: mean |relative error| of mean, p50, p99, plus KS D beyond its yardstick):%n",
                        o.describeHeldOutError()));
                appendPredictions(s, o.predictions(), result.fitServer());
                appendRepeats(s, result.repeats(), o.predictions());
            }
        }
        s.append('\n').append(result.selected() == null ? "selected: none (no model is identified by these runs)"
                : "selected: " + result.selected() + " (smallest held-out error" + fitsNote(result.model(result.selected()).fit()) + ")").append('\n');
        return s.toString();
    }

    private static String fitsNote(CandidateFit fit) {
        return fit.fit().fits() ? "; it fits its runs" : "; " + fit.fit().fitVerdict();
    }

    /** A table of predicted vs measured runs, as {@code validate} and {@code fit} print it. */
    public static void appendPredictions(StringBuilder s, List<RunPrediction> runs) {
        appendPredictions(s, runs, FitServer.UNKNOWN);
    }

    /** As {@link #appendPredictions(StringBuilder, List)}, with each run's server over the fit runs' at its load, when known. */
    public static void appendPredictions(StringBuilder s, List<RunPrediction> runs, FitServer fitServer) {
        boolean server = fitServer.known();
        s.append(String.format(Locale.ROOT, "  %-26s %10s %21s %21s %21s %15s%s%n", "run", "rate/N", "mean ms (meas/pred)",
                "p50 ms (meas/pred)", "p99 ms (meas/pred)", "KS D / yardst.", server ? "  server" : ""));
        for (RunPrediction r : runs) {
            String load = r.closed() ? "N=" + (int) r.level() : String.format(Locale.ROOT, "%.4g/s", r.level());
            if (r.saturated()) {
                s.append(String.format(Locale.ROOT, "  %-26s %10s %10.3f/%-10s %10.3f/%-10s %10.3f/%-10s the model is %s%n", r.name(), load,
                        1e3 * r.measuredMean(), "-", 1e3 * r.measuredP50(), "-", 1e3 * r.measuredP99(), "-", r.saturation()));
                continue;
            }
            ServerWork atItsLoad = fitServer.at(r);
            s.append(String.format(Locale.ROOT, "  %-26s %10s %10.3f/%-10.3f %10.3f/%-10.3f %10.3f/%-10.3f %6.3f/%-6.3f %s%s%n",
                    r.name(), load,
                    1e3 * r.measuredMean(), 1e3 * r.predictedMean(), 1e3 * r.measuredP50(), 1e3 * r.predictedP50(),
                    1e3 * r.measuredP99(), 1e3 * r.predictedP99(), r.ks(), r.ksYardstick(),
                    server ? " " + r.server().over(atItsLoad).ratios() + r.server().differenceFrom(atItsLoad).map(d -> " (another server: "
                            + d + ")").orElse("") + " " : "",
                    r.cdfVerdict()));
            if (r.closed()) {
                s.append(String.format(Locale.ROOT, "  %-26s %10s throughput X(N) %.4g/s measured, %.4g/s predicted (%+.1f %%)%n", "", "",
                        r.measuredThroughput(), r.predictedThroughput(),
                        100 * r.throughputError()));
            }
            if (r.atOwnServer() != null) {
                s.append(String.format(Locale.ROOT, "  %-26s %10s %s%n", "", "", ownServer(r)));
            }
            if (r.replay() != null) {
                s.append(String.format(Locale.ROOT, "  %-26s %10s %s%n", "", "", serverReplay(r)));
            }
            if (r.commits() != null) {
                s.append(String.format(Locale.ROOT, "  %-26s %10s %s%n", "", "", commitsPerFlush(r.commits())));
            }
        }
    }

    /** "commits per flush 2.96 predicted, 3.01 counted by the server (-1.7 %)": the model against the server's own count. */
    public static String commitsPerFlush(RunPrediction.CommitsPerFlush c) {
        return Double.isFinite(c.counted())
                ? String.format(Locale.ROOT, "commits per flush %.2f predicted, %.2f counted by the server (commits / Innodb_data_fsyncs,"
                + " %+.1f %%)", c.predicted(), c.counted(), 100 * c.error())
                : String.format(Locale.ROOT, "commits per flush %.2f predicted (the run has no commit and fsync counters)", c.predicted());
    }

    /** Each repeated load's prediction by one model, judged against the runs' spread. */
    private static void appendRepeats(StringBuilder s, List<RepeatedRuns.Group> repeats, List<RunPrediction> predictions) {
        if (repeats.isEmpty()) {
            return;
        }
        s.append("  repeated loads (within: no farther from the runs' pooled value than the runs are from each other; the KS D to every"
                + " run no larger than between two runs):\n");
        for (RepeatedRuns.Group g : repeats) {
            s.append(String.format(Locale.ROOT, "  %-26s %s%n", g.load(), g.judge(predictions).describe(g)));
        }
    }

    /** "at its own server (the demand x0.76): mean 46.1 ms (-21.0 %), ..." for a run whose server was not the fit runs'. */
    public static String ownServer(RunPrediction r) {
        RunPrediction.AtOwnServer o = r.atOwnServer();
        if (Double.isNaN(o.mean())) {
            return String.format(Locale.ROOT, "at its own server (the demand x%.2f): the model saturates at this load", o.factor());
        }
        return String.format(Locale.ROOT, "at its own server (the demand x%.2f): mean %.3f ms (%+.1f %%), p50 %.3f ms (%+.1f %%), p99 %.3f ms"
                        + " (%+.1f %%)%s", o.factor(), 1e3 * o.mean(), HeldOutValidation.percent(o.mean(), r.measuredMean()), 1e3 * o.p50(),
                HeldOutValidation.percent(o.p50(), r.measuredP50()), 1e3 * o.p99(), HeldOutValidation.percent(o.p99(), r.measuredP99()),
                r.closed() ? String.format(Locale.ROOT, ", X(N) %.4g/s (%+.1f %%)", o.throughput(), HeldOutValidation.percent(o.throughput(), r.measuredThroughput()))
                        : "");
    }

    /**
     * "replaying its server interval by interval (cpu per request 0.91-1.45 of the fit runs'): mean
     * 44.4 ms (-4.3 %), ..., KS D 0.052" for a run whose server telemetry gives its cpu per request by interval.
     */
    public static String serverReplay(RunPrediction r) {
        RunPrediction.ServerReplay o = r.replay();
        String head = String.format(Locale.ROOT, "replaying its server interval by interval (cpu per request %.2f-%.2f of the fit runs')",
                o.minFactor(), o.maxFactor());
        if (Double.isNaN(o.mean())) {
            return head + ": the model saturates";
        }
        return String.format(Locale.ROOT, "%s: mean %.3f ms (%+.1f %%), p50 %.3f ms (%+.1f %%), p99 %.3f ms (%+.1f %%), KS D %.3f", head,
                1e3 * o.mean(), HeldOutValidation.percent(o.mean(), r.measuredMean()), 1e3 * o.p50(), HeldOutValidation.percent(o.p50(), r.measuredP50()), 1e3 * o.p99(),
                HeldOutValidation.percent(o.p99(), r.measuredP99()), o.ks());
    }

}
