package io.queuelab.fit;

import java.util.Locale;

/** A validation's outcome in a few lines, for the tests' diagnostics (validate's own table is the reports' ValidationText). */
public final class Outcomes {
    private Outcomes() {
    }

    public static String describe(HeldOutValidation.Result result) {
        StringBuilder s = new StringBuilder("selected: " + result.selected() + "\n");
        for (HeldOutValidation.ModelOutcome o : result.models()) {
            s.append(o.fit().name()).append(": ").append(o.fit().identified() ? "identified" : o.fit().fit().identification().summary());
            if (!o.predictions().isEmpty()) {
                s.append(", held-out error ").append(o.describeHeldOutError());
            }
            s.append('\n');
            for (RunPrediction p : o.predictions()) {
                s.append(String.format(Locale.ROOT, "  %s %s: mean %.4g/%.4g ms, p99 %.4g/%.4g ms, X %.4g/%.4g/s, KS %.3f/%.3f%s%n", p.name(),
                        p.closed() ? "N=" + (int) p.level() : p.level() + "/s", 1e3 * p.measuredMean(), 1e3 * p.predictedMean(),
                        1e3 * p.measuredP99(), 1e3 * p.predictedP99(), p.measuredThroughput(), p.predictedThroughput(), p.ks(),
                        p.ksYardstick(), p.saturated() ? " " + p.saturation() : ""));
            }
        }
        return s.toString();
    }
}
