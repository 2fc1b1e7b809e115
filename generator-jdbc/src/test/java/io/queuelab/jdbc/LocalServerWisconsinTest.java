package io.queuelab.jdbc;

import org.junit.jupiter.api.TestInstance;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The Wisconsin contract on the machine's MariaDB at 127.0.0.1:3306; skipped with the reason when it is not there. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LocalServerWisconsinTest extends WisconsinContract {

    @Override
    void assumeServerAvailable() {
        String reason = TestDatabases.localServerUnavailableReason();
        assumeTrue(reason == null, () -> "skipped: " + reason);
    }

    @Override
    JdbcTarget target() {
        return TestDatabases.local();
    }

    @Override
    String table() {
        return "queuelab_wisc_test";
    }
}
