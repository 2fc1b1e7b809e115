package io.queuelab.reports.fit;

import java.util.List;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;

/**
 * The result of fitting a model to measured points: the parameters with their standard errors,
 * the residual table, the fitted curve (for a chart over the points) and whether the data
 * identify the parameters at all. The values of an unidentified fit are kept for diagnosis but
 * are not results: {@link #toTable()} shows its reason in their place.
 *
 * @param curve          mean response time (s) as a function of the abscissa (arrival rate); NaN
 *                       where the model has no stationary value
 * @param identification whether the parameters are identified, and the evidence
 */
public record ModelFit(String model, String method, List<Parameter> parameters, List<Residual> residuals,
                       DoubleUnaryOperator curve, Identification identification) {

    public boolean identified() {
        return identification.identified();
    }

    public Parameter parameter(String name) {
        return parameters.stream().filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no parameter " + name + " in " + method));
    }

    public double value(String name) {
        return parameter(name).value();
    }

    /** Root-mean-square relative residual. */
    public double rmsRelativeResidual() {
        return Math.sqrt(residuals.stream().mapToDouble(r -> r.relative() * r.relative()).average().orElse(Double.NaN));
    }

    /**
     * A plain-text table: parameters, then residuals; for an unidentified fit, "not identified:
     * reason" and the measured points only.
     */
    public String toTable() {
        StringBuilder s = new StringBuilder();
        s.append(model).append(" - ").append(method).append('\n');
        if (!identified()) {
            s.append("  ").append(identification.summary()).append('\n');
            s.append(String.format(Locale.ROOT, "  %-24s %10s %12s%n", "run", "x", "measured"));
            for (Residual r : residuals) {
                s.append(String.format(Locale.ROOT, "  %-24s %10.4g %12.6g%n", r.name(), r.x(), r.measured()));
            }
            return s.toString();
        }
        s.append("  ").append(identification.summary()).append('\n');
        for (Parameter p : parameters) {
            s.append(String.format(Locale.ROOT, "  %-10s %14.6g  +- %-12.4g %s%n", p.name(), p.value(), p.standardError(), p.unit()));
        }
        s.append(String.format(Locale.ROOT, "  %-24s %10s %12s %12s %10s%n", "run", "x", "measured", "fitted", "residual"));
        for (Residual r : residuals) {
            s.append(String.format(Locale.ROOT, "  %-24s %10.4g %12.6g %12.6g %9.2f%%%n",
                    r.name(), r.x(), r.measured(), r.fitted(), 100 * r.relative()));
        }
        return s.toString();
    }
}
