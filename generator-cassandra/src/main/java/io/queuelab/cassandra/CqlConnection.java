package io.queuelab.cassandra;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import io.queuelab.cassandra.workload.CqlContext;
import io.queuelab.cassandra.workload.CqlWorkload;
import io.queuelab.cassandra.workload.PreparedWorkload;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A driver session connected to a cluster, with the workload's keyspace, tables and data in place
 * and its statements prepared. Shared by {@link CqlBackend} and {@link CqlSyncBackend}.
 * {@link #open} fails with a one-line message when no contact point answers, the keyspace or a
 * table is missing (with {@code createSchema} off), or the data cannot be loaded.
 */
final class CqlConnection implements AutoCloseable {
    private static final Duration DDL_TIMEOUT = Duration.ofSeconds(60);
    /** Timeout of setup requests (prepare, metadata); the run's requests carry the configured timeout. */
    private static final Duration SETUP_TIMEOUT = Duration.ofSeconds(20);
    private static final String LOADED_TABLE = "queuelab_loaded";

    private final CqlSettings settings;
    private final CqlWorkload workload;
    private final CqlSession session;
    private final PreparedWorkload prepared;

    private CqlConnection(CqlSettings settings, CqlWorkload workload, CqlSession session, PreparedWorkload prepared) {
        this.settings = settings;
        this.workload = workload;
        this.session = session;
        this.prepared = prepared;
    }

    static CqlConnection open(CqlSettings settings, CqlWorkload workload) throws Exception {
        try (CqlSession admin = connect(settings, false)) {
            ensureKeyspace(admin, settings);
        }
        CqlSession session = connect(settings, true);
        try {
            boolean markLoads = ensureTables(session, settings, workload);
            CqlContext context = new CqlContext(session, settings.writeConsistency(), settings.readConsistency(),
                    settings.requestTimeout());
            PreparedWorkload prepared;
            try {
                prepared = workload.prepare(context);
            } catch (InvalidQueryException e) {
                throw new IllegalStateException("the workload's tables are not in keyspace '" + settings.keyspace()
                        + "' (" + e.getMessage() + "); create them or drop --no-create-schema", e);
            }
            loadOnce(session, workload, prepared, markLoads);
            return new CqlConnection(settings, workload, session, prepared);
        } catch (Exception | Error e) {
            session.close();
            throw e;
        }
    }

    static CqlSession connect(CqlSettings settings, boolean withKeyspace) throws IOException {
        DriverConfigLoader config = driverConfig(settings);
        try {
            var builder = CqlSession.builder()
                    .addContactPoints(settings.contactPoints())
                    .withLocalDatacenter(settings.localDatacenter())
                    .withConfigLoader(config);
            if (withKeyspace) {
                builder.withKeyspace(CqlIdentifier.fromInternal(settings.keyspace()));
            }
            return builder.build();
        } catch (AllNodesFailedException e) {
            throw new IOException("cannot reach Cassandra at " + describe(settings)
                    + ": no contact point answered (is it running? 'queuelab cassandra status')", e);
        } catch (InvalidQueryException e) {
            throw new IllegalStateException("keyspace '" + settings.keyspace() + "' cannot be used: " + e.getMessage(), e);
        }
    }

    /** The driver's settings for every session queuelab opens: no retries, a fine timeout tick, quick reconnection. */
    static DriverConfigLoader driverConfig(CqlSettings settings) {
        return DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, SETUP_TIMEOUT) // workload requests set their own
                .withInt(DefaultDriverOption.CONNECTION_POOL_LOCAL_SIZE, settings.poolSize())
                .withInt(DefaultDriverOption.CONNECTION_POOL_REMOTE_SIZE, settings.poolSize())
                .withClass(DefaultDriverOption.RETRY_POLICY_CLASS, NoRetryPolicy.class)
                // the driver checks request timeouts once per tick (default 100 ms): a timed-out
                // request's failure instant is late by up to one tick
                .withDuration(DefaultDriverOption.NETTY_TIMER_TICK_DURATION, Duration.ofMillis(10))
                // a restarted node is back in the pool within a second or two
                .withDuration(DefaultDriverOption.RECONNECTION_BASE_DELAY, Duration.ofMillis(500))
                .withDuration(DefaultDriverOption.RECONNECTION_MAX_DELAY, Duration.ofSeconds(2))
                .withDuration(DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT, Duration.ofSeconds(5))
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(5))
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(5))
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, DDL_TIMEOUT)
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, DDL_TIMEOUT)
                .build();
    }

    private static void ensureKeyspace(CqlSession admin, CqlSettings settings) {
        if (settings.createSchema()) {
            admin.execute(SimpleStatement.newInstance("CREATE KEYSPACE IF NOT EXISTS " + settings.keyspace()
                            + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': "
                            + settings.replicationFactor() + "}")
                    .setTimeout(DDL_TIMEOUT));
            admin.checkSchemaAgreement();
        } else if (admin.getMetadata().getKeyspace(settings.keyspace()).isEmpty()) {
            throw new IllegalStateException("keyspace '" + settings.keyspace() + "' does not exist at "
                    + describe(settings) + " (create it, or drop --no-create-schema)");
        }
    }

    /** Creates the workload's tables when asked; returns whether loads can be recorded (marker table exists). */
    private static boolean ensureTables(CqlSession session, CqlSettings settings, CqlWorkload workload) {
        if (settings.createSchema()) {
            for (String ddl : workload.schema()) {
                session.execute(SimpleStatement.newInstance(ddl).setTimeout(DDL_TIMEOUT));
            }
            session.execute(SimpleStatement.newInstance("CREATE TABLE IF NOT EXISTS " + LOADED_TABLE
                    + " (dataset text PRIMARY KEY, loaded_at timestamp)").setTimeout(DDL_TIMEOUT));
            session.checkSchemaAgreement();
            return true;
        }
        return session.getMetadata().getKeyspace(settings.keyspace())
                .flatMap(ks -> ks.getTable(LOADED_TABLE)).isPresent();
    }

    /** Loads the workload's data unless a completed load of the same data set is recorded. */
    private static void loadOnce(CqlSession session, CqlWorkload workload, PreparedWorkload prepared, boolean markLoads)
            throws Exception {
        String key = workload.datasetKey();
        // ONE suffices: the marker exists on any replica only after every replica acknowledged the load
        if (markLoads && session.execute(SimpleStatement.newInstance(
                "SELECT dataset FROM " + LOADED_TABLE + " WHERE dataset = ?", key)
                .setConsistencyLevel(DefaultConsistencyLevel.ONE)).one() != null) {
            return;
        }
        try {
            prepared.load();
        } catch (Exception e) {
            throw new IOException("loading the workload's data (" + key + ") at consistency ALL failed: "
                    + CqlErrors.unwrap(e).getMessage(), e);
        }
        if (markLoads) {
            // written last: a marker means every write of the load was acknowledged by all replicas
            session.execute(SimpleStatement.newInstance("INSERT INTO " + LOADED_TABLE
                    + " (dataset, loaded_at) VALUES (?, toTimestamp(now()))", key)
                    .setConsistencyLevel(DefaultConsistencyLevel.ALL));
        }
    }

    private static String describe(CqlSettings settings) {
        return settings.contactPoints().stream()
                .map(p -> p.getHostString() + ":" + p.getPort())
                .collect(Collectors.joining(","));
    }

    CqlWorkload workload() {
        return workload;
    }

    PreparedWorkload prepared() {
        return prepared;
    }

    CqlSettings settings() {
        return settings;
    }

    /** Server version, cluster name and size, consistency levels, replication and workload. */
    Map<String, Object> describe() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("server", "Apache Cassandra");
        var local = session.execute("SELECT release_version FROM system.local").one();
        d.put("release_version", local == null ? "unknown" : local.getString(0));
        d.put("cluster_name", session.getMetadata().getClusterName().orElse("unknown"));
        d.put("nodes", session.getMetadata().getNodes().size());
        d.put("contact_points", describe(settings));
        d.put("local_datacenter", settings.localDatacenter());
        d.put("keyspace", settings.keyspace());
        d.put("replication", session.getMetadata().getKeyspace(settings.keyspace())
                .map(KeyspaceMetadata::getReplication).map(Map::toString).orElse("unknown"));
        d.put("write_consistency", settings.writeConsistency().name());
        d.put("read_consistency", settings.readConsistency().name());
        d.put("pool_size_per_node", settings.poolSize());
        d.put("request_timeout_ms", settings.requestTimeout().toMillis());
        d.put("driver_retries", "none");
        d.put("workload", workload.describe());
        return d;
    }

    @Override
    public void close() {
        session.close();
    }
}
