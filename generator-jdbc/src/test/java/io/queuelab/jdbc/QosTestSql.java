package io.queuelab.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** The seed 000 tests' one-number queries on the embedded MariaDB. */
final class QosTestSql {
    private QosTestSql() {
    }

    /** The first column of the first row of a query on the embedded server. */
    static long scalar(String sql) throws SQLException {
        try (Connection c = TestDatabases.embedded().connect(0); Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }
}
