package io.queuelab.core.merge;

import io.queuelab.core.manifest.BackendInfo;
import io.queuelab.core.manifest.ClockAnchor;
import io.queuelab.core.manifest.HostInfo;
import io.queuelab.core.manifest.LoadConfig;
import io.queuelab.core.manifest.RunEnd;
import io.queuelab.core.manifest.RunNode;
import io.queuelab.core.manifest.ScheduleStart;
import io.queuelab.core.run.LogTotals;
import io.queuelab.core.run.SelfCheck;
import java.util.Map;
import io.queuelab.core.log.LogFormat;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.log.RequestLogWriter;
import io.queuelab.core.log.RunDirectory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Builds the run directory of one node by hand, with a log of known records and a manifest of
 * known anchor, schedule start and clock measurements, so that the merge's arithmetic can be
 * checked exactly.
 */
final class NodeRuns {
    static final long ANCHOR = 1_800_000_000_000_000_000L;
    static final long START = 50_000_000; // schedule start, ns after the anchor
    static final long SECOND = 1_000_000_000L;

    int index;
    int count = 2;
    long anchor = ANCHOR;
    long scheduleStart = START;
    double rate = 100;
    /** The manifest's {@code config.arrivals}. */
    String arrivals = "poisson";
    double durationSeconds = 1;
    boolean complete = true;
    /** The manifest's {@code config.startAt} ({@code --start-at}); null for none. */
    String startAt;
    /** The manifest's {@code settings.baseSeed} ({@code --seed}); null leaves settings out. */
    Long baseSeed;
    /** Reference minus node clock at the start and end of the run; null for no clock reference. */
    Long offsetAtStart;
    Long offsetAtEnd;
    String reference = "10.0.0.1:7471";
    /** Operation names by code, as this node's log defines them. */
    List<String> operations = List.of("select", "update");
    /** Error class of outcome code 3 in this node's log. */
    String errorClass = "timeout";
    /** Intended instants (log time) of ok requests with operation code 0, service 1 ms. */
    long[] intended = {START + 1_000_000};
    /** {from, to}: the ok requests intended in between complete only at {@code to} (+ 1 ms); null for none. */
    long[] stall;
    /** Intended instants of requests failing with {@link #errorClass}. */
    long[] failed = {};
    List<String> failures = List.of();

    NodeRuns(int index) {
        this.index = index;
    }

    Path write(Path dir) throws IOException {
        RunDirectory run = RunDirectory.create(dir);
        try (RequestLogWriter log = RequestLogWriter.create(run.log(), anchor)) {
            for (int code = 0; code < operations.size(); code++) {
                log.defineOperation(code, operations.get(code));
            }
            log.defineOutcome(LogFormat.FIRST_ERROR, errorClass);
            // logged in the order they complete, as a generator logs them
            long[][] ok = new long[intended.length][];
            for (int r = 0; r < intended.length; r++) {
                long t = intended[r];
                boolean held = stall != null && t >= stall[0] && t < stall[1];
                ok[r] = new long[] {t, (held ? stall[1] : t) + 1_000_000};
            }
            java.util.Arrays.sort(ok, java.util.Comparator.comparingLong(r -> r[1]));
            for (long[] r : ok) {
                log.append(r[0], r[0], r[0], r[1], index, 0, 0, LogFormat.OK, 0, 0);
            }
            for (long t : failed) {
                log.append(t, t, t, t + 2_000_000, index, 0, 0, LogFormat.FIRST_ERROR, 0, 0);
            }
        }
        Files.writeString(run.errors(), "intended_ns\tworker\toperation\tclass\tmessage\n"
                + (failed.length == 0 ? "" : failed[0] + "\t0\t0\t" + errorClass + "\tno answer in 2s\n"));
        Manifest m = Manifest.create("measured")
                .config(new LoadConfig("open", arrivals, 0, null,
                        List.of(new LoadConfig.PhaseConfig("main", durationSeconds, null, rate, false)), 1, 1, 1,
                        100L + index, 0, 0, startAt))
                .node(RunNode.single(index, count))
                .host(new HostInfo("client-" + index, null, 0))
                .start(new ScheduleStart(anchor, scheduleStart, null))
                .backend(new BackendInfo("sync", List.of(new BackendInfo.Operation("select", 0.5),
                        new BackendInfo.Operation("update", 0.5)), null));
        if (baseSeed != null) {
            m.settings(Map.of("baseSeed", baseSeed, "nodeIndex", index));
        }
        long records = intended.length + failed.length;
        m.totals(new LogTotals(records, intended.length, failed.length, 0, 0,
                failed.length > 0 ? Map.of(errorClass, (long) failed.length) : Map.of()));
        m.selfCheck(new SelfCheck(true, List.of(new SelfCheck.PhaseCheck("main", false, rate, records, 0,
                records / durationSeconds, Double.NaN, Double.NaN, 0)), 1000L * (index + 1), 5000L * (index + 1), 0, 0, 0, 0,
                0.5, 0, 0.01, 1, List.copyOf(failures),
                failures.isEmpty() ? "the generator kept up" : "the generator did not keep up", 0, 0, 0, 0, List.of()));
        if (offsetAtStart != null) {
            m.clock(new ClockAnchor(reference, new ClockAnchor.Measurement(offsetAtStart, 40_000L, 0L, 64, null),
                    offsetAtEnd == null ? null : new ClockAnchor.Measurement(offsetAtEnd, 30_000L, SECOND, 64, null)));
        }
        m.end(RunEnd.at(anchor + scheduleStart + (long) (durationSeconds * SECOND)));
        if (complete) {
            m.markComplete();
        }
        m.write(dir);
        return dir;
    }
}
