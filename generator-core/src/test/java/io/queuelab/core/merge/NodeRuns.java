package io.queuelab.core.merge;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.Manifest;
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
    double durationSeconds = 1;
    boolean complete = true;
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
            for (long t : intended) {
                log.append(t, t, t, t + 1_000_000, index, 0, 0, LogFormat.OK, 0, 0);
            }
            for (long t : failed) {
                log.append(t, t, t, t + 2_000_000, index, 0, 0, LogFormat.FIRST_ERROR, 0, 0);
            }
        }
        Files.writeString(run.errors(), "intended_ns\tworker\toperation\tclass\tmessage\n"
                + (failed.length == 0 ? "" : failed[0] + "\t0\t0\t" + errorClass + "\tno answer in 2s\n"));
        Manifest m = Manifest.create("measured");
        ObjectNode config = m.section("config");
        config.put("loop", "open").put("arrivals", "poisson").put("seed", 100 + index);
        config.putArray("phases").addObject().put("name", "main").put("durationSeconds", durationSeconds)
                .put("rate", rate).put("warmup", false);
        m.section("node").put("index", index).put("count", count);
        m.section("host").put("name", "client-" + index);
        m.section("start").put("anchorEpochNanos", anchor).put("scheduleStartNanos", scheduleStart);
        ArrayNode ops = m.section("backend").put("kind", "sync").putArray("operations");
        List.of("select", "update").forEach(name -> ops.addObject().put("name", name).put("probability", 0.5));
        long records = intended.length + failed.length;
        m.section("totals").put("scheduled", records).put("ok", intended.length).put("errors", failed.length)
                .put("dropped", 0).put("unfinished", 0).putObject("errorsByClass");
        if (failed.length > 0) {
            ((ObjectNode) m.root().path("totals").path("errorsByClass")).put(errorClass, failed.length);
        }
        ObjectNode check = m.section("selfCheck");
        check.put("openLoop", true).put("lagP50Nanos", 1000 * (index + 1)).put("lagP99Nanos", 5000 * (index + 1))
                .put("cpuSeconds", 0.5).put("gcPauseSeconds", 0.01).put("gcCount", 1);
        check.putArray("phases").addObject().put("achievedRate", records / durationSeconds);
        ArrayNode f = check.putArray("failures");
        failures.forEach(f::add);
        check.put("verdict", failures.isEmpty() ? "the generator kept up" : "the generator did not keep up");
        if (offsetAtStart != null) {
            ObjectNode clock = m.section("clock").put("reference", reference);
            clock.putObject("start").put("offsetNanos", offsetAtStart).put("uncertaintyNanos", 40_000)
                    .put("atNanos", 0).put("exchanges", 64);
            if (offsetAtEnd != null) {
                clock.putObject("end").put("offsetNanos", offsetAtEnd).put("uncertaintyNanos", 30_000)
                        .put("atNanos", SECOND).put("exchanges", 64);
            }
        }
        m.section("end").put("epochNanos", anchor + scheduleStart + (long) (durationSeconds * SECOND));
        if (complete) {
            m.markComplete();
        }
        m.write(dir);
        return dir;
    }
}
