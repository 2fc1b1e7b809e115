package io.queuelab.jdbc;

import io.queuelab.core.clock.ClockProbe;
import io.queuelab.core.telemetry.SampleTimer;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Samples {@code SHOW GLOBAL STATUS} counters at a fixed interval into a CSV file, on its own
 * connection and its own daemon thread, so server-side events (page flushes, log writes) can be
 * lined up with response-time spikes.
 *
 * <p>Guarantees: the first column {@code epoch_ns} is the generator's wall clock (epoch
 * nanoseconds) taken just before each sample's query; one column per counter in
 * {@link #DEFAULT_COUNTERS} order (empty when the server has no such counter). A sample the server
 * does not answer (e.g. during an outage) is skipped and counted in {@link #missedSamples()}; the
 * sampler reconnects on the next tick. Every written row is complete; {@link #close()} flushes.
 *
 * <p>The last two columns, {@code sampler_bytes_received} and {@code sampler_bytes_sent}, are the
 * sampler's own sessions' bytes (its SHOW statements and their answers, about 16 kB a sample, which
 * the server's Bytes_sent also counts), summed over reconnections, so that a reader can take the
 * telemetry's traffic out of the server's.
 */
public final class ServerStatusSampler implements AutoCloseable {
    public static final String FILE_NAME = "server-status.csv";
    public static final List<String> DEFAULT_COUNTERS = List.of(
            "Innodb_buffer_pool_pages_dirty", "Innodb_buffer_pool_pages_flushed", "Innodb_buffer_pool_pages_data",
            "Innodb_buffer_pool_pages_total", "Innodb_buffer_pool_wait_free", "Innodb_data_writes", "Innodb_data_written",
            "Innodb_data_fsyncs", "Innodb_os_log_written", "Innodb_log_waits", "Innodb_row_lock_waits",
            "Innodb_row_lock_current_waits", "Threads_connected", "Threads_running", "Questions",
            "Com_select", "Com_update",
            // appended, so files written before keep their column order: what tells a flush stall (checkpoint age at its
            // limit, LRU flushes for free pages) from a CPU-scheduling one, then an ingest load's statements and bytes
            "Innodb_checkpoint_age", "Innodb_checkpoint_max_age", "Innodb_buffer_pool_pages_free",
            "Innodb_buffer_pool_pages_lru_flushed", "Com_insert", "Com_commit", "Bytes_received", "Bytes_sent", "Innodb_data_read");

    private final JdbcTarget target;
    private final List<String> counters;
    private SampleTimer timer;
    private BufferedWriter out;
    private Connection connection;
    private long samples;
    private long missed;
    /** Bytes of the sampler's earlier sessions, and the last seen of the current one. */
    private long samplerReceivedBefore;
    private long samplerSentBefore;
    private long samplerReceived;
    private long samplerSent;

    public ServerStatusSampler(JdbcTarget target) {
        this(target, DEFAULT_COUNTERS);
    }

    public ServerStatusSampler(JdbcTarget target, List<String> counters) {
        this.target = target;
        this.counters = List.copyOf(counters);
    }

    /**
     * Opens the file (which must not exist yet), takes the first sample at once and then one per
     * interval.
     */
    public synchronized void start(Path file, Duration interval) throws IOException, SQLException {
        if (timer != null) {
            throw new IllegalStateException("sampler already started");
        }
        SampleTimer.requirePositive(interval);
        connection = target.connect(0);
        out = Files.newBufferedWriter(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        out.write("epoch_ns," + String.join(",", counters) + ",sampler_bytes_received,sampler_bytes_sent\n");
        timer = SampleTimer.start("server-status-sampler", interval, this::sample);
    }

    /** Samples written so far. */
    public synchronized long samples() {
        return samples;
    }

    /** Ticks at which the server did not answer. */
    public synchronized long missedSamples() {
        return missed;
    }

    private synchronized void sample() {
        if (out == null) {
            return;
        }
        long epochNanos = ClockProbe.wallClockNanos();
        try {
            if (connection == null) {
                connection = target.connect(0);
            }
            Map<String, String> values = new HashMap<>();
            try (Statement s = connection.createStatement(); ResultSet r = s.executeQuery("SHOW GLOBAL STATUS")) {
                while (r.next()) {
                    values.put(r.getString(1), r.getString(2));
                }
            }
            try (Statement s = connection.createStatement();
                 ResultSet r = s.executeQuery("SHOW SESSION STATUS WHERE Variable_name IN ('Bytes_received', 'Bytes_sent')")) {
                while (r.next()) {
                    if (r.getString(1).equalsIgnoreCase("Bytes_received")) {
                        samplerReceived = r.getLong(2);
                    } else {
                        samplerSent = r.getLong(2);
                    }
                }
            }
            StringBuilder row = new StringBuilder().append(epochNanos);
            for (String counter : counters) {
                row.append(',').append(values.getOrDefault(counter, ""));
            }
            row.append(',').append(samplerReceivedBefore + samplerReceived).append(',').append(samplerSentBefore + samplerSent);
            out.write(row.append('\n').toString());
            samples++;
        } catch (SQLException e) {
            missed++;
            closeConnection();
        } catch (IOException e) {
            missed++;
        }
    }

    @Override
    public void close() throws IOException {
        SampleTimer t;
        synchronized (this) {
            t = timer;
        }
        if (t != null) {
            t.close();
        }
        synchronized (this) {
            closeConnection();
            if (out != null) {
                out.close();
                out = null;
            }
        }
    }

    private void closeConnection() {
        samplerReceivedBefore += samplerReceived;
        samplerSentBefore += samplerSent;
        samplerReceived = 0;
        samplerSent = 0;
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // a lost connection has nothing left to release
            }
            connection = null;
        }
    }
}
