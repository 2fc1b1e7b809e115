package io.queuelab.cli;

import io.queuelab.jdbc.EmbeddedMariaDb;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A password given by --password-file or --password-env reaches the server and nothing else: it is
 * in no file of the run directory (manifest.json, errors.tsv, the log, telemetry), not in the
 * report, and not on the console, for a user that really has that password on the embedded
 * MariaDB (and a request mix that fails half the time, so errors.tsv has content). A wrong
 * password is refused in one line that does not repeat it. (The ssh command line of
 * scripts/distributed-run is checked by scripts/test, which has the launcher's jar.)
 */
class CredentialsTest {
    private static final String SECRET = "Qx7-s3cr3t-Pw-8841";
    private static final String USER = "ql_cred_user";
    private static EmbeddedMariaDb server;

    @TempDir
    static Path dir;

    @BeforeAll
    static void startServerWithAPasswordUser() throws Exception {
        // a directory of its own: cli's test classes run in two JVMs, and one data directory takes one server
        server = EmbeddedMariaDb.start(Path.of("target", "cli-credentials-mariadb"), List.of());
        try (Connection c = DriverManager.getConnection(server.jdbcUrl(), EmbeddedMariaDb.USER, "");
             Statement s = c.createStatement()) {
            s.execute("CREATE OR REPLACE USER '" + USER + "'@'%' IDENTIFIED BY '" + SECRET + "'");
            s.execute("CREATE OR REPLACE USER '" + USER + "'@'localhost' IDENTIFIED BY '" + SECRET + "'");
            s.execute("CREATE OR REPLACE TABLE cred_keys (id INT PRIMARY KEY)");
            s.execute("GRANT ALL ON " + EmbeddedMariaDb.DATABASE + ".* TO '" + USER + "'@'%'");
            s.execute("GRANT ALL ON " + EmbeddedMariaDb.DATABASE + ".* TO '" + USER + "'@'localhost'");
        }
        Files.writeString(dir.resolve("password"), SECRET + "\n");
        // half the requests insert a key that is already there: errors.tsv gets the server's messages
        Files.writeString(dir.resolve("workload.json"), """
                {"tables": ["cred_keys"], "statements": [
                  {"name": "read", "sql": "SELECT COUNT(*) FROM cred_keys WHERE id = ?", "parameters": ["uniform(1, 3)"]},
                  {"name": "insert", "sql": "INSERT INTO cred_keys (id) VALUES (?)", "parameters": ["uniform(1, 3)"]}]}
                """);
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            try (Connection c = DriverManager.getConnection(server.jdbcUrl(), EmbeddedMariaDb.USER, "");
                 Statement s = c.createStatement()) {
                s.execute("DROP USER IF EXISTS '" + USER + "'@'%', '" + USER + "'@'localhost'");
                s.execute("DROP TABLE IF EXISTS cred_keys");
            } finally {
                server.close();
            }
        }
    }

    private static List<String> runOptions(Path out) {
        return List.of("run", "--jdbc-url", server.jdbcUrl(), "--user", USER, "--workload", dir.resolve("workload.json").toString(),
                "--rate", "100", "--duration", "2s", "--warmup", "0s", "--report-interval", "1s", "--telemetry-interval", "1s",
                "--out", out.toString());
    }

    @Test
    void aPasswordFromAFileIsInNoOutput() throws Exception {
        Path run = dir.resolve("file-run");
        List<String> args = new ArrayList<>(runOptions(run));
        args.addAll(List.of("--password-file", dir.resolve("password").toString()));
        CliTestSupport.Result r = CliTestSupport.run(args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.toString());
        assertTrue(Files.readString(run.resolve("errors.tsv")).contains("Duplicate entry"), "errors.tsv has the server's errors");
        CliTestSupport.Result summary = CliTestSupport.run("summary", run.toString());
        CliTestSupport.Result export = CliTestSupport.run("export", run.toString(), "--csv", dir.resolve("file-run.csv").toString());
        CliTestSupport.Result report = CliTestSupport.run("report", run.toString(), "--out", dir.resolve("file-report.html").toString());
        for (CliTestSupport.Result c : List.of(r, summary, export, report)) {
            assertFalse((c.out() + c.err()).contains(SECRET), c.toString());
        }
        assertEquals(0, report.exitCode(), report.toString());
        assertNoFileHoldsTheSecret(dir, 6);
    }

    @Test
    void aPasswordFromTheEnvironmentIsInNoOutput() throws Exception {
        Path run = dir.resolve("env-run");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(runOptions(run));
        command.addAll(List.of("--password-env", "QL_CRED_TEST_PASSWORD", "--verbose"));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("env-console.txt").toFile());
        pb.environment().put("QL_CRED_TEST_PASSWORD", SECRET);
        Process p = pb.start();
        try {
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the run ended");
        } finally {
            p.destroyForcibly();
        }
        String console = Files.readString(dir.resolve("env-console.txt"));
        assertEquals(0, p.exitValue(), console);
        assertTrue(console.contains("self-check"), console);
        assertTrue(Files.readString(run.resolve("manifest.json")).contains(USER), "the run logged in as the user");
        assertNoFileHoldsTheSecret(dir, 3);
    }

    @Test
    void aWrongPasswordIsRefusedWithoutRepeatingIt() throws Exception {
        String wrong = "Wrong-" + SECRET;
        Path file = dir.resolve("wrong-password");
        Files.writeString(file, wrong);
        List<String> args = new ArrayList<>(runOptions(dir.resolve("wrong-run")));
        args.addAll(List.of("--password-file", file.toString()));
        CliTestSupport.Result r = CliTestSupport.run(args.toArray(String[]::new));
        assertEquals(2, r.exitCode(), r.toString());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("Access denied"), r.err());
        assertFalse((r.out() + r.err()).contains(wrong), r.toString());
        assertFalse((r.out() + r.err()).contains(SECRET), r.toString());
    }

    /** Every file under {@code root} but the password files themselves, read as bytes; at least {@code files} of them. */
    private static void assertNoFileHoldsTheSecret(Path root, int files) throws IOException {
        byte[] secret = SECRET.getBytes(StandardCharsets.UTF_8);
        List<Path> checked = new ArrayList<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path f : all.filter(Files::isRegularFile).toList()) {
                if (f.getFileName().toString().endsWith("password")) {
                    continue;
                }
                assertFalse(contains(Files.readAllBytes(f), secret), "the password is in " + f);
                checked.add(f);
            }
        }
        assertTrue(checked.size() >= files, () -> "files checked: " + checked);
        assertTrue(checked.stream().anyMatch(f -> f.endsWith("manifest.json")), () -> "files checked: " + checked);
    }

    private static boolean contains(byte[] data, byte[] part) {
        outer:
        for (int i = 0; i + part.length <= data.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (data[i + j] != part[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
