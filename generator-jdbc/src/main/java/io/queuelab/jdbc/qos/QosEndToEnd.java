package io.queuelab.jdbc.qos;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.run.LoadRun;
import io.queuelab.core.run.RunCompanion;
import io.queuelab.core.run.RunConfig;
import io.queuelab.core.run.RunResult;
import io.queuelab.core.run.RunStop;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;
import io.queuelab.jdbc.JdbcTarget;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Seed 000's end-to-end writing test (its section 5.4): C measurement clients each producing
 * {@code linesPerClient} lines/s at constant rate, written by W writers ({@link QosIngestBackend});
 * a warm-up, then a measured window. Reported: the lines written per second within the window
 * (the seed's throughput while all clients run), and the backlog: how long after the producers
 * stopped the last line was written (the seed's buffer length), and the longest wait of a line.
 *
 * <p>Guarantees: each run is a complete run directory with every line logged; lines still unwritten
 * when the drain timeout ran out are counted, never dropped silently. A {@link RunStop} request ends
 * the point in progress as a run's interruption does ({@link #run} then returns null).
 */
public final class QosEndToEnd {
    /** One measured point. */
    public record Result(int clients, int writers, double offeredPerSecond, double writtenPerSecond, double backlogSeconds,
                         double maxWaitSeconds, long unfinished, Path run) {
        public String line() {
            return String.format(Locale.ROOT, "%7d %7d %10.0f %10.0f %11.2f %11.2f %10d", clients, writers, offeredPerSecond,
                    writtenPerSecond, backlogSeconds, maxWaitSeconds, unfinished);
        }

        public static String header() {
            return String.format(Locale.ROOT, "%7s %7s %10s %10s %11s %11s %10s", "clients", "writers", "offered/s", "written/s",
                    "backlog s", "max wait s", "unwritten");
        }
    }

    private final JdbcTarget target;
    private final QosSchema schema;
    private final double linesPerClient;
    private final Duration warmup;
    private final Duration window;
    private final Duration drain;
    private final RunStop stop;

    public QosEndToEnd(JdbcTarget target, QosSchema schema, double linesPerClient, Duration warmup, Duration window, Duration drain) {
        this(target, schema, linesPerClient, warmup, window, drain, new RunStop());
    }

    /** As above; {@code stop} ends the test early. */
    public QosEndToEnd(JdbcTarget target, QosSchema schema, double linesPerClient, Duration warmup, Duration window, Duration drain,
                       RunStop stop) {
        this.stop = stop;
        if (!(linesPerClient > 0)) {
            throw new IllegalArgumentException("lines per client and second must be positive: " + linesPerClient);
        }
        this.target = target;
        this.schema = schema;
        this.linesPerClient = linesPerClient;
        this.warmup = warmup;
        this.window = window;
        this.drain = drain;
    }

    /** One point on fresh tables, leaving the run in {@code dir}; null after a stop request. */
    public Result run(int clients, int writers, Path dir, long seed) throws Exception {
        if (stop.requested()) {
            return null;
        }
        QosWriteBackend.createTables(target, schema, QosWriteBackend.WRITE_BASE);
        double rate = clients * linesPerClient;
        List<Phase> phases = warmup.isZero() ? List.of(Phase.open("main", window, rate, false))
                : List.of(Phase.open("warmup", warmup, rate, true), Phase.open("main", window, rate, false));
        LoadPlan plan = new LoadPlan(phases, LoadPlan.Arrivals.CONSTANT, Duration.ZERO);
        RunConfig config = new RunConfig(plan, writers, 10_000_000, 1, seed, 0, 1, null, Duration.ZERO, drain, dir);
        RunResult result;
        try (QosIngestBackend backend = QosIngestBackend.open(target, schema, QosWriteBackend.WRITE_BASE, clients, seed)) {
            result = LoadRun.execute(config, backend, Map.of("workload", "qos-ingest", "schema", schema.number(),
                    "clients", clients, "writers", writers, "linesPerClientPerSecond", linesPerClient), null, RunCompanion.NONE, stop);
        }
        if (stop.requested()) {
            return null; // interrupted: the run's manifest says so
        }
        RunDirectory run = result.directory();
        long start = run.manifest().scheduleStartNanos();
        long windowStart = start + warmup.toNanos();
        long end = windowStart + window.toNanos();
        long inWindow = 0;
        long lastCompletion = end;
        long maxWait = 0;
        try (RequestLogReader r = run.openLog()) {
            while (r.next()) {
                if (r.outcome() != LogFormat.OK) {
                    continue;
                }
                if (r.completed() >= windowStart && r.completed() < end) {
                    inWindow++;
                }
                lastCompletion = Math.max(lastCompletion, r.completed());
                maxWait = Math.max(maxWait, r.sent() - r.intended());
            }
        }
        return new Result(clients, writers, rate, inWindow / (window.toNanos() / 1e9), (lastCompletion - end) / 1e9,
                maxWait / 1e9, result.totals().unfinished() + result.totals().dropped(), dir);
    }
}
