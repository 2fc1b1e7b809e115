package io.queuelab.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How to reach and use a Cassandra cluster. Every factory method validates its input and fails with
 * a one-line {@link IllegalArgumentException} message naming the bad value.
 *
 * @param contactPoints     nodes to contact first (the driver discovers the rest)
 * @param localDatacenter   the driver's local datacenter ({@code datacenter1} on a local cluster)
 * @param keyspace          the keyspace holding the workload's tables
 * @param replicationFactor SimpleStrategy replication factor used when the keyspace is created
 * @param writeConsistency  consistency level of every write
 * @param readConsistency   consistency level of every read
 * @param poolSize          connections per node
 * @param requestTimeout    the driver's request timeout (a request slower than this fails as driver_timeout)
 * @param createSchema      create keyspace and tables when missing; false: they must exist
 */
public record CqlSettings(List<InetSocketAddress> contactPoints, String localDatacenter, String keyspace,
                          int replicationFactor, ConsistencyLevel writeConsistency,
                          ConsistencyLevel readConsistency, int poolSize, Duration requestTimeout,
                          boolean createSchema) {
    public static final int DEFAULT_PORT = 9042;

    public CqlSettings {
        contactPoints = List.copyOf(contactPoints);
        if (contactPoints.isEmpty()) {
            throw new IllegalArgumentException("at least one contact point is needed");
        }
        if (!keyspace.matches("[A-Za-z][A-Za-z0-9_]{0,47}")) {
            throw new IllegalArgumentException("not a valid keyspace name: '" + keyspace
                    + "' (a letter, then up to 47 letters, digits or _)");
        }
        if (replicationFactor < 1) {
            throw new IllegalArgumentException("replication factor must be >= 1, was " + replicationFactor);
        }
        if (poolSize < 1) {
            throw new IllegalArgumentException("pool size must be >= 1, was " + poolSize);
        }
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("request timeout must be positive, was " + requestTimeout);
        }
    }

    /** One local node on 127.0.0.1:9042, keyspace {@code queuelab}, RF 1, writes QUORUM, reads ONE. */
    public static CqlSettings local() {
        return new CqlSettings(List.of(new InetSocketAddress("127.0.0.1", DEFAULT_PORT)), "datacenter1",
                "queuelab", 1, DefaultConsistencyLevel.QUORUM, DefaultConsistencyLevel.ONE, 1,
                Duration.ofSeconds(2), true);
    }

    public CqlSettings withContactPoints(List<InetSocketAddress> points) {
        return new CqlSettings(points, localDatacenter, keyspace, replicationFactor, writeConsistency,
                readConsistency, poolSize, requestTimeout, createSchema);
    }

    public CqlSettings withKeyspace(String name, int rf) {
        return new CqlSettings(contactPoints, localDatacenter, name, rf, writeConsistency, readConsistency,
                poolSize, requestTimeout, createSchema);
    }

    public CqlSettings withConsistency(ConsistencyLevel write, ConsistencyLevel read) {
        return new CqlSettings(contactPoints, localDatacenter, keyspace, replicationFactor, write, read,
                poolSize, requestTimeout, createSchema);
    }

    public CqlSettings withRequestTimeout(Duration timeout) {
        return new CqlSettings(contactPoints, localDatacenter, keyspace, replicationFactor, writeConsistency,
                readConsistency, poolSize, timeout, createSchema);
    }

    public CqlSettings withCreateSchema(boolean create) {
        return new CqlSettings(contactPoints, localDatacenter, keyspace, replicationFactor, writeConsistency,
                readConsistency, poolSize, requestTimeout, create);
    }

    /** Parses {@code host[:port],host[:port]...}; the port defaults to 9042. */
    public static List<InetSocketAddress> parseContactPoints(String text) {
        List<InetSocketAddress> points = new ArrayList<>();
        for (String item : text.split(",")) {
            String point = item.trim();
            if (point.isEmpty()) {
                continue;
            }
            int colon = point.lastIndexOf(':');
            String host = colon < 0 ? point : point.substring(0, colon);
            int port = DEFAULT_PORT;
            if (colon >= 0) {
                try {
                    port = Integer.parseInt(point.substring(colon + 1));
                } catch (NumberFormatException e) {
                    port = -1;
                }
            }
            if (host.isEmpty() || port < 1 || port > 65535) {
                throw new IllegalArgumentException("not a contact point: '" + point + "' (expected host or host:port)");
            }
            InetSocketAddress address = new InetSocketAddress(host, port);
            if (address.isUnresolved()) {
                throw new IllegalArgumentException("unknown host in contact point '" + point + "'");
            }
            points.add(address);
        }
        if (points.isEmpty()) {
            throw new IllegalArgumentException("no contact point in '" + text + "'");
        }
        return points;
    }

    /** Parses a consistency level name (any case): ONE, QUORUM, LOCAL_QUORUM, ALL, ... */
    public static ConsistencyLevel parseConsistency(String name) {
        try {
            return DefaultConsistencyLevel.valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid consistency level '" + name + "' (one of "
                    + String.join(", ", Arrays.stream(DefaultConsistencyLevel.values()).map(Enum::name).toList()) + ")");
        }
    }
}
