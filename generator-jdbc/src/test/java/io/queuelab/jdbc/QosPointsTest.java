package io.queuelab.jdbc;

import io.queuelab.jdbc.qos.QosPoints;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Seed 000's points, equations 4 to 10, on numbers worked out by hand. */
class QosPointsTest {
    @Test
    void writingPointsAreTenTimesTheAverageOverTheBestAverage() {
        // averages 970, 1000, 681 lines/s give the seed's Table 5.7 writing points 9.70, 10.00, 6.81
        double[] p = QosPoints.writing(List.of(new QosPoints.WriteSample(1, 940), new QosPoints.WriteSample(1, 1000),
                new QosPoints.WriteSample(2, 1000), new QosPoints.WriteSample(3, 681)));
        assertArrayEquals(new double[] {9.70, 10.00, 6.81}, p, 1e-9);
    }

    @Test
    void aCaseGivesTheFastestSchemaTheMostPoints() {
        // t = 2, 1, 4 s: M = 5, 2.5, 10; x = max + min - M = 7.5, 10, 2.5
        assertArrayEquals(new double[] {7.5, 10, 2.5}, QosPoints.casePoints(new double[] {2, 1, 4}), 1e-12);
    }

    @Test
    void readingAveragesClientsThenCasesThenQueriesAndWritingCountsTwice() {
        List<QosPoints.ReadSample> reads = List.of(
                // Q1 case 1: schema means 2 (1 and 3 s over two client counts), 1, 4
                new QosPoints.ReadSample("Q1", 1, false, 1, 1, 1), new QosPoints.ReadSample("Q1", 1, false, 1, 5, 3),
                new QosPoints.ReadSample("Q1", 1, false, 2, 1, 9), // replaced by the STRAIGHT_JOIN variant
                new QosPoints.ReadSample("Q1", 1, true, 2, 1, 1),
                new QosPoints.ReadSample("Q1", 1, false, 3, 1, 4),
                // Q2 case 1: all equal, 10 points each
                new QosPoints.ReadSample("Q2", 1, false, 1, 1, 1), new QosPoints.ReadSample("Q2", 1, false, 2, 1, 1),
                new QosPoints.ReadSample("Q2", 1, false, 3, 1, 1),
                // Q2 case 2 lacks schema 3: not scored
                new QosPoints.ReadSample("Q2", 2, false, 1, 1, 5));
        QosPoints.Points p = QosPoints.score(List.of(new QosPoints.WriteSample(1, 500), new QosPoints.WriteSample(2, 1000),
                new QosPoints.WriteSample(3, 250)), reads);
        assertArrayEquals(new double[] {7.5, 10, 2.5}, p.readingByQuery().get("Q1"), 1e-12);
        assertArrayEquals(new double[] {10, 10, 10}, p.readingByQuery().get("Q2"), 1e-12);
        assertArrayEquals(new double[] {8.75, 10, 6.25}, p.reading(), 1e-12);
        assertArrayEquals(new double[] {5, 10, 2.5}, p.writing(), 1e-12);
        assertEquals(2 * 5 + 8.75, p.total()[0], 1e-12);
        assertEquals(2 * 10 + 10, p.total()[1], 1e-12);
    }
}
