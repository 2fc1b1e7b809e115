package io.queuelab.jdbc;

/** The Wisconsin contract on the embedded MariaDB 11.4.5. */
class EmbeddedWisconsinTest extends WisconsinContract {
    @Override
    JdbcTarget target() {
        return TestDatabases.embedded();
    }

    @Override
    String table() {
        return "wisc_test";
    }
}
