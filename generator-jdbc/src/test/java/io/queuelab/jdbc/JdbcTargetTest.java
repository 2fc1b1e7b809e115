package io.queuelab.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JdbcTargetTest {
    @Test
    void credentialsNeverShowInTheRedactedUrl() {
        assertEquals("jdbc:mysql://db.local:3306/test",
                new JdbcTarget("jdbc:mysql://alice:s3cret@db.local:3306/test", "alice", "s3cret").redactedUrl());
        String redacted = new JdbcTarget("jdbc:mysql://127.0.0.1/x?user=bob&password=s3cret&useSSL=false", "bob", "s3cret").redactedUrl();
        assertEquals("jdbc:mysql://127.0.0.1/x?user=***&password=***&useSSL=false", redacted);
        JdbcTarget t = new JdbcTarget("jdbc:mariadb://127.0.0.1/x", "root", "hidden");
        assertEquals("jdbc:mariadb://127.0.0.1/x", t.url());
        assertTrue(t.mariadbDriver());
        assertFalse(new JdbcTarget("jdbc:mysql://127.0.0.1/x", "root", "").mariadbDriver());
        assertFalse(t.toString().contains("hidden"));
        assertThrows(IllegalArgumentException.class, () -> new JdbcTarget("jdbc:postgresql://h/x", "u", ""));
    }

    @Test
    void passwordsComeFromAnEnvironmentVariableOrTheFirstLineOfAFile(@TempDir Path dir) throws IOException {
        assertEquals("pw", JdbcTarget.passwordFromEnv("DB_PW", Map.of("DB_PW", "pw")));
        IllegalArgumentException unset = assertThrows(IllegalArgumentException.class, () -> JdbcTarget.passwordFromEnv("DB_PW", Map.of()));
        assertTrue(unset.getMessage().contains("DB_PW"));
        Path file = dir.resolve("pw");
        Files.writeString(file, "first line\r\nsecond\n");
        assertEquals("first line", JdbcTarget.passwordFromFile(file));
        IOException missing = assertThrows(IOException.class, () -> JdbcTarget.passwordFromFile(dir.resolve("none")));
        assertTrue(missing.getMessage().endsWith("does not exist"));
    }
}
