package io.queuelab.jdbc.qos;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Seed 000's points (its section 5.3, equations 4 to 10, Tables 5.6 and 5.7), from measured
 * write throughputs and read times of the three schemas.
 * <ul>
 *   <li>Writing (4, 5): per schema the average of all its cells' lines/s; the best schema gets 10,
 *   the others 10 x their average / the best one.</li>
 *   <li>Reading (6 to 10): per test case and schema the average time per client over all client
 *   counts, t; M = 10 t / max(t) over the schemas; the case's points max(M) + min(M) - M (the
 *   fastest gets the most); per query the average over its cases; per schema the average over the
 *   queries.</li>
 *   <li>Total: writing points weighted 2, plus reading points.</li>
 * </ul>
 * A case is scored only when all three schemas were measured. For Q1 on schema 2 the
 * STRAIGHT_JOIN variant stands in for the plain query when it was measured, as the seed used it
 * to correct the optimizer's join order.
 */
public final class QosPoints {
    private QosPoints() {
    }

    /** One write cell's throughput. */
    public record WriteSample(int schema, double linesPerSecond) {
    }

    /** One read cell: a case (e.g. Q3.5), a schema, a client count and its seconds per client. */
    public record ReadSample(String query, int caseNumber, boolean straightJoin, int schema, int clients, double secondsPerClient) {
    }

    /** Points per schema (index 0 = schema 1); per query for reading. */
    public record Points(double[] writing, Map<String, double[]> readingByQuery, double[] reading, double[] total) {
    }

    public static Points score(List<WriteSample> writes, List<ReadSample> reads) {
        double[] writing = writing(writes);
        Map<String, double[]> byQuery = readingByQuery(reads);
        double[] reading = new double[3];
        for (double[] q : byQuery.values()) {
            for (int s = 0; s < 3; s++) {
                reading[s] += q[s] / byQuery.size();
            }
        }
        double[] total = new double[3];
        for (int s = 0; s < 3; s++) {
            total[s] = 2 * writing[s] + reading[s];
        }
        return new Points(writing, byQuery, reading, total);
    }

    /** Equations (4) and (5). */
    public static double[] writing(List<WriteSample> writes) {
        double[] mean = new double[3];
        for (int s = 0; s < 3; s++) {
            int schema = s + 1;
            mean[s] = writes.stream().filter(w -> w.schema() == schema).mapToDouble(WriteSample::linesPerSecond).average()
                    .orElseThrow(() -> new IllegalArgumentException("no write results of schema " + schema));
        }
        double best = Math.max(mean[0], Math.max(mean[1], mean[2]));
        double[] points = new double[3];
        for (int s = 0; s < 3; s++) {
            points[s] = 10 * mean[s] / best;
        }
        return points;
    }

    /** Equations (6) to (9): the average points of each query's cases, per schema. */
    public static Map<String, double[]> readingByQuery(List<ReadSample> reads) {
        // query -> case -> schema -> times
        Map<String, Map<Integer, List<List<Double>>>> times = new TreeMap<>();
        boolean straightJoinMeasured = reads.stream().anyMatch(ReadSample::straightJoin);
        for (ReadSample r : reads) {
            boolean plainQ1OnSchema2 = r.query().equals("Q1") && r.schema() == 2 && !r.straightJoin() && straightJoinMeasured;
            if (plainQ1OnSchema2) {
                continue;
            }
            List<List<Double>> bySchema = times.computeIfAbsent(r.query(), q -> new TreeMap<>())
                    .computeIfAbsent(r.caseNumber(), c -> List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>()));
            bySchema.get(r.schema() - 1).add(r.secondsPerClient());
        }
        Map<String, double[]> points = new LinkedHashMap<>();
        for (Map.Entry<String, Map<Integer, List<List<Double>>>> q : times.entrySet()) {
            double[] sum = new double[3];
            int cases = 0;
            for (List<List<Double>> bySchema : q.getValue().values()) {
                if (bySchema.stream().anyMatch(List::isEmpty)) {
                    continue;
                }
                double[] x = casePoints(bySchema.stream().mapToDouble(t -> t.stream().mapToDouble(Double::doubleValue).average()
                        .orElseThrow()).toArray());
                for (int s = 0; s < 3; s++) {
                    sum[s] += x[s];
                }
                cases++;
            }
            if (cases > 0) {
                for (int s = 0; s < 3; s++) {
                    sum[s] /= cases;
                }
                points.put(q.getKey(), sum);
            }
        }
        return points;
    }

    /** Equations (7) and (8) for one case: mean times per schema in, points per schema out. */
    public static double[] casePoints(double[] meanTimes) {
        double max = Math.max(meanTimes[0], Math.max(meanTimes[1], meanTimes[2]));
        double[] m = new double[3];
        for (int s = 0; s < 3; s++) {
            m[s] = 10 * meanTimes[s] / max;
        }
        double mMax = Math.max(m[0], Math.max(m[1], m[2]));
        double mMin = Math.min(m[0], Math.min(m[1], m[2]));
        double[] x = new double[3];
        for (int s = 0; s < 3; s++) {
            x[s] = mMax + mMin - m[s];
        }
        return x;
    }
}
