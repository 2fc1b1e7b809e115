package io.queuelab.cassandra;

/** A read returned something other than what was written: the request counts as failed ({@code wrong_result}). */
public final class WrongResultException extends RuntimeException {
    public WrongResultException(String message) {
        super(message, null, false, false); // thrown per failed check: no stack trace needed
    }
}
