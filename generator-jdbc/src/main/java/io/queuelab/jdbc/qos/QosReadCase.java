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
 */
public record QosReadCase(String query, int caseNumber, String condition, boolean queryCache, boolean allTables,
                          boolean straightJoin, long seedRows) {

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

    /** The seed's cases in order: Q1 (and its STRAIGHT_JOIN variant), Q2, Q3's 16, Q4, Q5. */
    public static List<QosReadCase> seedCases() {
        List<QosReadCase> cases = new ArrayList<>();
        int[] customers = {60, 10, 6, 1};
        long[] customerRows = {1_000, 10_000, 86_400, 600_000};
        for (int i = 0; i < 4; i++) {
            cases.add(new QosReadCase("Q1", i + 1, "customer_id = " + customers[i], false, true, false, customerRows[i]));
        }
        for (int i = 0; i < 4; i++) {
            cases.add(new QosReadCase("Q1", i + 1, "customer_id = " + customers[i], false, true, true, customerRows[i]));
        }
        int[] limits = {1, 5, 50, 500};
        for (int i = 0; i < 4; i++) {
            cases.add(new QosReadCase("Q2", i + 1, "ul_delay < " + limits[i], false, true, false, 556L * limits[i]));
        }
        int n = 1;
        for (boolean cache : new boolean[] {true, false}) {
            for (boolean all : new boolean[] {false, true}) {
                for (int limit : limits) {
                    cases.add(new QosReadCase("Q3", n++, "ul_dupl < " + limit, cache, all, false, 556L * limit));
                }
            }
        }
        String[] q4 = {"customer_id = 60 AND ul_delay < 500", "customer_id = 10 AND ul_delay < 5000",
                "customer_id = 6 AND ul_delay < 50000", "customer_id > 56 AND ul_delay < 100", "customer_id < 6 AND ul_delay < 50000"};
        long[] q4Rows = {500, 5_000, 50_000, 50_000, 250_000};
        for (int i = 0; i < q4.length; i++) {
            cases.add(new QosReadCase("Q4", i + 1, q4[i], false, true, false, q4Rows[i]));
        }
        String[] q5 = {"ul_delay < 1 AND ul_dupl < 1", "ul_delay < 10 AND ul_dupl < 10", "ul_delay < 50 AND ul_dupl < 50",
                "ul_delay < 100 AND ul_dupl > 50", "ul_delay < 500 AND ul_dupl > 449", "ul_delay < 100 AND ul_dupl < 100",
                "ul_delay < 500 AND ul_dupl < 500"};
        long[] q5Rows = {556, 5_560, 27_800, 27_800, 27_800, 55_600, 278_000};
        for (int i = 0; i < q5.length; i++) {
            cases.add(new QosReadCase("Q5", i + 1, q5[i], false, true, false, q5Rows[i]));
        }
        return List.copyOf(cases);
    }
}
