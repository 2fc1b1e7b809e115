package io.queuelab.jdbc.qos;

import java.util.List;

/**
 * Seed 000's three database schemas for QoS measurement data (InnoDB), as tables named
 * {@code <base><n>_<table>} so that the schemas, and a read data set beside a write test's tables,
 * live in one database:
 * <ul>
 *   <li>1: one wide table {@code results}: the 13 identification columns and the 48 results in
 *   every row; only its primary key (result_id), as the seed's Figure 3.4 lists it, so a query on
 *   customer_id (Q1, Q4) scans the table, as in the seed (its Q1 and Q4 points for schema 1, 5.10
 *   and 4.39, are those of scans).</li>
 *   <li>2: {@code measurementsId} (identification once per measurement, {@code edited_time} set on
 *   every update) and {@code averageStats} (the 48 results, foreign key to measurementsId).</li>
 *   <li>3: {@code measurementsId}, {@code mainStats} (the 16 main results, foreign key to
 *   measurementsId) and {@code secondaryStats} (the other 32, keyed by its mainStats row, with
 *   foreign keys to mainStats and measurementsId).</li>
 * </ul>
 * Row ids ({@code measurement_id}, {@code result_id}) are AUTO_INCREMENT, so writers insert without
 * them; loaders give them. Only keys and foreign keys are indexed, as in the seed (ul_delay and
 * ul_dupl are not).
 */
public enum QosSchema {
    ONE(1), TWO(2), THREE(3);

    /** Table name base of the read data set ({@code qos1_results}, ...). */
    public static final String READ_BASE = "qos";

    private final int number;

    QosSchema(int number) {
        this.number = number;
    }

    public int number() {
        return number;
    }

    /** Schema 1, 2 or 3. */
    public static QosSchema of(int number) {
        for (QosSchema s : values()) {
            if (s.number == number) {
                return s;
            }
        }
        throw new IllegalArgumentException("--schema must be 1, 2 or 3, not " + number);
    }

    /** The prefix of this schema's tables under a name base, e.g. {@code qos2_}. */
    public String prefix(String base) {
        return base + number + "_";
    }

    /** The table holding the identification once per measurement (schemas 2 and 3). */
    public String measurements(String prefix) {
        requireSplit();
        return prefix + "measurementsId";
    }

    /** The table the result rows go into first: results (1), averageStats (2), mainStats (3). */
    public String results(String prefix) {
        return prefix + switch (this) {
            case ONE -> "results";
            case TWO -> "averageStats";
            case THREE -> "mainStats";
        };
    }

    /** Schema 3's secondaryStats. */
    public String secondary(String prefix) {
        if (this != THREE) {
            throw new IllegalStateException("only schema 3 has secondaryStats");
        }
        return prefix + "secondaryStats";
    }

    /** This schema's tables, parents before children. */
    public List<String> tables(String prefix) {
        return switch (this) {
            case ONE -> List.of(results(prefix));
            case TWO -> List.of(measurements(prefix), results(prefix));
            case THREE -> List.of(measurements(prefix), results(prefix), secondary(prefix));
        };
    }

    /** The result columns of the table {@link #results(String)} names. */
    public List<String> resultColumns() {
        return this == THREE ? QosColumns.MAIN : QosColumns.RESULTS;
    }

    /** CREATE TABLE statements, parents first. */
    public List<String> createSql(String prefix) {
        return switch (this) {
            case ONE -> List.of("CREATE TABLE " + results(prefix) + " (result_id BIGINT NOT NULL AUTO_INCREMENT, "
                    + QosColumns.idDefinitions() + ", " + QosColumns.resultDefinitions(QosColumns.RESULTS)
                    + ", PRIMARY KEY (result_id))" + engine());
            case TWO -> List.of(measurementsSql(prefix), "CREATE TABLE " + results(prefix)
                    + " (result_id BIGINT NOT NULL AUTO_INCREMENT, measurement_id INT NOT NULL, "
                    + QosColumns.resultDefinitions(QosColumns.RESULTS) + ", PRIMARY KEY (result_id)"
                    + measurementForeignKey(prefix) + ")" + engine());
            case THREE -> List.of(measurementsSql(prefix), "CREATE TABLE " + results(prefix)
                    + " (result_id BIGINT NOT NULL AUTO_INCREMENT, measurement_id INT NOT NULL, "
                    + QosColumns.resultDefinitions(QosColumns.MAIN) + ", PRIMARY KEY (result_id)"
                    + measurementForeignKey(prefix) + ")" + engine(),
                    "CREATE TABLE " + secondary(prefix) + " (result_id BIGINT NOT NULL, measurement_id INT NOT NULL, "
                    + QosColumns.resultDefinitions(QosColumns.SECONDARY) + ", PRIMARY KEY (result_id)"
                    + ", FOREIGN KEY (result_id) REFERENCES " + results(prefix) + " (result_id)"
                    + measurementForeignKey(prefix) + ")" + engine());
        };
    }

    private String measurementsSql(String prefix) {
        return "CREATE TABLE " + measurements(prefix) + " (measurement_id INT NOT NULL AUTO_INCREMENT, "
                + QosColumns.idDefinitions() + ", edited_time TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)"
                + " ON UPDATE CURRENT_TIMESTAMP(6), PRIMARY KEY (measurement_id),"
                + " KEY measurement_customer (customer_id, start_time))" + engine();
    }

    private String measurementForeignKey(String prefix) {
        return ", FOREIGN KEY (measurement_id) REFERENCES " + measurements(prefix) + " (measurement_id)";
    }

    private String engine() {
        return " ENGINE=InnoDB DEFAULT CHARSET=latin1 COMMENT='queuelab seed 000 QoS schema " + number + "'";
    }

    private void requireSplit() {
        if (this == ONE) {
            throw new IllegalStateException("schema 1 has no measurementsId table");
        }
    }
}
