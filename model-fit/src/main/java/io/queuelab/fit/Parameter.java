package io.queuelab.fit;

/**
 * One fitted parameter: its value, standard error (NaN where the method gives none) and unit.
 */
public record Parameter(String name, double value, double standardError, String unit) {

    public static Parameter of(String name, double value, String unit) {
        return new Parameter(name, value, Double.NaN, unit);
    }
}
