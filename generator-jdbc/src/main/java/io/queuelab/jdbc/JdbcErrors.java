package io.queuelab.jdbc;

import java.io.EOFException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;

/**
 * The error classes of failed JDBC requests, as the request log names them. The classification
 * looks at the whole cause chain, SQL states and MySQL/MariaDB error codes, so it holds for
 * Connector/J's own exception types and for the plain {@code java.sql} ones alike.
 */
public final class JdbcErrors {
    public static final String CONNECTION_LOST = "connection_lost";
    public static final String TIMEOUT = "timeout";
    public static final String DEADLOCK = "deadlock";
    public static final String CONSTRAINT = "constraint";
    public static final String OTHER = "other";

    private static final int ER_LOCK_WAIT_TIMEOUT = 1205;
    private static final int ER_LOCK_DEADLOCK = 1213;
    private static final int ER_STATEMENT_TIMEOUT_MARIADB = 1969;
    private static final int ER_QUERY_TIMEOUT_MYSQL = 3024;
    private static final int ER_SERVER_SHUTDOWN = 1053;

    private JdbcErrors() {
    }

    /**
     * A request that failed at once without being sent: its session had no connection and was
     * waiting out its reconnect backoff. Its cause is the last attempt's failure (often a connect
     * timeout at a frozen server), which is not what happened to this request.
     */
    static final class NotConnected extends SQLNonTransientConnectionException {
        NotConnected(String message, SQLException lastAttempt) {
            super(message, "08003", 0, lastAttempt);
        }
    }

    /** One of the constants above. */
    public static String classify(Throwable failure) {
        // by what happened to this request, not by its cause: ~1,900 requests in backoff were 'timeout'
        if (failure instanceof NotConnected) {
            return CONNECTION_LOST;
        }
        // timeouts first: a socket timeout arrives wrapped in a communications (connection) error
        for (Throwable t = failure; t != null; t = next(t)) {
            if (t instanceof SocketTimeoutException || t instanceof SQLTimeoutException
                    || t instanceof SQLException e && (e.getErrorCode() == ER_STATEMENT_TIMEOUT_MARIADB || e.getErrorCode() == ER_QUERY_TIMEOUT_MYSQL)) {
                return TIMEOUT;
            }
        }
        for (Throwable t = failure; t != null; t = next(t)) {
            if (t instanceof SQLException e) {
                String state = e.getSQLState() == null ? "" : e.getSQLState();
                int code = e.getErrorCode();
                if (code == ER_LOCK_DEADLOCK || code == ER_LOCK_WAIT_TIMEOUT || t instanceof SQLTransactionRollbackException || state.startsWith("40")) {
                    return DEADLOCK;
                }
                if (t instanceof SQLIntegrityConstraintViolationException || state.startsWith("23")) {
                    return CONSTRAINT;
                }
                if (isConnectionLoss(e)) {
                    return CONNECTION_LOST;
                }
            } else if (t instanceof SocketException || t instanceof EOFException) {
                return CONNECTION_LOST;
            }
        }
        return OTHER;
    }

    /** Whether the failure leaves the connection unusable (lost or timed out at the socket). */
    static boolean breaksConnection(Throwable failure) {
        String kind = classify(failure);
        return CONNECTION_LOST.equals(kind) || TIMEOUT.equals(kind) && hasSocketTimeout(failure);
    }

    private static boolean hasSocketTimeout(Throwable failure) {
        for (Throwable t = failure; t != null; t = next(t)) {
            if (t instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    private static boolean isConnectionLoss(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        // Connector/J's CommunicationsException is a SQLRecoverableException with state 08S01
        return state.startsWith("08") || e.getErrorCode() == ER_SERVER_SHUTDOWN
                || e instanceof SQLNonTransientConnectionException || e instanceof SQLTransientConnectionException
                || e instanceof SQLRecoverableException;
    }

    private static Throwable next(Throwable t) {
        Throwable cause = t.getCause();
        return cause == t ? null : cause;
    }
}
