package io.queuelab.fit.compare;

import org.HdrHistogram.Histogram;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;

import java.util.ArrayList;
import java.util.List;

/**
 * A measured response-time distribution against a simulated one (models.md section 5): the
 * quantiles p50 to p99.9 side by side, KS D and Wasserstein-1, each judged against the yardstick:
 * the same distance between pairs of independent simulated replications with the measured
 * sample size. A distance at or below the yardstick's 95th percentile is "within simulation
 * noise"; above it, "beyond it". (Pairs of replications carry the noise of two samples, so the
 * yardstick errs on the lenient side by up to a factor of about sqrt 2.)
 *
 * <p>The replications need not hold the measured sample size: a long run's are shorter
 * ({@link Replications#replicationSize}), and a replication whose warm-up was cut holds less than
 * it was run for. Each pair's distances are scaled to two samples of the measured size, by
 * sqrt((2/n) / (1/a + 1/b)) for replications of a and b requests and a measured n: the noise of
 * a distance between two samples falls as the square root of their sizes once they are long
 * against the model's correlation time (docs/models.md, "The yardstick").
 */
public record Comparison(String measuredName, String simulatedName, long measuredCount, long simulatedCount,
                         int yardstickPairs, List<Verdict> rows) {
    public static final double[] QUANTILES = {0.5, 0.9, 0.95, 0.99, 0.999};
    static final double YARDSTICK_PERCENTILE = 95;

    public static Comparison of(String measuredName, Histogram measured, String simulatedName, Histogram simulated,
                                List<Histogram> replications) {
        int metrics = QUANTILES.length + 2;
        List<double[]> pairDistances = new ArrayList<>();
        for (int i = 0; i + 1 < replications.size(); i += 2) {
            double scale = toSampleSize(measured.getTotalCount(), replications.get(i).getTotalCount(), replications.get(i + 1).getTotalCount());
            pairDistances.add(java.util.Arrays.stream(metrics(replications.get(i), replications.get(i + 1))).map(d -> d * scale).toArray());
        }
        double[] actual = metrics(measured, simulated);
        List<Verdict> rows = new ArrayList<>();
        for (int m = 0; m < metrics; m++) {
            double bound = Double.NaN;
            if (!pairDistances.isEmpty()) {
                double[] values = new double[pairDistances.size()];
                for (int k = 0; k < values.length; k++) {
                    values[k] = pairDistances.get(k)[m];
                }
                bound = values.length == 1 ? values[0] : new Percentile().evaluate(values, YARDSTICK_PERCENTILE);
            }
            if (m < QUANTILES.length) {
                double q = QUANTILES[m];
                rows.add(new Verdict(quantileName(q), quantile(measured, q), quantile(simulated, q), actual[m], bound, "s"));
            } else if (m == QUANTILES.length) {
                rows.add(new Verdict("KS D", Double.NaN, Double.NaN, actual[m], bound, ""));
            } else {
                rows.add(new Verdict("Wasserstein-1", Double.NaN, Double.NaN, actual[m], bound, "s"));
            }
        }
        return new Comparison(measuredName, simulatedName, measured.getTotalCount(), simulated.getTotalCount(),
                pairDistances.size(), rows);
    }

    /**
     * The factor that turns a distance between samples of {@code a} and {@code b} requests into one
     * between two samples of {@code n}: sqrt((2/n) / (1/a + 1/b)); 1 where a count is 0 (nothing
     * to scale: the distance is then not a measure of noise anyway).
     */
    public static double toSampleSize(long n, long a, long b) {
        if (n <= 0 || a <= 0 || b <= 0) {
            return 1;
        }
        return Math.sqrt((2.0 / n) / (1.0 / a + 1.0 / b));
    }

    /** |quantile differences| (s), then KS D, then W1 (s). */
    static double[] metrics(Histogram a, Histogram b) {
        double[] out = new double[QUANTILES.length + 2];
        for (int i = 0; i < QUANTILES.length; i++) {
            out[i] = Math.abs(quantile(a, QUANTILES[i]) - quantile(b, QUANTILES[i]));
        }
        Distances d = Distances.between(a, b);
        out[QUANTILES.length] = d.ks();
        out[QUANTILES.length + 1] = d.wasserstein();
        return out;
    }

    static double quantile(Histogram h, double q) {
        return h.getValueAtPercentile(q * 100) / 1e9;
    }

    public static String quantileName(double q) {
        return "p" + java.math.BigDecimal.valueOf(q * 100).stripTrailingZeros().toPlainString();
    }

    public Verdict row(String metric) {
        return rows.stream().filter(r -> r.metric().equals(metric)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no metric " + metric));
    }
}
