package io.queuelab.reports.report;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The lead's picture of a held-out load: its series, the band's order, the axis a distribution's spread calls for. */
class HeldOutCdfChartTest {
    private static Histogram exponential(double meanNanos, long seed, int n) {
        Histogram h = new Histogram(3);
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < n; i++) {
            h.recordValue(Math.max(1, Math.round(-meanNanos * Math.log(1 - r.nextDouble()))));
        }
        return h;
    }

    @Test
    void theMeasuredRunsThePredictionAndTheBandOfItsReplications() {
        List<Histogram> replications = new ArrayList<>();
        for (int k = 0; k < 16; k++) {
            replications.add(exponential(2e6, 100 + k, 5_000));
        }
        Map<String, Histogram> measured = new LinkedHashMap<>();
        measured.put("measured a", exponential(2e6, 1, 5_000));
        measured.put("measured a, repeat", exponential(2.4e6, 2, 5_000));
        XYChart chart = Charts.heldOutCdf("Held out", measured, "client-ps", exponential(2e6, 3, 50_000), replications, 5_000);
        Map<String, XYSeries> series = chart.getSeriesMap();
        assertEquals(List.of("client-ps: noise band (16 replications), low", "client-ps: noise band, high", "client-ps: predicted",
                "measured a", "measured a, repeat"), new ArrayList<>(series.keySet()));
        double[] low = series.get("client-ps: noise band (16 replications), low").getYData();
        double[] high = series.get("client-ps: noise band, high").getYData();
        double[] predicted = series.get("client-ps: predicted").getYData();
        int inside = 0;
        for (int i = 0; i < low.length; i++) {
            assertTrue(low[i] <= high[i], "the band's low edge under its high edge at point " + i);
            inside += predicted[i] >= low[i] - 0.01 && predicted[i] <= high[i] + 0.01 ? 1 : 0;
        }
        assertTrue(inside > 0.95 * low.length, "the prediction of the replications' model lies in their band: " + inside + " of " + low.length);
        // an exponential spans decades: a log axis
        assertTrue(chart.getStyler().isXAxisLogarithmic());
    }

    @Test
    void replicationsShorterThanTheRunSpanTheBandOfTheRunsSize() {
        List<Histogram> replications = new ArrayList<>();
        for (int k = 0; k < 16; k++) {
            replications.add(exponential(2e6, 100 + k, 5_000));
        }
        Histogram model = exponential(2e6, 3, 50_000);
        Map<String, Histogram> measured = Map.of("measured", exponential(2e6, 1, 5_000));
        double ofTheirSize = width(Charts.heldOutCdf("Held out", measured, "m", model, replications, 5_000));
        double ofFourTimes = width(Charts.heldOutCdf("Held out", measured, "m", model, replications, 20_000));
        assertTrue(ofTheirSize > 0.5, "the band of 16 replications of 5,000 has a width: " + ofTheirSize);
        // a run four times as long: the noise of a CDF halves (the band is the prediction plus the replications'
        // differences from it, times sqrt(5,000 / 20,000))
        assertEquals(0.5 * ofTheirSize, ofFourTimes, 1e-9 * ofTheirSize);
    }

    /** The band's width summed over the chart's grid. */
    private static double width(XYChart chart) {
        double[] low = chart.getSeriesMap().get("m: noise band (16 replications), low").getYData();
        double[] high = chart.getSeriesMap().get("m: noise band, high").getYData();
        double sum = 0;
        for (int i = 0; i < low.length; i++) {
            sum += high[i] - low[i];
        }
        return sum;
    }

    @Test
    void aNarrowDistributionGetsALinearAxisThatLabelsIt() {
        Histogram step = new Histogram(3);
        for (int i = 0; i < 1_000; i++) {
            step.recordValue(2_000_000 + 1_000 * (i % 300));
        }
        XYChart chart = Charts.heldOutCdf("Held out", Map.of("measured", step), "model", step, List.of(), 1_000);
        assertFalse(chart.getStyler().isXAxisLogarithmic(), "2.0-2.3 ms: less than a decade");
        assertEquals(2, chart.getSeriesMap().size(), "no band without replications");
    }
}
