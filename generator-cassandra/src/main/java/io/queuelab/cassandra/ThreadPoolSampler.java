package io.queuelab.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;

import io.queuelab.core.clock.ClockProbe;
import io.queuelab.core.telemetry.SampleTimer;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Samples the thread pools of every node ({@code system_views.thread_pools}: active, pending,
 * completed and blocked tasks per stage, among them {@code MemtableFlushWriter} for flushes and
 * {@code CompactionExecutor} for compactions) at a fixed interval into a CSV file, on its own
 * session and its own daemon thread, so that flushes and compactions can be lined up with the
 * response-time spikes they cause.
 *
 * <p>Guarantees: one row per node and pool per sample, {@code epoch_ns,node,pool,active,pending,
 * completed,blocked}, where {@code epoch_ns} is the generator's wall clock taken just before the
 * sample's queries and {@code node} the node's address; a node that does not answer (down, say) is
 * skipped for that sample and counted in {@link #missedSamples()}. Every written row is complete;
 * {@link #close()} flushes.
 */
public final class ThreadPoolSampler implements AutoCloseable {
    public static final String FILE_NAME = "cassandra-thread-pools.csv";
    private static final String QUERY = "SELECT name, active_tasks, pending_tasks, completed_tasks, blocked_tasks"
            + " FROM system_views.thread_pools";
    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(2);

    private final CqlSession session;
    private final BufferedWriter out;
    private final SampleTimer timer;
    private long samples;
    private long missed;

    private ThreadPoolSampler(CqlSession session, BufferedWriter out, Duration interval) {
        this.session = session;
        this.out = out;
        this.timer = SampleTimer.start("cassandra-thread-pool-sampler", interval, this::sample);
    }

    /**
     * Connects to the cluster {@code settings} name, creates {@code file} (which must not exist),
     * takes the first sample at once and then one per {@code interval}.
     */
    public static ThreadPoolSampler start(CqlSettings settings, Path file, Duration interval) throws IOException {
        SampleTimer.requirePositive(interval);
        CqlSession session = CqlConnection.connect(settings, false);
        try {
            BufferedWriter out = Files.newBufferedWriter(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            out.write("epoch_ns,node,pool,active,pending,completed,blocked\n");
            return new ThreadPoolSampler(session, out, interval);
        } catch (IOException | RuntimeException e) {
            session.close();
            throw e;
        }
    }

    /** Node samples written so far. */
    public synchronized long samples() {
        return samples;
    }

    /** Node samples that did not answer. */
    public synchronized long missedSamples() {
        return missed;
    }

    private synchronized void sample() {
        long epochNanos = ClockProbe.wallClockNanos();
        for (Node node : new ArrayList<>(session.getMetadata().getNodes().values())) {
            List<String> rows = new ArrayList<>();
            try {
                String address = node.getEndPoint().resolve().toString().replaceFirst("^[^/]*/", "");
                for (Row r : session.execute(SimpleStatement.newInstance(QUERY).setNode(node).setTimeout(QUERY_TIMEOUT))) {
                    // the counters' CQL types differ between Cassandra versions (int, bigint): take them as they come
                    rows.add(epochNanos + "," + address + "," + r.getString("name") + "," + r.getObject("active_tasks") + ","
                            + r.getObject("pending_tasks") + "," + r.getObject("completed_tasks") + "," + r.getObject("blocked_tasks"));
                }
                for (String row : rows) {
                    out.write(row);
                    out.write('\n');
                }
                samples++;
            } catch (IOException | RuntimeException e) {
                missed++; // the node is down or too busy to answer; its rows of this sample stay out
            }
        }
    }

    @Override
    public void close() throws IOException {
        timer.close();
        synchronized (this) {
            try {
                out.close();
            } finally {
                session.close();
            }
        }
    }
}
