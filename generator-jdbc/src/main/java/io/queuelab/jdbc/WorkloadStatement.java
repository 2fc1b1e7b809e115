package io.queuelab.jdbc;

import java.util.List;

/**
 * One named statement of a workload: SQL with {@code ?} placeholders, one {@link ParameterSpec}
 * per placeholder, and a relative weight in the operation mix.
 */
public record WorkloadStatement(String name, String sql, double weight, List<ParameterSpec> parameters) {
    public WorkloadStatement {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a statement needs a name");
        }
        if (sql == null || sql.isBlank()) {
            throw new IllegalArgumentException("statement '" + name + "' has no sql");
        }
        if (!(weight >= 0) || Double.isInfinite(weight)) {
            throw new IllegalArgumentException("statement '" + name + "' needs a finite weight >= 0, not " + weight);
        }
        parameters = List.copyOf(parameters);
        int placeholders = countPlaceholders(sql);
        if (placeholders != parameters.size()) {
            throw new IllegalArgumentException("statement '" + name + "' has " + placeholders + " ? placeholder(s) but "
                    + parameters.size() + " parameter generator(s)");
        }
    }

    /** Counts {@code ?} outside quoted strings, identifiers and comments. */
    static int countPlaceholders(String sql) {
        int count = 0;
        char quote = 0;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (quote != 0) {
                if (c == '\\' && quote != '`') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            } else if (c == '?') {
                count++;
            } else if (c == '-' && sql.startsWith("-- ", i) || c == '#') {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? sql.length() : end;
            } else if (c == '/' && sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? sql.length() : end + 1;
            }
        }
        return count;
    }
}
