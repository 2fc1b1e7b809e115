package io.queuelab.jdbc.qos;

import java.util.ArrayList;
import java.util.List;

/**
 * One read test case of seed 000 (its Tables 5.1 to 5.5): query Q1 to Q5, the case number, the
 * WHERE condition, and the variants the seed measured: the query cache on or off (Q3), the
 * results of all tables or only of the table holding the condition's column (Q3), and
 * STRAIGHT_JOIN, which forces the join order measurementsId first (Q1 on schema 2).
 *
 * @param seedRows the rows the seed's Table 5.x says the case fetches from the full data set
 * @param rows     the rows the case fetches from the data set it was made for ({@link #seedCases})
 */
public record QosReadCase(String query, int caseNumber, String condition, boolean queryCache, boolean allTables,
                          boolean straightJoin, long seedRows, long rows) {

    /** A short stable name, e.g. {@code Q3.5} or {@code Q1.2-sj}. */
    public String name() {
        return query + "." + caseNumber + (straightJoin ? "-sj" : "");
    }

    /** The SQL of this case on a schema's read tables ({@code qos<n>_...}). */
    public String sql(QosSchema schema) {
        if (straightJoin && schema != QosSchema.TWO) {
            throw new IllegalArgumentException("the STRAIGHT_JOIN variant is schema 2's");
        }
        return "SELECT " + (straightJoin ? "STRAIGHT_JOIN " : "") + (queryCache ? "SQL_CACHE " : "SQL_NO_CACHE ")
                + projection(schema) + " FROM " + from(schema) + " WHERE " + condition;
    }

    /** The number of rows {@link #sql} returns, as a query that does not touch the query cache. */
    public String countSql(QosSchema schema) {
        return "SELECT SQL_NO_CACHE COUNT(*) FROM " + from(schema) + " WHERE " + condition;
    }

    private boolean joined(QosSchema schema) {
        return schema != QosSchema.ONE && allTables;
    }

    private String projection(QosSchema schema) {
        if (!joined(schema)) {
            return "*";
        }
        return schema == QosSchema.THREE ? "m.*, a.*, s.*" : "m.*, a.*";
    }

    private String from(QosSchema schema) {
        String p = schema.prefix(QosSchema.READ_BASE);
        if (schema == QosSchema.ONE) {
            return schema.results(p);
        }
        if (!allTables) {
            return query.equals("Q3") && schema == QosSchema.THREE ? schema.secondary(p) : schema.results(p);
        }
        String from = schema.measurements(p) + " m JOIN " + schema.results(p) + " a ON a.measurement_id = m.measurement_id";
        return schema == QosSchema.THREE ? from + " JOIN " + schema.secondary(p) + " s ON s.result_id = a.result_id" : from;
    }

    /** Whether this case runs on a schema (the STRAIGHT_JOIN variant only on schema 2). */
    public boolean appliesTo(QosSchema schema) {
        return !straightJoin || schema == QosSchema.TWO;
    }

    /**
     * The seed's cases in order (Q1 and its STRAIGHT_JOIN variant, Q2, Q3's 16, Q4, Q5) for the read
     * data set at {@code scale}, each with the rows it returns there ({@link #rows}).
     *
     * <p>At scale 1 the conditions are the seed's Tables 5.1-5.5, with one correction: Q5.4's
     * {@code ul_dupl > 50} selects 49 rows a run, not the 50 its 27,800 rows need, so it is
     * {@code ul_dupl >= 50}. Below scale 1 the thresholds are scaled so that the seed's design holds
     * at every scale: every run contributes the same number of rows to Q2, Q3 and Q5 (at least one,
     * so Q2.1 stays one row a run), and the cases the seed made equal stay equal (Q4.3 = Q4.4,
     * Q5.3 = Q5.4 = Q5.5, Q2.n = Q3.n). Where a 1,000-row run holds too few rows at a small scale
     * for the seed's 500 runs x 100 rows of Q4.4, Q4.4 takes fewer of the short runs (the last
     * ones); its rows still equal Q4.3's.
     */
    public static List<QosReadCase> seedCases(QosReadDataSet data) {
        double scale = data.scale();
        List<QosReadDataSet.Run> runs = data.runs();
        int shortRun = runs.get(runs.size() - 1).rows(); // a 1,000-row run at this scale
        int customers = runs.size();
        List<QosReadCase> cases = new ArrayList<>();
        int[] customerIds = {60, 10, 6, 1};
        long[] customerRows = {1_000, 10_000, 86_400, 600_000};
        for (boolean straightJoin : new boolean[] {false, true}) {
            for (int i = 0; i < 4; i++) {
                cases.add(new QosReadCase("Q1", i + 1, "customer_id = " + customerIds[i], false, true, straightJoin, customerRows[i],
                        runs.get(customerIds[i] - 1).rows()));
            }
        }
        int[] limits = {1, 5, 50, 500};
        for (int i = 0; i < 4; i++) {
            int x = perRun(limits[i], scale, shortRun);
            cases.add(new QosReadCase("Q2", i + 1, "ul_delay < " + x, false, true, false, 556L * limits[i], (long) customers * x));
        }
        int n = 1;
        for (boolean cache : new boolean[] {true, false}) {
            for (boolean all : new boolean[] {false, true}) {
                for (int limit : limits) {
                    int x = perRun(limit, scale, shortRun);
                    cases.add(new QosReadCase("Q3", n++, "ul_dupl < " + x, cache, all, false, 556L * limit, (long) customers * x));
                }
            }
        }
        // Q4.3 and Q4.4 fetch the same rows: customer 6's first a, and b rows of each of m short runs, a = m x b
        int b = Math.max(Math.max(1, (int) Math.round(100 * scale)), (int) Math.ceil(Math.round(50_000 * scale) / 500.0));
        int m = Math.max(1, Math.min(500, (int) Math.round(Math.round(50_000 * scale) / (double) b)));
        int a = m * b;
        int q41 = perRun(500, scale, shortRun);
        int q42 = Math.max(1, (int) Math.round(5_000 * scale));
        cases.add(new QosReadCase("Q4", 1, "customer_id = 60 AND ul_delay < " + q41, false, true, false, 500, q41));
        cases.add(new QosReadCase("Q4", 2, "customer_id = 10 AND ul_delay < " + q42, false, true, false, 5_000, q42));
        cases.add(new QosReadCase("Q4", 3, "customer_id = 6 AND ul_delay < " + a, false, true, false, 50_000, a));
        cases.add(new QosReadCase("Q4", 4, "customer_id > " + (customers - m) + " AND ul_delay < " + b, false, true, false, 50_000,
                (long) m * b));
        cases.add(new QosReadCase("Q4", 5, "customer_id < 6 AND ul_delay < " + a, false, true, false, 250_000, 5L * a));
        // Q5.3-Q5.5: bands of w rows a run, at the start, ending at 2w and ending at 10w (the seed's 450..499)
        int w = perRun(50, scale, shortRun);
        int end4 = Math.min(2 * w, shortRun), end5 = Math.min(10 * w, shortRun);
        int[] q5 = {1, 10, 50, 100, 500};
        int[] x5 = new int[q5.length];
        for (int i = 0; i < q5.length; i++) {
            x5[i] = perRun(q5[i], scale, shortRun);
        }
        cases.add(q5("ul_delay < " + x5[0] + " AND ul_dupl < " + x5[0], 1, 556, customers, x5[0]));
        cases.add(q5("ul_delay < " + x5[1] + " AND ul_dupl < " + x5[1], 2, 5_560, customers, x5[1]));
        cases.add(q5("ul_delay < " + w + " AND ul_dupl < " + w, 3, 27_800, customers, w));
        cases.add(q5("ul_delay < " + end4 + " AND ul_dupl >= " + (end4 - w), 4, 27_800, customers, w));
        cases.add(q5("ul_delay < " + end5 + " AND ul_dupl >= " + (end5 - w), 5, 27_800, customers, w));
        cases.add(q5("ul_delay < " + x5[3] + " AND ul_dupl < " + x5[3], 6, 55_600, customers, x5[3]));
        cases.add(q5("ul_delay < " + x5[4] + " AND ul_dupl < " + x5[4], 7, 278_000, customers, x5[4]));
        return List.copyOf(cases);
    }

    private static QosReadCase q5(String condition, int number, long seedRows, int customers, int perRun) {
        return new QosReadCase("Q5", number, condition, false, true, false, seedRows, (long) customers * perRun);
    }

    /** The seed's rows a run, x, at a scale: x x scale, at least 1 and at most a short run's rows. */
    private static int perRun(int x, double scale, int shortRun) {
        return Math.max(1, Math.min(shortRun, (int) Math.round(x * scale)));
    }
}
