package io.queuelab.cassandra;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NodeUnavailableException;
import com.datastax.oss.driver.api.core.connection.BusyConnectionException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.connection.ConnectionInitException;
import com.datastax.oss.driver.api.core.connection.HeartbeatException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;

import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** The error classes of CQL requests, as the request log names them. */
public final class CqlErrors {
    /** The client gave up waiting (the driver's request timeout). */
    public static final String DRIVER_TIMEOUT = "driver_timeout";
    /** The coordinator's replicas did not answer a read in time. */
    public static final String READ_TIMEOUT = "read_timeout";
    /** The coordinator's replicas did not acknowledge a write in time. */
    public static final String WRITE_TIMEOUT = "write_timeout";
    /** Too few replicas alive for the consistency level. */
    public static final String UNAVAILABLE = "unavailable";
    /** The coordinator shed the request. */
    public static final String OVERLOADED = "overloaded";
    /** No node could be reached, or the connection broke. */
    public static final String CONNECTION = "connection";
    /** A read returned something other than what was written. */
    public static final String WRONG_RESULT = "wrong_result";
    /** Anything else (invalid query, server error, ...). */
    public static final String OTHER = "other";

    /** Every class {@link #classify} returns, in a stable order (for the request log's outcome table). */
    public static final List<String> ALL = List.of(DRIVER_TIMEOUT, READ_TIMEOUT, WRITE_TIMEOUT, UNAVAILABLE,
            OVERLOADED, CONNECTION, WRONG_RESULT, OTHER);

    private CqlErrors() {
    }

    /** The error class of a failed request; wrappers of asynchronous completion are looked through. */
    public static String classify(Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof WrongResultException) {
            return WRONG_RESULT;
        } else if (cause instanceof DriverTimeoutException) {
            return DRIVER_TIMEOUT;
        } else if (cause instanceof ReadTimeoutException) {
            return READ_TIMEOUT;
        } else if (cause instanceof WriteTimeoutException) {
            return WRITE_TIMEOUT;
        } else if (cause instanceof UnavailableException) {
            return UNAVAILABLE;
        } else if (cause instanceof OverloadedException) {
            return OVERLOADED;
        } else if (cause instanceof AllNodesFailedException // includes NoNodeAvailableException
                || cause instanceof NodeUnavailableException
                || cause instanceof ClosedConnectionException
                || cause instanceof HeartbeatException
                || cause instanceof ConnectionInitException
                || cause instanceof BusyConnectionException) {
            return CONNECTION;
        }
        return OTHER;
    }

    /** The failure inside CompletionException/ExecutionException wrappers. */
    public static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
