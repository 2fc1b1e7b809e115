package io.queuelab.cli;

import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.Optional;

/**
 * The options that mean the same thing for every database backend, declared once so that a run
 * says {@code --request-timeout} and {@code --read-ratio} whichever backend it drives; each backend
 * keeps its own default (the owner of this mixin hands it to {@link JdbcOptions} or
 * {@link CassandraOptions}).
 */
public final class RequestOptions {
    @Option(names = "--request-timeout", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "A request waiting longer for the server fails as a timeout error (jdbc: 'timeout', default 30s, "
                    + "0 = never; cassandra: 'driver_timeout', default 2s).")
    Duration requestTimeout;

    @Option(names = "--read-ratio", paramLabel = "R",
            description = "Share of reads in a mixed workload (jdbc --operation mix: SELECTs, default 0.5; cassandra "
                    + "--scenario mixed: range or point reads, default 0.25, seed 003's 1:3).")
    Double readRatio;

    /** The request timeout, or {@code backendDefault} when none was given. */
    Duration requestTimeout(Duration backendDefault) {
        if (requestTimeout != null && requestTimeout.isNegative()) {
            throw new IllegalArgumentException("--request-timeout must not be negative");
        }
        return requestTimeout == null ? backendDefault : requestTimeout;
    }

    /** The read ratio, if one was given. */
    Optional<Double> readRatio() {
        if (readRatio != null && !(readRatio >= 0 && readRatio <= 1)) {
            throw new IllegalArgumentException("--read-ratio must be in [0, 1], was " + readRatio);
        }
        return Optional.ofNullable(readRatio);
    }
}
