package io.queuelab.jdbc;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;

/**
 * A queuelab-like process for {@link EmbeddedMariaDbLifetimeTest}: starts the embedded server in
 * the directory given, records a row, prints "ready SERVER_PID" and waits to be killed (or, given
 * "exit", ends normally at once).
 */
public final class EmbeddedServerChild {
    private EmbeddedServerChild() {
    }

    public static void main(String[] args) throws Exception {
        EmbeddedMariaDb server = EmbeddedMariaDb.start(Path.of(args[0]), List.of("--innodb-buffer-pool-size=16M"));
        try (Connection c = DriverManager.getConnection(server.jdbcUrl(), EmbeddedMariaDb.USER, "");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS kept (x INT)");
            s.execute("INSERT INTO kept VALUES (" + args[1] + ")");
        }
        System.out.println("ready " + server.serverPid());
        System.out.flush();
        if (args.length > 2 && args[2].equals("exit")) {
            System.exit(0); // a normal end: the shutdown hooks stop the server
        }
        Thread.sleep(600_000); // the test kills this process long before
        System.exit(3);
    }
}
