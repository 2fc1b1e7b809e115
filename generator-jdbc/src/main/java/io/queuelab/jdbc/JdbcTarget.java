package io.queuelab.jdbc;

import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * Where and as whom to connect: a MySQL/MariaDB JDBC URL, a user and a password.
 *
 * <p>Guarantees: the password never appears in {@link #toString()} or {@link #redactedUrl()}, and it
 * is only read from an environment variable or a file (see the factories), never from a command
 * line. Connections opened here carry the driver settings queuelab measures with (server-side
 * prepared statements, TLS off on loopback unless the URL asks for it, a socket timeout), and a
 * failure to connect is one clear line naming the URL without credentials.
 */
public final class JdbcTarget {
    static final String MYSQL_SCHEME = "jdbc:mysql:";
    static final String MARIADB_SCHEME = "jdbc:mariadb:";
    private final String url;
    private final String user;
    private final String password;

    public JdbcTarget(String url, String user, String password) {
        if (url == null || !url.startsWith(MYSQL_SCHEME) && !url.startsWith(MARIADB_SCHEME)) {
            throw new IllegalArgumentException("JDBC URL must start with jdbc:mariadb:// (MariaDB Connector/J) or jdbc:mysql:// (MySQL Connector/J): "
                    + redact(String.valueOf(url)));
        }
        this.url = url;
        this.user = Objects.requireNonNull(user, "user");
        this.password = password == null ? "" : password;
    }

    /** The password from an environment variable; an unset variable is an error. */
    public static String passwordFromEnv(String variable, Map<String, String> environment) {
        String value = environment.get(variable);
        if (value == null) {
            throw new IllegalArgumentException("environment variable " + variable + " (the database password) is not set");
        }
        return value;
    }

    /** The password from the first line of a file (a trailing newline is not part of it). */
    public static String passwordFromFile(Path file) throws IOException {
        try {
            String content = Files.readString(file);
            int end = content.indexOf('\n');
            return (end < 0 ? content : content.substring(0, end)).replace("\r", "");
        } catch (NoSuchFileException e) {
            throw new IOException("password file " + file + " does not exist");
        }
    }

    public String url() {
        return url;
    }

    public String user() {
        return user;
    }

    /** The URL with any user name, password or other secret removed (safe for manifests and logs). */
    public String redactedUrl() {
        return redact(url);
    }

    /** Whether requests go through MariaDB Connector/J (a {@code jdbc:mariadb:} URL) rather than MySQL's. */
    public boolean mariadbDriver() {
        return url.startsWith(MARIADB_SCHEME);
    }

    /**
     * A connection for requests: server-side prepared statements, the given socket timeout (0 = none),
     * through the driver the URL's scheme names.
     */
    public Connection connect(int socketTimeoutMillis) throws SQLException {
        Properties properties = baseProperties(url);
        properties.setProperty("useServerPrepStmts", "true");
        properties.setProperty("socketTimeout", Integer.toString(socketTimeoutMillis));
        if (mariadbDriver()) {
            // MariaDB Connector/J asks a MariaDB server (10.6+) not to resend a prepared statement's result
            // metadata with every execution (its CACHE_METADATA capability): ~25 % fewer bytes per point
            // select and about a third less client CPU than MySQL Connector/J (docs/benchmarks.md)
            return open(url, properties);
        }
        // no silent fall-back to client-side statements: a statement the server cannot prepare is an error
        properties.setProperty("emulateUnsupportedPstmts", "false");
        // the request path's own cost is part of every measurement (docs/benchmarks.md, "client CPU"):
        // no time stamp per packet, no timer for Statement query timeouts (the socket timeout bounds a
        // request), no registry of open result sets (each request closes its own)
        properties.setProperty("maintainTimeStats", "false");
        properties.setProperty("enableQueryTimeouts", "false");
        properties.setProperty("dontTrackOpenResources", "true");
        return open(url, properties);
    }

    /**
     * A server-side prepared statement, prepared on the server now. MariaDB Connector/J defers the
     * prepare to the first execution; asking for the parameter metadata makes it prepare at once, so a
     * statement that cannot prepare (an unknown table) fails before the run and no measured request
     * pays for the prepare.
     */
    public static PreparedStatement prepareNow(Connection c, String sql) throws SQLException {
        PreparedStatement statement = c.prepareStatement(sql);
        try {
            statement.getParameterMetaData();
            return statement;
        } catch (SQLException e) {
            statement.close();
            throw e;
        }
    }

    /**
     * A connection for bulk loading: LOAD DATA LOCAL from a stream is allowed, no socket timeout. Always
     * through MySQL Connector/J, whose statements take the stream ({@link WisconsinLoader}); loading is not
     * measured.
     */
    public Connection connectForLoading() throws SQLException {
        String mysqlUrl = mariadbDriver() ? MYSQL_SCHEME + url.substring(MARIADB_SCHEME.length()) : url;
        Properties properties = baseProperties(mysqlUrl);
        properties.setProperty("allowLoadLocalInfile", "true");
        return open(mysqlUrl, properties);
    }

    /** The properties both drivers take, spelled for the driver that {@code driverUrl}'s scheme names. */
    private Properties baseProperties(String driverUrl) {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        properties.setProperty("connectTimeout", "5000");
        // loopback measurements: TLS would add client and server CPU to every request; a URL may still ask for it
        properties.setProperty("sslMode", driverUrl.startsWith(MARIADB_SCHEME) ? "disable" : "DISABLED");
        properties.setProperty("tcpNoDelay", "true");
        return properties;
    }

    private Connection open(String url, Properties properties) throws SQLException {
        try {
            return DriverManager.getConnection(url, properties);
        } catch (SQLException e) {
            throw new SQLException(describeConnectFailure(e), e.getSQLState(), e.getErrorCode(), e);
        }
    }

    private String describeConnectFailure(SQLException e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String where = "database at " + redactedUrl();
        if (e.getErrorCode() == 1045) {
            return where + " refused user '" + user + "': wrong user or password (" + firstLine(e.getMessage()) + ")";
        }
        if (e.getErrorCode() == 1040) {
            return where + ": too many connections (raise max_connections, e.g. --server-arg=--max-connections=500 for the embedded server)";
        }
        if (e.getErrorCode() == 1049) {
            return where + ": " + firstLine(e.getMessage());
        }
        if (root instanceof ConnectException || root instanceof UnknownHostException) {
            return "cannot reach the " + where + ": " + firstLine(root.getMessage() == null ? root.toString() : root.getMessage());
        }
        return "cannot connect to the " + where + ": " + firstLine(e.getMessage());
    }

    public static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        String trimmed = message.strip();
        int end = trimmed.indexOf('\n');
        return (end < 0 ? trimmed : trimmed.substring(0, end)).strip();
    }

    /** Removes user info before the host and password/user-like query parameters. */
    static String redact(String url) {
        String noUserInfo = url.replaceFirst("//[^/@?#]*@", "//");
        return noUserInfo.replaceAll("(?i)([?&;](?:user|password|password\\d|pwd|sslKeyStorePassword|trustCertificateKeyStorePassword|clientCertificateKeyStorePassword)=)[^&;]*", "$1***")
                .replaceAll("\\?&", "?");
    }

    @Override
    public String toString() {
        return user + " @ " + redactedUrl();
    }
}
