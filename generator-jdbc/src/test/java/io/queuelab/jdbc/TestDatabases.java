package io.queuelab.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The real servers the tests use: one embedded MariaDB shared by all test classes of the JVM
 * (started on first use, stopped at JVM exit), and the machine's MariaDB on 127.0.0.1:3306 when
 * it is reachable.
 */
final class TestDatabases {
    static final String EMBEDDED_BUFFER_POOL = "64M";
    private static EmbeddedMariaDb embedded;

    private TestDatabases() {
    }

    static synchronized EmbeddedMariaDb embeddedServer() {
        if (embedded == null) {
            try {
                embedded = EmbeddedMariaDb.start(Path.of("target", "test-mariadb"),
                        List.of("--innodb-buffer-pool-size=" + EMBEDDED_BUFFER_POOL));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return embedded;
    }

    static JdbcTarget embedded() {
        return new JdbcTarget(embeddedServer().jdbcUrl(), EmbeddedMariaDb.USER, "");
    }

    static final String LOCAL_URL = "jdbc:mysql://127.0.0.1:3306/test";

    /** Why the machine's MariaDB cannot be used, or null when it can. */
    static String localServerUnavailableReason() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", 3306), 1000);
        } catch (IOException e) {
            return "no MariaDB/MySQL listening on 127.0.0.1:3306 (" + e.getMessage() + ")";
        }
        try (Connection ignored = local().connect(0)) {
            return null;
        } catch (SQLException e) {
            return "127.0.0.1:3306 is up but root/empty password on database test fails: " + e.getMessage();
        }
    }

    static JdbcTarget local() {
        return new JdbcTarget(LOCAL_URL, "root", "");
    }
}
