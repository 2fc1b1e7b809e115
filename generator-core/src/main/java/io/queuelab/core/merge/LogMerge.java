package io.queuelab.core.merge;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.log.RequestLogWriter;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.manifest.BackendInfo;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The k-way merge of the nodes' request logs and error files into the merged run's. Guarantee:
 * every record of every node is written exactly once, with its node index, its times on the
 * merged time line, in the order the records were logged (completion, else intended instant);
 * operations and error classes are matched by name (the first node's operation codes are kept);
 * every intended instant is handed to its phase's {@link PhaseInstants}.
 */
final class LogMerge {
    private LogMerge() {
    }

    /**
     * Writes the merged log; returns the records written. What a node's log lacks (damage, a torn
     * tail, fewer records than its manifest counts) is added to {@code damage}, one line each,
     * naming the node.
     */
    static long mergeLogs(RunDirectory dir, List<NodeRun> nodes, long anchor, List<BackendInfo.Operation> operations,
                          PhaseInstants[] instants, List<String> damage) throws IOException {
        Map<String, Integer> operationCodes = new HashMap<>();
        Map<String, Integer> outcomeCodes = new HashMap<>();
        for (int code = LogFormat.OK; code < LogFormat.FIRST_ERROR; code++) {
            outcomeCodes.put(LogFormat.builtInOutcomeName(code), code);
        }
        long records = 0;
        List<Source> sources = new ArrayList<>();
        try (RequestLogWriter writer = RequestLogWriter.create(dir.log(), anchor)) {
            for (int code = 0; code < operations.size(); code++) {
                String name = operations.get(code).name();
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
            for (Source s : sources) {
                for (String problem : s.reader.problems(s.node.totals.scheduled())) {
                    damage.add("node " + s.node.index + " (" + s.node.dir.path() + "): " + problem);
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
    static void mergeErrors(RunDirectory dir, List<NodeRun> nodes) throws IOException {
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
}
