package io.queuelab.jdbc;

import org.apache.commons.math3.random.MersenneTwister;
import org.apache.commons.math3.util.MathArrays;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * The scalable Wisconsin benchmark relation (DeWitt, "The Wisconsin Benchmark: Past, Present, and
 * Future", Table 2): 13 integer and 3 52-character string attributes, about 200 bytes a tuple.
 *
 * <p>Guarantees, for a relation of n tuples and a seed: tuple i (0-based) has unique2 = i;
 * unique1 is a seeded uniformly random permutation of 0..n-1 (the same for the same n and seed);
 * two, four, ten, twenty, onePercent, tenPercent, twentyPercent, fiftyPercent are unique1 modulo
 * 2, 4, 10, 20, 100, 10, 5, 2; unique3 = unique1; evenOnePercent = 2 onePercent;
 * oddOnePercent = 2 onePercent + 1; stringu1 and stringu2 are unique1 and unique2 written as 7
 * base-26 letters ('A' = 0, most significant first) followed by 45 'x' (so they sort as their
 * numbers do); string4 cycles through AAAA, HHHH, OOOO, VVVV (then 48 'x') with unique2.
 */
public record WisconsinRelation(String table, int tuples, long seed) {
    public static final String DEFAULT_TABLE = "wisc";
    public static final int STRING_LENGTH = 52;
    private static final int SIGNIFICANT_LETTERS = 7;
    private static final char[] STRING4_LETTERS = {'A', 'H', 'O', 'V'};
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,60}");

    /** The attributes in table order. */
    public static final List<String> COLUMNS = List.of("unique1", "unique2", "two", "four", "ten", "twenty",
            "onePercent", "tenPercent", "twentyPercent", "fiftyPercent", "unique3", "evenOnePercent",
            "oddOnePercent", "stringu1", "stringu2", "string4");

    public WisconsinRelation {
        requireIdentifier(table);
        if (tuples < 1) {
            throw new IllegalArgumentException("a Wisconsin relation needs at least 1 tuple: " + tuples);
        }
    }

    /** The storage engines a relation can be loaded into. */
    public enum Engine {
        INNODB("InnoDB"), MYISAM("MyISAM");

        private final String sqlName;

        Engine(String sqlName) {
            this.sqlName = sqlName;
        }

        public String sqlName() {
            return sqlName;
        }

        /** Case-insensitive: InnoDB, innodb, MyISAM, ... */
        public static Engine parse(String name) {
            for (Engine e : values()) {
                if (e.sqlName.equalsIgnoreCase(name)) {
                    return e;
                }
            }
            throw new IllegalArgumentException("unknown storage engine '" + name + "' (expected InnoDB or MyISAM)");
        }
    }

    /** unique1 of every tuple, indexed by unique2: a seeded random permutation of 0..n-1. */
    public int[] unique1ByUnique2() {
        int[] permutation = IntStream.range(0, tuples).toArray();
        MathArrays.shuffle(permutation, new MersenneTwister(seed));
        return permutation;
    }

    /** CREATE TABLE with the primary key on unique2 (filled in key order); unique1's index comes after the load. */
    public String createTableSql(String tableName, Engine engine) {
        requireIdentifier(tableName);
        StringBuilder sql = new StringBuilder("CREATE TABLE ").append(tableName).append(" (");
        for (String column : COLUMNS) {
            sql.append(column).append(column.startsWith("string") ? " CHAR(52) NOT NULL, " : " INT NOT NULL, ");
        }
        return sql.append("PRIMARY KEY (unique2)) ENGINE=").append(engine.sqlName())
                .append(" DEFAULT CHARSET=latin1 COMMENT='queuelab Wisconsin relation: ")
                .append(tuples).append(" tuples, seed ").append(seed).append("'").toString();
    }

    /** The index on unique1 (seed 004's UPDATE key), added after the load. */
    public String addUnique1IndexSql(String tableName) {
        return "ALTER TABLE " + requireIdentifier(tableName) + " ADD UNIQUE KEY wisc_unique1 (unique1)";
    }

    /**
     * Appends one tuple as tab-separated text ending in a newline (the LOAD DATA default format);
     * the values are digits and letters only, so no escaping is needed.
     */
    static void appendTsv(StringBuilder out, int unique1, int unique2) {
        appendValues(out, unique1, unique2, '\t', "", "");
        out.append('\n');
    }

    /** Appends one tuple as an SQL row constructor {@code (1,2,...,'A...')}. */
    static void appendSqlRow(StringBuilder out, int unique1, int unique2) {
        out.append('(');
        appendValues(out, unique1, unique2, ',', "'", "'");
        out.append(')');
    }

    private static void appendValues(StringBuilder out, int unique1, int unique2, char separator, String open, String close) {
        int onePercent = unique1 % 100;
        out.append(unique1).append(separator).append(unique2).append(separator)
                .append(unique1 % 2).append(separator).append(unique1 % 4).append(separator)
                .append(unique1 % 10).append(separator).append(unique1 % 20).append(separator)
                .append(onePercent).append(separator).append(unique1 % 10).append(separator)
                .append(unique1 % 5).append(separator).append(unique1 % 2).append(separator)
                .append(unique1).append(separator).append(onePercent * 2).append(separator)
                .append(onePercent * 2 + 1).append(separator);
        out.append(open);
        appendUniqueString(out, unique1);
        out.append(close).append(separator).append(open);
        appendUniqueString(out, unique2);
        out.append(close).append(separator).append(open);
        char letter = STRING4_LETTERS[unique2 % 4];
        out.append(letter).append(letter).append(letter).append(letter);
        padX(out, STRING_LENGTH - 4);
        out.append(close);
    }

    /** unique written as 7 base-26 letters, then 'x' up to 52 characters. */
    static void appendUniqueString(StringBuilder out, int unique) {
        char[] letters = new char[SIGNIFICANT_LETTERS];
        int rest = unique;
        for (int i = SIGNIFICANT_LETTERS - 1; i >= 0; i--) {
            letters[i] = (char) ('A' + rest % 26);
            rest /= 26;
        }
        out.append(letters);
        padX(out, STRING_LENGTH - SIGNIFICANT_LETTERS);
    }

    /** The string attribute of a unique value, as {@link #appendUniqueString} writes it. */
    public static String uniqueString(int unique) {
        StringBuilder out = new StringBuilder(STRING_LENGTH);
        appendUniqueString(out, unique);
        return out.toString();
    }

    private static void padX(StringBuilder out, int count) {
        for (int i = 0; i < count; i++) {
            out.append('x');
        }
    }

    /**
     * The number of tuples of a loaded Wisconsin table, read as max(unique2) + 1 (an index lookup,
     * unlike COUNT(*) on InnoDB).
     *
     * @throws SQLException with a one-line message when the table is missing or empty
     */
    public static int tuplesOf(Connection connection, String table) throws SQLException {
        requireIdentifier(table);
        try (Statement s = connection.createStatement();
             ResultSet r = s.executeQuery("SELECT MAX(unique2) + 1 FROM " + table)) {
            r.next();
            long n = r.getLong(1);
            if (r.wasNull() || n < 1) {
                throw new SQLException("table '" + table + "' is empty; load it with 'queuelab load --relation wisc'");
            }
            return Math.toIntExact(n);
        } catch (SQLException e) {
            if (e.getErrorCode() == 1146) {
                throw new SQLException("table '" + table + "' does not exist; load it first with 'queuelab load --relation wisc --tuples N'",
                        e.getSQLState(), e.getErrorCode(), e);
            }
            throw e;
        }
    }

    static String requireIdentifier(String name) {
        if (name == null || !IDENTIFIER.matcher(name).matches()) {
            throw new IllegalArgumentException("not a plain SQL table name (letters, digits, _): '" + name + "'");
        }
        return name;
    }
}
