package io.queuelab.fit;

import java.util.List;
import java.util.function.DoubleUnaryOperator;

/**
 * The result of fitting a model to measured points: the parameters with their standard errors,
 * the residual table, the fitted curve (for a chart over the points) and whether the data
 * identify the parameters at all. The values of an unidentified fit are kept for diagnosis but
 * are not results: a rendering shows the identification's reason in their place.
 *
 * @param curve          mean response time (s) as a function of the abscissa (arrival rate); NaN
 *                       where the model has no stationary value
 * @param identification whether the parameters are identified, and the evidence
 * @param lackOfFit      whether the model explains the data (null: not tested yet); a separate
 *                       verdict, since identified parameters of a model that does not describe the
 *                       data are estimates of the wrong model
 */
public record ModelFit(String model, String method, List<Parameter> parameters, List<Residual> residuals,
                       DoubleUnaryOperator curve, Identification identification, LackOfFit lackOfFit) {

    public ModelFit(String model, String method, List<Parameter> parameters, List<Residual> residuals,
                    DoubleUnaryOperator curve, Identification identification) {
        this(model, method, parameters, residuals, curve, identification, null);
    }

    /** A fit that identified nothing: the points with no fitted value, no parameter, no curve, and {@code why}. */
    static ModelFit unidentified(String model, String method, List<Mm1Point> points, Identification why) {
        return new ModelFit(model, method, List.of(), points.stream()
                .map(p -> new Residual(p.name(), p.lambda(), p.meanResponse(), Double.NaN)).toList(), lambda -> Double.NaN, why);
    }

    /** The same fit with its lack-of-fit verdict. */
    public ModelFit withLackOfFit(LackOfFit verdict) {
        return new ModelFit(model, method, parameters, residuals, curve, identification, verdict);
    }

    /** Whether the fit was tested and the model explains the data. */
    public boolean fits() {
        return lackOfFit != null && lackOfFit.fits();
    }

    /** "fits", "does not fit: reason" or "fit not tested". */
    public String fitVerdict() {
        return lackOfFit == null ? "fit not tested" : lackOfFit.summary();
    }

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
}
