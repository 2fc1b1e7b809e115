package io.queuelab.core.merge;

import io.queuelab.core.log.InputErrors;
import io.queuelab.core.telemetry.HostResourceSampler;
import io.queuelab.core.telemetry.NodeTelemetry;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongUnaryOperator;
import java.util.stream.Stream;

/**
 * Carries the telemetry of the nodes of a distributed run into the merged run directory, every
 * sample's instant ({@code epoch_ns}, a node's wall clock) moved onto the merged time line by the
 * same clock mapping as that node's records.
 *
 * <p>Guarantees: {@value HostResourceSampler#FILE_NAME} holds every well-formed row of every node;
 * the rows of a node's own machine ({@code client}, {@code host}) are renamed {@code node<i>.client}
 * and {@code node<i>.host}, so each node is a process of its own to every reader; the server's
 * rows (any other role) keep their names. The server's telemetry, its process rows and every other
 * telemetry file (a CSV whose header begins {@code epoch_ns}: {@code server-status.csv},
 * {@code cassandra-thread-pools.csv}), comes from one node, the server node: the lowest-indexed
 * node that sampled the server ({@link NodeTelemetry#SERVER_NODE} when the nodes followed its
 * rule). Any other node's server telemetry is left out, and {@link Outcome#leftOut()} names it, so
 * the merged run never holds the server k times. A torn line (a node that crashed mid-write) is
 * left out.
 */
final class TelemetryMerge {
    /** The host-resource roles of a generator node's own machine. */
    static final Set<String> NODE_ROLES = HostResourceSampler.NODE_ROLES;

    /**
     * One node's run directory and its clock mapping.
     *
     * @param epochOnLine a node wall-clock instant (epoch ns) -> the same instant on the merged time line
     */
    record Node(int index, Path dir, LongUnaryOperator epochOnLine) {
    }

    /**
     * What the merge carried.
     *
     * @param files      the telemetry files written into the merged run
     * @param serverNode the node whose server telemetry was taken, or -1 when none sampled the server
     * @param hostRows   node index -> rows of its own machine carried
     * @param leftOut    server telemetry of other nodes, left out ({@code node 1: server-status.csv})
     */
    record Outcome(List<String> files, int serverNode, Map<Integer, Long> hostRows, List<String> leftOut) {
    }

    private TelemetryMerge() {
    }

    static Outcome merge(List<Node> nodes, Path out) throws IOException {
        int serverNode = -1;
        for (Node n : nodes) {
            if (!serverFiles(n.dir()).isEmpty() || hasServerRows(n.dir())) {
                serverNode = n.index();
                break;
            }
        }
        List<String> files = new ArrayList<>();
        List<String> leftOut = new ArrayList<>();
        Map<Integer, Long> hostRows = new LinkedHashMap<>();
        Path merged = out.resolve(HostResourceSampler.FILE_NAME);
        for (Node n : nodes) {
            Path csv = n.dir().resolve(HostResourceSampler.FILE_NAME);
            if (!Files.isRegularFile(csv)) {
                continue;
            }
            if (!Files.exists(merged)) {
                Files.writeString(merged, HostResourceSampler.HEADER + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
                files.add(HostResourceSampler.FILE_NAME);
            }
            long[] counts = appendHostResources(n, csv, merged, n.index() == serverNode);
            hostRows.put(n.index(), counts[0]);
            if (counts[1] > 0) {
                leftOut.add("node " + n.index() + ": " + counts[1] + " server rows of " + HostResourceSampler.FILE_NAME);
            }
        }
        for (Node n : nodes) {
            for (String name : serverFiles(n.dir())) {
                if (n.index() == serverNode) {
                    shiftedCopy(n, n.dir().resolve(name), out.resolve(name));
                    files.add(name);
                } else {
                    leftOut.add("node " + n.index() + ": " + name);
                }
            }
        }
        return new Outcome(files, serverNode, hostRows, leftOut);
    }

    /** Telemetry files other than host resources: CSVs whose header begins with epoch_ns. */
    private static Set<String> serverFiles(Path dir) throws IOException {
        Set<String> names = new TreeSet<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                if (name.endsWith(".csv") && !name.equals(HostResourceSampler.FILE_NAME) && Files.isRegularFile(f)
                        && firstLine(f).startsWith("epoch_ns,")) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    private static String firstLine(Path f) throws IOException {
        try (BufferedReader in = InputErrors.lenientReader(f)) {
            String line = in.readLine();
            return line == null ? "" : line;
        }
    }

    private static boolean hasServerRows(Path dir) throws IOException {
        Path csv = dir.resolve(HostResourceSampler.FILE_NAME);
        if (!Files.isRegularFile(csv)) {
            return false;
        }
        try (BufferedReader in = InputErrors.lenientReader(csv);
             Stream<String> lines = in.lines()) {
            return lines.skip(1).map(l -> l.split(",", -1)).anyMatch(f -> f.length > 1 && !NODE_ROLES.contains(f[1]));
        }
    }

    /** Appends node {@code n}'s rows; returns {rows of its own machine written, server rows left out}. */
    private static long[] appendHostResources(Node n, Path csv, Path merged, boolean serverNode) throws IOException {
        int columns = HostResourceSampler.HEADER.split(",").length;
        long own = 0, skipped = 0;
        // decoded leniently: bytes that are not UTF-8 become U+FFFD, which the error below escapes
        try (BufferedReader in = InputErrors.lenientReader(csv);
             BufferedWriter w = Files.newBufferedWriter(merged, StandardCharsets.UTF_8, StandardOpenOption.APPEND)) {
            String header = in.readLine();
            if (header == null || !header.equals(HostResourceSampler.HEADER)) {
                throw new IllegalArgumentException(csv + " is not a host-resources file of this version ("
                        + InputErrors.describeHeader(header) + ")");
            }
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String[] f = line.split(",", -1);
                Long at = f.length == columns ? epoch(f[0]) : null;
                if (at == null) {
                    continue;
                }
                boolean ownMachine = NODE_ROLES.contains(f[1]);
                if (!ownMachine && !serverNode) {
                    skipped++;
                    continue;
                }
                String role = ownMachine ? "node" + n.index() + "." + f[1] : f[1];
                w.write(n.epochOnLine().applyAsLong(at) + "," + role + line.substring(f[0].length() + 1 + f[1].length()) + "\n");
                own += ownMachine ? 1 : 0;
            }
        }
        return new long[] {own, skipped};
    }

    /** A server telemetry file with its epoch_ns column moved onto the merged time line. */
    private static void shiftedCopy(Node n, Path from, Path to) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(from, StandardCharsets.UTF_8);
             BufferedWriter w = Files.newBufferedWriter(to, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW)) {
            w.write(in.readLine() + "\n");
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                int comma = line.indexOf(',');
                Long at = comma < 0 ? null : epoch(line.substring(0, comma));
                if (at != null) {
                    w.write(n.epochOnLine().applyAsLong(at) + line.substring(comma) + "\n");
                }
            }
        }
    }

    private static Long epoch(String field) {
        try {
            return Long.parseLong(field);
        } catch (NumberFormatException torn) {
            return null;
        }
    }
}
