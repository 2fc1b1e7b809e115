package io.queuelab.fit;

import io.queuelab.fit.runs.IntervalSeries;
import io.queuelab.fit.runs.RunData;
import org.apache.commons.math3.stat.descriptive.moment.StandardDeviation;

import java.util.ArrayList;
import java.util.List;

/**
 * One open-loop run reduced to what the M/M/1 fits need: its arrival rate (per second), mean
 * response time (seconds), number of successful requests and the standard error of that mean
 * (seconds; NaN when unknown).
 */
public record Mm1Point(String name, double lambda, double meanResponse, long n, double standardError) {
    /** Time sections of a run whose means give the standard error of its mean. */
    static final int SECTIONS = 20;

    public Mm1Point {
        if (!(lambda > 0) || !(meanResponse > 0) || n < 1) {
            throw new IllegalArgumentException("run " + name + " has no usable rate or mean response (lambda "
                    + lambda + ", mean " + meanResponse + ", n " + n + ")");
        }
    }

    /** A point whose mean has no known standard error. */
    public Mm1Point(String name, double lambda, double meanResponse, long n) {
        this(name, lambda, meanResponse, n, Double.NaN);
    }

    /** The measured arrival rate and exact mean response time of a run, with a sectioning standard error. */
    public static Mm1Point of(RunData run) {
        return new Mm1Point(run.name(), run.arrivalRate(), run.meanResponseSeconds(), run.okCount(), sectioningError(run.series()));
    }

    /**
     * The standard error of the mean by sectioning: the run's intervals cut into up to
     * {@link #SECTIONS} time sections, the standard deviation of their means over the root of
     * their number. Successive response times are correlated (the more so near saturation), so
     * the error of independent samples, sd / sqrt(n), would be too small.
     */
    static double sectioningError(IntervalSeries series) {
        int perSection = Math.max(1, (series.length() + SECTIONS - 1) / SECTIONS);
        List<Double> means = new ArrayList<>();
        for (int start = 0; start < series.length(); start += perSection) {
            double sum = 0;
            long count = 0;
            for (int i = start; i < Math.min(series.length(), start + perSection); i++) {
                if (series.completions(i) > 0) {
                    sum += series.meanResponseSeconds(i) * series.completions(i);
                    count += series.completions(i);
                }
            }
            if (count > 0) {
                means.add(sum / count);
            }
        }
        if (means.size() < 5) {
            return Double.NaN;
        }
        return new StandardDeviation().evaluate(means.stream().mapToDouble(Double::doubleValue).toArray()) / Math.sqrt(means.size());
    }
}
