package io.queuelab.reports.text;

import io.queuelab.fit.DpbFit;
import io.queuelab.fit.ModelFit;
import io.queuelab.fit.Parameter;
import io.queuelab.fit.Residual;
import io.queuelab.fit.SimulationRefinement;
import io.queuelab.fit.compare.Comparison;
import io.queuelab.fit.compare.Verdict;

import java.util.Locale;

/**
 * The plain-text tables of a fit, a refinement and a comparison, as {@code queuelab fit},
 * {@code compare} and {@code validate} print them. The model library computes; this renders: an
 * unidentified fit's values are not results, and its table shows the reason in their place.
 */
public final class FitTables {
    private FitTables() {
    }

    /**
     * A fit: its identification and verdict, the parameters, then the residuals; for an
     * unidentified fit, "not identified: reason" and the measured points only.
     */
    public static String of(ModelFit fit) {
        StringBuilder s = new StringBuilder();
        s.append(fit.model()).append(" - ").append(fit.method()).append('\n');
        s.append("  ").append(fit.identification().summary()).append('\n');
        if (!fit.identified()) {
            s.append(String.format(Locale.ROOT, "  %-24s %10s %12s%n", "run", "x", "measured"));
            for (Residual r : fit.residuals()) {
                s.append(String.format(Locale.ROOT, "  %-24s %10.4g %12.6g%n", r.name(), r.x(), r.measured()));
            }
            return s.toString();
        }
        s.append("  ").append(fit.fitVerdict()).append('\n');
        // the parameters of a model that does not fit are estimates of the wrong model: say so on each
        String label = fit.lackOfFit() != null && !fit.lackOfFit().fits() ? "  (of a model that does not fit)" : "";
        for (Parameter p : fit.parameters()) {
            s.append(String.format(Locale.ROOT, "  %-10s %14.6g  +- %-12.4g %s%s%n", p.name(), p.value(), p.standardError(), p.unit(), label));
        }
        s.append(String.format(Locale.ROOT, "  %-24s %10s %12s %12s %10s%n", "run", "x", "measured", "fitted", "residual"));
        for (Residual r : fit.residuals()) {
            s.append(String.format(Locale.ROOT, "  %-24s %10.4g %12.6g %12.6g %9.2f%%%n",
                    r.name(), r.x(), r.measured(), r.fitted(), 100 * r.relative()));
        }
        return s.toString();
    }

    /** The DPB fit as the paper's Table 1 and the measurements it came from; for an unidentified fit, the reason in place of Table 1. */
    public static String of(DpbFit fit) {
        StringBuilder s = new StringBuilder("Dirty-page-buffer model (seed 004, Table 1 form)\n");
        s.append("  ").append(fit.identification().summary()).append('\n');
        if (fit.identification().identified()) {
            for (String[] row : fit.table1()) {
                s.append(String.format(Locale.ROOT, "  %-8s %s%n", row[0], row[1]));
            }
        }
        s.append("from:\n");
        for (String[] row : fit.measurements()) {
            s.append(String.format(Locale.ROOT, "  %-44s %s%n", row[0], row[1]));
        }
        return s.toString();
    }

    /** A DPB fit refined by simulation: the refined parameters and the distance before and after. */
    public static String of(SimulationRefinement.DpbRefinement refined) {
        DpbFit fit = refined.fit();
        SimulationRefinement.Result result = refined.result();
        return String.format(Locale.ROOT,
                "Refined by simulation (min Wasserstein-1, Nelder-Mead, common random numbers, %d evaluations)%n"
                        + "  E[T_proc] %.4g s (%s)%n  DPB_max   %d%n  T_dp      Exp(%.4g)%n  W1 %.4g s -> %.4g s%n",
                result.evaluations(), fit.processingMean(), fit.normalPeriod() == null ? "exponential"
                        : "shaped as the N = 1 run's normal period", fit.bufferPages(), fit.dirtyPageMean(),
                result.startDistance(), result.distance());
    }

    /** A measured run against a simulated one, metric by metric, each distance beside its yardstick. */
    public static String of(Comparison c) {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
                "measured %s (%d requests) vs simulated %s (%d requests); yardstick: %d pairs of replications of %d%n",
                c.measuredName(), c.measuredCount(), c.simulatedName(), c.simulatedCount(), c.yardstickPairs(), c.measuredCount()));
        s.append(String.format(Locale.ROOT, "  %-14s %12s %12s %12s %12s  %s%n", "metric", "measured", "simulated", "distance", "yardstick", "verdict"));
        for (Verdict r : c.rows()) {
            s.append(String.format(Locale.ROOT, "  %-14s %12s %12s %12.5g %12.5g  %s%n", r.metric(),
                    Double.isNaN(r.measured()) ? "" : String.format(Locale.ROOT, "%.5g", r.measured()),
                    Double.isNaN(r.simulated()) ? "" : String.format(Locale.ROOT, "%.5g", r.simulated()),
                    r.distance(), r.yardstick(), r.verdict()));
        }
        return s.toString();
    }
}
