package io.queuelab.jdbc;

import io.queuelab.core.backend.SyncSession;
import org.apache.commons.math3.random.MersenneTwister;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * One worker's connection: executes workload statement {@code operation} with freshly drawn
 * parameters and reads every row of a result.
 *
 * <p>Guarantees: after a failure that broke the connection (lost, or a socket timeout) the
 * session reconnects on a later request; while the server stays away, reconnect attempts are
 * spaced by an exponential backoff ({@value #FIRST_BACKOFF_MILLIS} ms doubling to
 * {@value #MAX_BACKOFF_MILLIS} ms) and requests in between fail at once as connection_lost, so a
 * worker never blocks an open-loop run for long. An outage breaks every session's connection, but a
 * session only finds out when it next sends, which for a worker parked through the outage can be long
 * after the server is back: so when another session of the same backend has lost its connection since
 * this one last knew its own good, this one checks its connection (a ping) before its next request and
 * reconnects if it is dead, and no request fails on a stale connection once the server is back.
 * {@link #lastParameters()} and
 * {@link #lastRowCount()} tell what the last successful request did (for tests and checks).
 */
public final class JdbcSession implements SyncSession {
    static final long FIRST_BACKOFF_MILLIS = 50;
    static final long MAX_BACKOFF_MILLIS = 2_000;
    /** How long the check of a connection after another session's loss may wait for the server's answer. */
    static final int CHECK_TIMEOUT_SECONDS = 1;

    private final JdbcTarget target;
    private final List<WorkloadStatement> statements;
    private final int socketTimeoutMillis;
    private final LongSupplier[][] generators;
    private final long[][] values;
    private Connection connection;
    private PreparedStatement[] prepared;
    private long backoffMillis;
    private long nextAttemptNanos;
    private SQLException lastConnectFailure;
    private int lastOperation = -1;
    private long lastRowCount = -1;
    private long reconnects;
    /** Connections lost by any session of the backend; shared by its sessions. */
    private final AtomicLong lostConnections;
    /** {@link #lostConnections} when this session last knew its own connection good. */
    private long lostSeen;

    JdbcSession(JdbcTarget target, Workload workload, int socketTimeoutMillis, long seed, AtomicLong lostConnections)
            throws SQLException {
        this.target = target;
        this.lostConnections = lostConnections;
        this.statements = workload.statements();
        this.socketTimeoutMillis = socketTimeoutMillis;
        SplittableRandom seeds = new SplittableRandom(seed);
        this.generators = new LongSupplier[statements.size()][];
        this.values = new long[statements.size()][];
        for (int op = 0; op < statements.size(); op++) {
            List<ParameterSpec> specs = statements.get(op).parameters();
            generators[op] = new LongSupplier[specs.size()];
            values[op] = new long[specs.size()];
            for (int i = 0; i < specs.size(); i++) {
                generators[op][i] = specs.get(i).newGenerator(new MersenneTwister(seeds.nextLong()));
            }
        }
        connect(); // the first connection fails loudly: a run must not start without it
    }

    @Override
    public void execute(int operation) throws SQLException {
        if (connection != null && lostConnections.get() != lostSeen) {
            checkConnection();
        }
        if (connection == null) {
            reconnect();
        }
        PreparedStatement statement = prepared[operation];
        long[] parameters = values[operation];
        LongSupplier[] draw = generators[operation];
        for (int i = 0; i < draw.length; i++) {
            parameters[i] = draw[i].getAsLong();
            statement.setLong(i + 1, parameters[i]);
        }
        lastOperation = -1;
        try {
            long rows = 0;
            if (statement.execute()) {
                try (ResultSet result = statement.getResultSet()) {
                    while (result.next()) {
                        rows++;
                    }
                }
            } else {
                rows = statement.getLargeUpdateCount();
            }
            lastOperation = operation;
            lastRowCount = rows;
        } catch (SQLException e) {
            if (JdbcErrors.breaksConnection(e)) {
                lostSeen = lostConnections.incrementAndGet();
                dropConnection();
            }
            throw e;
        }
    }

    /** Another session lost its connection since this one last knew its own good: is this one alive? */
    private void checkConnection() {
        lostSeen = lostConnections.get();
        boolean alive;
        try {
            alive = connection.isValid(CHECK_TIMEOUT_SECONDS);
        } catch (SQLException e) {
            alive = false;
        }
        if (!alive) {
            dropConnection();
        }
    }

    /** The parameters of the last successful request (a copy), or null if the last request failed. */
    public long[] lastParameters() {
        return lastOperation < 0 ? null : values[lastOperation].clone();
    }

    /** Rows read (a query) or matched (an update) by the last successful request; -1 if it failed. */
    public long lastRowCount() {
        return lastOperation < 0 ? -1 : lastRowCount;
    }

    /** How often this session has reconnected after losing its connection. */
    public long reconnects() {
        return reconnects;
    }

    @Override
    public void close() {
        dropConnection();
    }

    private void reconnect() throws SQLException {
        long now = System.nanoTime();
        if (now < nextAttemptNanos) {
            throw new JdbcErrors.NotConnected("not connected to " + target.redactedUrl()
                    + " (next reconnect attempt in backoff): " + JdbcTarget.firstLine(lastConnectFailure.getMessage()),
                    lastConnectFailure);
        }
        try {
            connect();
            reconnects++;
            backoffMillis = 0;
        } catch (SQLException e) {
            lastConnectFailure = e;
            backoffMillis = backoffMillis == 0 ? FIRST_BACKOFF_MILLIS : Math.min(MAX_BACKOFF_MILLIS, backoffMillis * 2);
            nextAttemptNanos = System.nanoTime() + backoffMillis * 1_000_000;
            throw e;
        }
    }

    private void connect() throws SQLException {
        long lost = lostConnections.get();
        Connection c = target.connect(socketTimeoutMillis);
        PreparedStatement[] statements = new PreparedStatement[this.statements.size()];
        try {
            for (int op = 0; op < statements.length; op++) {
                statements[op] = JdbcTarget.prepareNow(c, this.statements.get(op).sql());
            }
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        connection = c;
        prepared = statements;
        lostSeen = lost;
    }

    private void dropConnection() {
        Connection c = connection;
        connection = null;
        prepared = null;
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // the connection is already broken; closing only frees the driver's resources
            }
        }
    }
}
