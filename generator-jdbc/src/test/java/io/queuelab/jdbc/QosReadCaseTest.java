package io.queuelab.jdbc;

import io.queuelab.jdbc.qos.QosReadCase;
import io.queuelab.jdbc.qos.QosReadDataSet;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The read cases' conditions at every scale: the seed's row counts at scale 1, its equalities at every scale. */
class QosReadCaseTest {
    private static long rows(List<QosReadCase> cases, String name) {
        return cases.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow().rows();
    }

    @Test
    void atScale1TheCasesFetchTheSeedsRows() {
        for (QosReadCase c : QosReadCase.seedCases(new QosReadDataSet(1, 1))) {
            assertEquals(c.seedRows(), c.rows(), c.name() + " " + c.condition());
        }
    }

    @Test
    void theCasesTheSeedMadeEqualStayEqualAtEveryScale() {
        for (double scale : new double[] {0.0001, 0.001, 0.002, 0.003, 0.005, 0.01, 0.013, 0.05, 0.1, 0.25, 0.5, 1}) {
            List<QosReadCase> cases = QosReadCase.seedCases(new QosReadDataSet(scale, 1));
            String at = " at scale " + scale;
            assertEquals(rows(cases, "Q4.3"), rows(cases, "Q4.4"), "Q4.3 = Q4.4" + at);
            assertEquals(rows(cases, "Q5.3"), rows(cases, "Q5.4"), "Q5.3 = Q5.4" + at);
            assertEquals(rows(cases, "Q5.3"), rows(cases, "Q5.5"), "Q5.3 = Q5.5" + at);
            assertEquals(5 * rows(cases, "Q4.3"), rows(cases, "Q4.5"), "Q4.5 = 5 x Q4.3" + at);
            assertEquals(556, rows(cases, "Q2.1"), "one row a run" + at);
            assertEquals(556, rows(cases, "Q5.1"), "one row a run" + at);
            for (int n = 1; n <= 4; n++) {
                assertEquals(rows(cases, "Q2." + n), rows(cases, "Q3." + n), "Q2." + n + " = Q3." + n + at);
                assertEquals(rows(cases, "Q3." + n), rows(cases, "Q3." + (n + 12)), "Q3." + n + " = Q3." + (n + 12) + at);
                assertEquals(0, rows(cases, "Q2." + n) % 556, "every run gives Q2." + n + " the same rows" + at);
            }
        }
    }
}
