package io.queuelab.core.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.Manifest;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.log.RequestLogWriter;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.run.GapSample;
import io.queuelab.core.run.LogTotals;
import io.queuelab.core.run.SelfCheck;
import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Merges the run directories of the nodes of one distributed run ({@code --node-index i --node-count
 * k}, same plan) into one run directory that every analysis reads like a single generator's run.
 *
 * <p>Guarantees: every input is checked before anything is written (complete, measured, every node
 * of the run exactly once, the same phases, the same clock reference or none); every record of
 * every node appears exactly once in the merged log, with its node index; record times are moved
 * onto one time line, the reference clock's when the nodes measured theirs against one ({@code
 * --clock-reference}), each node's wall clock otherwise; operations and error classes are matched
 * by name. The merged self-check keeps every node's failures and adds the checks only the merged
 * log allows: the superposed schedule of all nodes against the total rate (the arrival count, and a
 * KS test of its gaps against Exp(total rate), which fails when nodes share a seed), the skew of the
 * nodes' starts, and the record count against the nodes' totals. Every node's telemetry comes along
 * on the same time line, its own machine's per node and the server's once ({@link TelemetryMerge}).
 * The output's manifest is marked
 * complete last; a merge that fails half-way removes its output.
 */
public final class RunMerge {
    /** Largest start skew, as a share of the shortest measured phase, that the self-check accepts. */
    public static final double MAX_START_SKEW_SHARE = 0.01;
    /** Most arrival instants per phase kept for the KS test of the superposed schedule. */
    static final int KS_INSTANTS_PER_PHASE = 2_000_000;

    /**
     * @param clockReference the reference all nodes measured against, or null when the nodes' own
     *                       wall clocks were taken to agree
     * @param startSkewNanos latest minus earliest node schedule start, on the merged time line
     */
    public record Result(RunDirectory directory, long records, int nodes, String clockReference,
                         long startSkewNanos, long maxClockUncertaintyNanos, SelfCheck selfCheck) {
    }

    private RunMerge() {
    }

    /** Merges {@code runs} (one per node) into the new run directory {@code out}. */
    public static Result merge(List<Path> runs, Path out) throws IOException {
        List<NodeRun> nodes = validate(runs);
        NodeRun first = nodes.get(0);
        long anchor = nodes.stream().mapToLong(n -> n.anchor + n.clock.offsetAt(0)).min().orElseThrow();
        for (NodeRun n : nodes) {
            n.shift = n.anchor - anchor;
        }
        RunDirectory dir = RunDirectory.create(out);
        try {
            return write(dir, nodes, first, anchor);
        } catch (IOException | RuntimeException e) {
            try (Stream<Path> files = Files.list(dir.path())) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir.path());
            throw e;
        }
    }

    private static Result write(RunDirectory dir, List<NodeRun> nodes, NodeRun first, long anchor) throws IOException {
        List<Phase> phases = mergedPhases(nodes);
        LoadPlan.Arrivals arrivals = LoadPlan.Arrivals.valueOf(
                first.config().path("arrivals").asText("poisson").toUpperCase(Locale.ROOT));
        boolean open = !first.config().path("loop").asText("open").equals("closed");
        long[] phaseStart = new long[phases.size()];
        long[] phaseEnd = new long[phases.size()];
        overlap(nodes, phases, phaseStart, phaseEnd);
        PhaseInstants[] instants = new PhaseInstants[phases.size()];
        for (int p = 0; p < phases.size(); p++) {
            double rate = phases.get(p).rate();
            long window = rate > 0 ? (long) Math.min(phaseEnd[p] - phaseStart[p], KS_INSTANTS_PER_PHASE / rate * 1e9) : 0;
            instants[p] = new PhaseInstants(phaseStart[p], phaseStart[p] + Math.max(0, window));
        }

        Manifest manifest = Manifest.create("measured");
        manifest.root().setAll(first.manifest.root().deepCopy());
        manifest.root().put("complete", false);
        manifest.write(dir.path());

        long records = mergeLogs(dir, nodes, anchor, first, instants);
        mergeErrors(dir, nodes);
        TelemetryMerge.Outcome telemetry = TelemetryMerge.merge(nodes.stream()
                .map(n -> new TelemetryMerge.Node(n.index, n.dir.path(), n::epochOnLine)).toList(), dir.path());

        List<String> failures = new ArrayList<>();
        List<SelfCheck.PhaseCheck> checks = new ArrayList<>();
        for (int p = 0; p < phases.size(); p++) {
            Phase phase = phases.get(p);
            int index = p;
            double achieved = nodes.stream().mapToDouble(n -> n.selfCheck().path("phases").path(index)
                    .path("achievedRate").asDouble()).sum();
            if (open) {
                checks.add(SelfCheck.openPhase(phase, arrivals, nodes.size(), instants[p].count, achieved, instants[p].gapSample(),
                        "scheduled gaps of all nodes together", failures));
            } else {
                checks.add(new SelfCheck.PhaseCheck(phase.name(), phase.warmup(), 0, instants[p].count, Double.NaN,
                        achieved, Double.NaN, Double.NaN, 0));
            }
        }
        long earliest = nodes.stream().mapToLong(n -> n.onLine(n.scheduleStart)).min().orElseThrow();
        long latest = nodes.stream().mapToLong(n -> n.onLine(n.scheduleStart)).max().orElseThrow();
        long skew = latest - earliest;
        long shortest = phases.stream().filter(p -> !p.warmup()).mapToLong(p -> p.duration().toNanos()).min()
                .orElse(phases.get(0).duration().toNanos());
        if (skew > MAX_START_SKEW_SHARE * shortest) {
            failures.add(String.format(Locale.ROOT, "the nodes' schedules started %.1f ms apart, more than %.0f %% of the "
                    + "shortest phase", skew / 1e6, MAX_START_SKEW_SHARE * 100));
        }
        LogTotals totals = sumTotals(nodes);
        if (records != totals.scheduled()) {
            failures.add("the merged log holds " + records + " records but the nodes' totals count " + totals.scheduled());
        }
        for (NodeRun n : nodes) {
            for (JsonNode f : n.selfCheck().path("failures")) {
                failures.add("node " + n.index + ": " + f.asText());
            }
        }
        SelfCheck check = combinedCheck(nodes, open, checks, totals, failures);
        describe(manifest, nodes, phases, anchor, earliest, totals, check, skew, telemetry);
        manifest.markComplete();
        manifest.write(dir.path());
        String reference = nodes.get(0).clock.measured() ? nodes.get(0).clockReference() : null;
        long uncertainty = nodes.stream().mapToLong(n -> n.clock.uncertaintyNanos()).max().orElse(0);
        return new Result(dir, records, nodes.size(), reference, skew, uncertainty, check);
    }

    /** Streams every node's log into one, in the order the records were logged, times on the merged line. */
    private static long mergeLogs(RunDirectory dir, List<NodeRun> nodes, long anchor, NodeRun first,
                                  PhaseInstants[] instants) throws IOException {
        Map<String, Integer> operationCodes = new HashMap<>();
        Map<String, Integer> outcomeCodes = new HashMap<>();
        for (int code = LogFormat.OK; code < LogFormat.FIRST_ERROR; code++) {
            outcomeCodes.put(LogFormat.builtInOutcomeName(code), code);
        }
        long records = 0;
        List<Source> sources = new ArrayList<>();
        try (RequestLogWriter writer = RequestLogWriter.create(dir.log(), anchor)) {
            JsonNode operations = first.manifest.root().path("backend").path("operations");
            for (int code = 0; code < operations.size(); code++) {
                String name = operations.path(code).path("name").asText();
                operationCodes.put(name, code);
                writer.defineOperation(code, name);
            }
            PriorityQueue<Source> heads = new PriorityQueue<>(Comparator.comparingLong(Source::key));
            for (NodeRun n : nodes) {
                Source s = new Source(n, n.dir.openLog());
                sources.add(s);
                if (s.advance()) {
                    heads.add(s);
                }
            }
            while (!heads.isEmpty()) {
                Source s = heads.poll();
                RequestLogReader r = s.reader;
                int operation = s.operations[r.operation()];
                if (operation < 0) {
                    String name = r.operationName(r.operation());
                    operation = s.operations[r.operation()] = code(operationCodes, name, 0, 127, "operations");
                    writer.defineOperation(operation, name);
                }
                int outcome = s.outcomes[r.outcome()];
                if (outcome < 0) {
                    String name = r.outcomeName(r.outcome());
                    outcome = s.outcomes[r.outcome()] = code(outcomeCodes, name, LogFormat.FIRST_ERROR,
                            LogFormat.MAX_OUTCOME, "error classes");
                    writer.defineOutcome(outcome, name);
                }
                long intended = s.node.onLine(r.intended());
                writer.append(intended, s.node.onLine(r.dequeued()), s.node.onLine(r.sent()),
                        s.node.onLine(r.completed()), r.node(), r.worker(), operation, outcome, r.phase(), r.flags());
                if (r.phase() < instants.length) {
                    instants[r.phase()].add(intended);
                }
                records++;
                if (s.advance()) {
                    heads.add(s);
                }
            }
        } finally {
            for (Source s : sources) {
                s.reader.close();
            }
        }
        return records;
    }

    private static int code(Map<String, Integer> codes, String name, int from, int max, String what) {
        Integer known = codes.get(name);
        if (known != null) {
            return known;
        }
        int next = Math.max(from, codes.values().stream().mapToInt(Integer::intValue).max().orElse(-1) + 1);
        if (next > max) {
            throw new IllegalArgumentException("the nodes name more than " + (max - from + 1) + " " + what);
        }
        codes.put(name, next);
        return next;
    }

    /** errors.tsv of every node, with a node column and intended instants on the merged time line. */
    private static void mergeErrors(RunDirectory dir, List<NodeRun> nodes) throws IOException {
        try (BufferedWriter out = Files.newBufferedWriter(dir.errors(), StandardCharsets.UTF_8)) {
            out.write("node\tintended_ns\tworker\toperation\tclass\tmessage\n");
            for (NodeRun n : nodes) {
                if (!Files.isRegularFile(n.dir.errors())) {
                    continue;
                }
                List<String> lines = Files.readAllLines(n.dir.errors(), StandardCharsets.UTF_8);
                for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                    int tab = line.indexOf('\t');
                    if (tab < 0) {
                        continue;
                    }
                    long intended = Long.parseLong(line.substring(0, tab));
                    out.write(n.index + "\t" + n.onLine(intended) + line.substring(tab) + "\n");
                }
            }
        }
    }

    private static List<NodeRun> validate(List<Path> runs) throws IOException {
        if (runs.size() < 2) {
            throw new IllegalArgumentException("give the run directories of at least two nodes, got " + runs.size());
        }
        List<NodeRun> nodes = new ArrayList<>();
        for (Path path : runs) {
            RunDirectory dir = RunDirectory.open(path);
            Manifest m = dir.manifest();
            if (!m.complete()) {
                throw new IllegalArgumentException(path + " did not finish (its manifest is not complete): nothing to merge");
            }
            if (!m.kind().equals("measured")) {
                throw new IllegalArgumentException(path + " is a " + m.kind() + " run; only measured runs of several nodes merge");
            }
            nodes.add(new NodeRun(dir, m));
        }
        nodes.sort(Comparator.comparingInt(n -> n.index));
        int count = nodes.get(0).count;
        Map<Integer, NodeRun> byIndex = new TreeMap<>();
        for (NodeRun n : nodes) {
            if (n.count != count) {
                throw new IllegalArgumentException(n.dir + " is node " + n.index + " of " + n.count + ", " + nodes.get(0).dir
                        + " is node " + nodes.get(0).index + " of " + count + ": not the same run");
            }
            NodeRun twice = byIndex.put(n.index, n);
            if (twice != null) {
                throw new IllegalArgumentException("node " + n.index + " appears twice: " + twice.dir + " and " + n.dir);
            }
        }
        for (int i = 0; i < count; i++) {
            if (!byIndex.containsKey(i)) {
                throw new IllegalArgumentException("node " + i + " of " + count + " is missing (give one run directory per node)");
            }
        }
        NodeRun first = nodes.get(0);
        for (NodeRun n : nodes.subList(1, nodes.size())) {
            for (String key : List.of("loop", "arrivals")) {
                if (!n.config().path(key).equals(first.config().path(key))) {
                    throw new IllegalArgumentException(n.dir + " and " + first.dir + " differ in " + key + ": not the same run");
                }
            }
            if (!phaseShape(n).equals(phaseShape(first))) {
                throw new IllegalArgumentException(n.dir + " and " + first.dir + " have different phases: "
                        + phaseShape(n) + " vs " + phaseShape(first));
            }
            if (n.clock.measured() != first.clock.measured()
                    || n.clock.measured() && !n.clockReference().equals(first.clockReference())) {
                throw new IllegalArgumentException("node " + n.index + " measured its clock against "
                        + (n.clock.measured() ? n.clockReference() : "no reference") + ", node " + first.index + " against "
                        + (first.clock.measured() ? first.clockReference() : "no reference")
                        + ": run every node with the same --clock-reference");
            }
        }
        return nodes;
    }

    private static List<String> phaseShape(NodeRun n) {
        List<String> shape = new ArrayList<>();
        for (JsonNode p : n.config().path("phases")) {
            shape.add(p.path("name").asText() + "/" + p.path("durationSeconds").asDouble() + "s"
                    + (p.path("warmup").asBoolean() ? "/warm-up" : ""));
        }
        return shape;
    }

    /** The phases of the whole run: the nodes' durations, their rates (or concurrencies) added up. */
    private static List<Phase> mergedPhases(List<NodeRun> nodes) {
        List<Phase> phases = new ArrayList<>();
        JsonNode shape = nodes.get(0).config().path("phases");
        for (int p = 0; p < shape.size(); p++) {
            JsonNode phase = shape.path(p);
            Duration duration = Duration.ofNanos(Math.round(phase.path("durationSeconds").asDouble() * 1e9));
            int index = p;
            if (phase.has("concurrency")) {
                int jobs = nodes.stream().mapToInt(n -> n.config().path("phases").path(index).path("concurrency").asInt()).sum();
                phases.add(Phase.closed(phase.path("name").asText(), duration, jobs, phase.path("warmup").asBoolean()));
            } else {
                double rate = nodes.stream().mapToDouble(n -> n.config().path("phases").path(index).path("rate").asDouble()).sum();
                phases.add(Phase.open(phase.path("name").asText(), duration, rate, phase.path("warmup").asBoolean()));
            }
        }
        return phases;
    }

    /** The part of each phase in which every node was in it, on the merged time line. */
    private static void overlap(List<NodeRun> nodes, List<Phase> phases, long[] start, long[] end) {
        Arrays.fill(start, Long.MIN_VALUE);
        Arrays.fill(end, Long.MAX_VALUE);
        for (NodeRun n : nodes) {
            long t = n.scheduleStart;
            for (int p = 0; p < phases.size(); p++) {
                long next = t + phases.get(p).duration().toNanos();
                start[p] = Math.max(start[p], n.onLine(t));
                end[p] = Math.min(end[p], n.onLine(next));
                t = next;
            }
        }
    }

    private static LogTotals sumTotals(List<NodeRun> nodes) {
        long scheduled = 0;
        long ok = 0;
        long errors = 0;
        long dropped = 0;
        long unfinished = 0;
        Map<String, Long> byClass = new TreeMap<>();
        for (NodeRun n : nodes) {
            JsonNode t = n.manifest.root().path("totals");
            scheduled += t.path("scheduled").asLong();
            ok += t.path("ok").asLong();
            errors += t.path("errors").asLong();
            dropped += t.path("dropped").asLong();
            unfinished += t.path("unfinished").asLong();
            t.path("errorsByClass").fields().forEachRemaining(e -> byClass.merge(e.getKey(), e.getValue().asLong(), Long::sum));
        }
        return new LogTotals(scheduled, ok, errors, dropped, unfinished, byClass);
    }

    /**
     * Lag percentiles are the largest of the nodes' (the percentile of the merged lags is at most
     * that); CPU and GC add up; the verdict holds only if every node and every merged check passed.
     */
    private static SelfCheck combinedCheck(List<NodeRun> nodes, boolean open, List<SelfCheck.PhaseCheck> phases,
                                           LogTotals totals, List<String> failures) {
        double cpu = sum(nodes, "cpuSeconds");
        String verdict = failures.isEmpty() ? "the generators of all " + nodes.size() + " nodes kept up"
                : "the generators did not keep up: " + String.join("; ", failures);
        return new SelfCheck(open, phases, max(nodes, "lagP50Nanos"), max(nodes, "lagP99Nanos"), max(nodes, "lagP999Nanos"),
                max(nodes, "lagMaxNanos"), max(nodes, "maxQueueLength"), totals.dropped(), cpu,
                totals.scheduled() == 0 ? 0 : cpu * 1e6 / totals.scheduled(), sum(nodes, "gcPauseSeconds"),
                (long) sum(nodes, "gcCount"), List.copyOf(failures), verdict, sum(nodes, "processCpuSeconds"),
                maxShare(nodes), (long) sum(nodes, "lost"), (long) sum(nodes, "duplicated"), List.of());
    }

    /** The largest share of its machine's CPU any node's client used (nodes may share a machine or not). */
    private static double maxShare(List<NodeRun> nodes) {
        return nodes.stream().mapToDouble(n -> n.selfCheck().path("cpuMachineShare").asDouble()).max().orElse(0);
    }

    private static long max(List<NodeRun> nodes, String field) {
        return nodes.stream().mapToLong(n -> n.selfCheck().path(field).asLong()).max().orElse(0);
    }

    private static double sum(List<NodeRun> nodes, String field) {
        return nodes.stream().mapToDouble(n -> n.selfCheck().path(field).asDouble()).sum();
    }

    private static void describe(Manifest manifest, List<NodeRun> nodes, List<Phase> phases, long anchor, long start,
                                 LogTotals totals, SelfCheck check, long skew, TelemetryMerge.Outcome telemetry) {
        ObjectNode root = manifest.root();
        ObjectNode config = manifest.section("config");
        config.remove("seed");
        config.remove("startAt");
        ArrayNode phaseArray = (ArrayNode) config.path("phases");
        for (int p = 0; p < phases.size(); p++) {
            ObjectNode phase = (ObjectNode) phaseArray.path(p);
            if (phases.get(p).closedLoop()) {
                phase.put("concurrency", phases.get(p).concurrency());
            } else {
                phase.put("rate", phases.get(p).rate());
            }
        }
        root.remove(List.of("settings", "host", "clock"));
        ObjectNode node = root.putObject("node");
        node.put("count", nodes.size());
        node.put("merged", true);
        root.putObject("start").put("anchorEpochNanos", anchor)
                .put("scheduleStartNanos", start)
                .put("scheduleStart", Instant.ofEpochSecond(0, anchor + start).toString());
        long end = nodes.stream().mapToLong(n -> n.manifest.root().path("end").path("epochNanos").asLong()
                + n.clock.offsetAt(n.manifest.root().path("end").path("epochNanos").asLong() - n.anchor)).max().orElseThrow();
        root.putObject("end").put("epochNanos", end);
        manifest.put("totals", totals);
        manifest.put("selfCheck", check);
        ObjectNode merge = root.putObject("merge");
        NodeClock clock0 = nodes.get(0).clock;
        merge.put("clock", clock0.measured() ? "reference " + nodes.get(0).clockReference()
                : "none: each node's wall clock taken as correct");
        merge.put("startSkewNanos", skew);
        merge.put("maxClockUncertaintyNanos", nodes.stream().mapToLong(n -> n.clock.uncertaintyNanos()).max().orElse(0));
        ArrayNode list = merge.putArray("nodes");
        for (NodeRun n : nodes) {
            ObjectNode entry = list.addObject();
            entry.put("index", n.index);
            entry.put("runDirectory", n.dir.path().toAbsolutePath().toString());
            entry.set("host", n.manifest.root().path("host"));
            entry.put("seed", n.config().path("seed").asLong());
            entry.put("anchorEpochNanos", n.anchor);
            entry.put("scheduleStartNanos", n.onLine(n.scheduleStart));
            if (n.clock.measured()) {
                entry.put("clockOffsetNanos", n.clock.startOffsetNanos());
                entry.put("clockUncertaintyNanos", n.clock.uncertaintyNanos());
                entry.put("clockDriftNanosPerSecond", n.clock.driftNanosPerSecond());
            }
            entry.set("totals", n.manifest.root().path("totals"));
            entry.put("verdict", n.selfCheck().path("verdict").asText());
            entry.set("settings", n.manifest.root().path("settings"));
            ObjectNode own = entry.putObject("telemetry");
            own.put("hostResourceRows", telemetry.hostRows().getOrDefault(n.index, 0L));
            own.put("sampledServer", n.index == telemetry.serverNode());
        }
        ObjectNode carried = merge.putObject("telemetry");
        carried.put("timeLine", "every sample's epoch_ns moved as its node's records are");
        telemetry.files().forEach(carried.putArray("files")::add);
        if (telemetry.serverNode() >= 0) {
            carried.put("serverSampledBy", telemetry.serverNode());
        }
        telemetry.leftOut().forEach(carried.putArray("leftOut")::add);
    }

    /** One node's run, and how its log times map onto the merged time line. */
    private static final class NodeRun {
        final RunDirectory dir;
        final Manifest manifest;
        final int index;
        final int count;
        final long anchor;
        final long scheduleStart;
        final NodeClock clock;
        long shift;

        NodeRun(RunDirectory dir, Manifest manifest) {
            this.dir = dir;
            this.manifest = manifest;
            JsonNode root = manifest.root();
            this.index = root.path("node").path("index").asInt(-1);
            this.count = root.path("node").path("count").asInt(-1);
            if (index < 0 || count < 1 || root.path("node").path("merged").asBoolean()) {
                throw new IllegalArgumentException(dir + " is not one node's run (its manifest names no node index)");
            }
            this.anchor = root.path("start").path("anchorEpochNanos").asLong();
            this.scheduleStart = root.path("start").path("scheduleStartNanos").asLong();
            this.clock = NodeClock.of(root.path("clock"));
        }

        JsonNode config() {
            return manifest.root().path("config");
        }

        JsonNode selfCheck() {
            return manifest.root().path("selfCheck");
        }

        String clockReference() {
            return manifest.root().path("clock").path("reference").asText();
        }

        /** A node wall-clock instant (a telemetry sample's epoch_ns) on the merged time line, as an epoch instant. */
        long epochOnLine(long epochNanos) {
            return epochNanos + clock.offsetAt(epochNanos - anchor);
        }

        /** A node log time on the merged time line; an instant that never happened stays so. */
        long onLine(long t) {
            return t == LogFormat.NONE ? LogFormat.NONE : t + shift + clock.offsetAt(t);
        }
    }

    /** A node's log being read, with its operation and outcome codes mapped to the merged log's. */
    private static final class Source {
        final NodeRun node;
        final RequestLogReader reader;
        final int[] operations = new int[128];
        final int[] outcomes = new int[LogFormat.MAX_OUTCOME + 1];
        long key;

        Source(NodeRun node, RequestLogReader reader) {
            this.node = node;
            this.reader = reader;
            Arrays.fill(operations, -1);
            Arrays.fill(outcomes, -1);
        }

        /** Moves to the next record; its key is the instant it was logged (completion, else intended). */
        boolean advance() throws IOException {
            if (!reader.next()) {
                return false;
            }
            long at = reader.completed() != LogFormat.NONE ? reader.completed() : reader.intended();
            key = node.onLine(at);
            return true;
        }

        long key() {
            return key;
        }
    }

    /** The merged schedule's instants of one phase inside its sampling window, and its arrival count. */
    private static final class PhaseInstants {
        final long from;
        final long to;
        long count;
        long[] instants = new long[1024];
        int size;

        PhaseInstants(long from, long to) {
            this.from = from;
            this.to = to;
        }

        void add(long intended) {
            count++;
            if (intended < from || intended >= to) {
                return;
            }
            if (size == instants.length) {
                instants = Arrays.copyOf(instants, size * 2);
            }
            instants[size++] = intended;
        }

        /** A uniform sample of the gaps between consecutive instants. */
        double[] gapSample() {
            long[] sorted = Arrays.copyOf(instants, size);
            Arrays.sort(sorted);
            GapSample sample = new GapSample(new SplittableRandom(size));
            for (int i = 1; i < size; i++) {
                sample.add(sorted[i] - sorted[i - 1]);
            }
            return sample.values();
        }
    }
}
