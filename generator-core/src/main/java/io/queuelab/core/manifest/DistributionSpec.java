package io.queuelab.core.manifest;

/**
 * A distribution of a simulated run's model or workload, as model-sim describes it; times in
 * seconds. Which fields are set depends on {@code type}.
 *
 * @param type            {@code exponential} (mean), {@code deterministic} (value),
 *                        {@code shifted-exponential} (shift + Exp(exponentialMean)) or
 *                        {@code empirical} (values: the sample's size, mean)
 * @param mean            an exponential's or an empirical sample's mean
 * @param value           a deterministic value
 * @param shift           a shifted exponential's shift
 * @param exponentialMean a shifted exponential's exponential part's mean
 * @param values          an empirical distribution's sample size
 */
public record DistributionSpec(String type, Double mean, Double value, Double shift, Double exponentialMean,
                               Integer values) {
}
