package io.queuelab.jdbc;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queuelab.core.backend.OperationMix;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a JDBC backend executes, as data: named statements with parameter generators and weights,
 * and the tables whose settings the manifest records. Operation code i is statement i.
 *
 * <p>The built-in workloads are the Wisconsin ones of seeds 001 and 004; users describe their own
 * in a JSON workload file ({@link #read(Path)}):
 * <pre>{@code
 * {
 *   "tables": ["wisc"],
 *   "statements": [
 *     {"name": "hot-select", "sql": "SELECT unique3 FROM wisc WHERE unique2 = ?",
 *      "weight": 9, "parameters": ["zipfian(100000, 0.99)"]},
 *     {"name": "update", "sql": "UPDATE wisc SET unique3 = ? WHERE unique1 = ?",
 *      "weight": 1, "parameters": ["uniform(0, 99999)", "uniform(0, 99999)"]}
 *   ]
 * }
 * }</pre>
 * Keys: {@code statements} (required, 1 to 127), each with {@code name}, {@code sql}, optional
 * {@code weight} (default 1) and {@code parameters} (one generator per {@code ?}: uniform(lo, hi),
 * zipfian(n, theta), sequential(lo, hi)); optional {@code tables}. Unknown keys are errors.
 */
public record Workload(String name, List<WorkloadStatement> statements, List<String> tables) {
    public static final String SELECT = "select";
    public static final String UPDATE = "update";
    public static final String MIX = "mix";
    public static final String RANGE = "range";
    /** The client's round trip: a statement that does no work on the server ({@link #roundTrip}). */
    public static final String ROUND_TRIP = "round-trip";
    /** Consecutive keys the range aggregate reads. */
    public static final int RANGE_ROWS = 10000;
    private static final ObjectMapper JSON = new ObjectMapper();

    public Workload {
        statements = List.copyOf(statements);
        tables = List.copyOf(tables);
        if (statements.isEmpty() || statements.size() > 127) {
            throw new IllegalArgumentException("workload '" + name + "' needs 1 to 127 statements, has " + statements.size());
        }
        tables.forEach(WisconsinRelation::requireIdentifier);
        if (statements.stream().map(WorkloadStatement::name).distinct().count() != statements.size()) {
            throw new IllegalArgumentException("workload '" + name + "' has two statements of the same name");
        }
    }

    /** The operation mix: names and weights of the statements, in order. */
    public OperationMix operationMix() {
        return OperationMix.weighted(statements.stream().map(WorkloadStatement::name).toList(),
                statements.stream().mapToDouble(WorkloadStatement::weight).toArray());
    }

    /** Seed 001's E1: {@code SELECT unique3 FROM <table> WHERE unique2=?}, the key uniform over the relation. */
    public static Workload wisconsinSelect(String table, int tuples) {
        return new Workload(SELECT, List.of(select(table, tuples, 1)), List.of(table));
    }

    /** Seed 004: {@code UPDATE <table> SET unique3=? WHERE unique1=?}, value and key uniform over the relation. */
    public static Workload wisconsinUpdate(String table, int tuples) {
        return new Workload(UPDATE, List.of(update(table, tuples, 1)), List.of(table));
    }

    /**
     * A range aggregate, {@code SELECT SUM(unique3)} over {@link #RANGE_ROWS} consecutive keys of
     * the clustered primary key unique2 from a uniform start: a hundred rows of server work for one
     * row of result, so the server, not the client, limits the throughput.
     */
    public static Workload wisconsinRange(String table, int tuples) {
        WisconsinRelation.requireIdentifier(table);
        return new Workload(RANGE, List.of(new WorkloadStatement(RANGE, "SELECT SUM(unique3) FROM (SELECT unique3 FROM " + table
                + " WHERE unique2 >= ? ORDER BY unique2 LIMIT " + RANGE_ROWS + ") r", 1,
                List.of(new ParameterSpec.Uniform(0, Math.max(0, tuples - RANGE_ROWS))))), List.of(table));
    }

    /**
     * {@code SELECT 1}: no table, no row read, one row of result. Its response time is the time a
     * request spends outside the server's work (driver, network, the server's wake-up and protocol)
     * plus the server's least cpu per statement, which its cpu counters give apart: the client-side
     * part of every other statement's response, measured where nothing else is in it.
     */
    public static Workload roundTrip() {
        return new Workload(ROUND_TRIP, List.of(new WorkloadStatement(ROUND_TRIP, "SELECT 1", 1, List.of())), List.of());
    }

    /** E1's SELECT and seed 004's UPDATE, a fraction {@code readRatio} of requests being SELECTs. */
    public static Workload wisconsinMix(String table, int tuples, double readRatio) {
        if (!(readRatio >= 0 && readRatio <= 1)) {
            throw new IllegalArgumentException("read ratio must be in [0, 1]: " + readRatio);
        }
        return new Workload(MIX, List.of(select(table, tuples, readRatio), update(table, tuples, 1 - readRatio)), List.of(table));
    }

    /** A built-in workload by name: select, update, mix, range or round-trip (which reads no table). */
    public static Workload wisconsin(String operation, String table, int tuples, double readRatio) {
        return switch (operation) {
            case SELECT -> wisconsinSelect(table, tuples);
            case UPDATE -> wisconsinUpdate(table, tuples);
            case MIX -> wisconsinMix(table, tuples, readRatio);
            case RANGE -> wisconsinRange(table, tuples);
            case ROUND_TRIP -> roundTrip();
            default -> throw new IllegalArgumentException("unknown operation '" + operation + "' (expected select, update, mix, range or round-trip)");
        };
    }

    private static WorkloadStatement select(String table, int tuples, double weight) {
        WisconsinRelation.requireIdentifier(table);
        return new WorkloadStatement(SELECT, "SELECT unique3 FROM " + table + " WHERE unique2 = ?", weight,
                List.of(new ParameterSpec.Uniform(0, tuples - 1)));
    }

    private static WorkloadStatement update(String table, int tuples, double weight) {
        WisconsinRelation.requireIdentifier(table);
        return new WorkloadStatement(UPDATE, "UPDATE " + table + " SET unique3 = ? WHERE unique1 = ?", weight,
                List.of(new ParameterSpec.Uniform(0, tuples - 1), new ParameterSpec.Uniform(0, tuples - 1)));
    }

    /**
     * Reads a workload file (format above).
     *
     * @throws IOException              when the file cannot be read
     * @throws IllegalArgumentException with a one-line message naming the file and the fault
     */
    public static Workload read(Path file) throws IOException {
        String where = "workload file " + file;
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file));
        } catch (NoSuchFileException e) {
            throw new IOException(where + " does not exist");
        } catch (JacksonException e) {
            JsonLocation at = e.getLocation();
            throw new IllegalArgumentException(where + " is not valid JSON"
                    + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")")
                    + ": " + io.queuelab.core.log.InputErrors.problem(e)); // escaped, without the parser's option advice
        }
        try {
            return fromJson(file.getFileName().toString(), root);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static Workload fromJson(String name, JsonNode root) {
        if (!(root instanceof ObjectNode object)) {
            throw new IllegalArgumentException("the top level must be a JSON object with \"statements\"");
        }
        requireOnly(object, "top level", Set.of("statements", "tables"));
        JsonNode statementsNode = object.get("statements");
        if (statementsNode == null || !statementsNode.isArray()) {
            throw new IllegalArgumentException("\"statements\" must be an array of statements");
        }
        List<WorkloadStatement> statements = new ArrayList<>();
        for (JsonNode node : statementsNode) {
            statements.add(statementFromJson(node, statements.size() + 1));
        }
        return new Workload(name, statements, strings(object.get("tables"), "\"tables\""));
    }

    private static WorkloadStatement statementFromJson(JsonNode node, int index) {
        if (!(node instanceof ObjectNode object)) {
            throw new IllegalArgumentException("statement " + index + " must be a JSON object");
        }
        requireOnly(object, "statement " + index, Set.of("name", "sql", "weight", "parameters"));
        String name = text(object, "name", "statement " + index);
        String sql = text(object, "sql", "statement '" + name + "'");
        JsonNode weight = object.get("weight");
        if (weight != null && !weight.isNumber()) {
            throw new IllegalArgumentException("statement '" + name + "': \"weight\" must be a number");
        }
        List<ParameterSpec> parameters = new ArrayList<>();
        for (String text : strings(object.get("parameters"), "statement '" + name + "': \"parameters\"")) {
            try {
                parameters.add(ParameterSpec.parse(text));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("statement '" + name + "': " + e.getMessage(), e);
            }
        }
        return new WorkloadStatement(name, sql, weight == null ? 1 : weight.asDouble(), parameters);
    }

    private static void requireOnly(ObjectNode object, String what, Set<String> allowed) {
        for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
            String key = names.next();
            if (!allowed.contains(key)) {
                throw new IllegalArgumentException(what + " has an unknown key \"" + key + "\" (allowed: " + String.join(", ", allowed) + ")");
            }
        }
    }

    private static String text(ObjectNode object, String key, String what) {
        JsonNode value = object.get(key);
        if (value == null || !value.isTextual() || value.asText().isBlank()) {
            throw new IllegalArgumentException(what + " needs a non-empty string \"" + key + "\"");
        }
        return value.asText();
    }

    private static List<String> strings(JsonNode node, String what) {
        if (node == null) {
            return List.of();
        }
        if (!node.isArray()) {
            throw new IllegalArgumentException(what + " must be an array of strings");
        }
        List<String> values = new ArrayList<>();
        for (JsonNode item : node) {
            if (!item.isTextual()) {
                throw new IllegalArgumentException(what + " must be an array of strings, found " + item);
            }
            values.add(item.asText());
        }
        return values;
    }

    /** The workload as the manifest records it. */
    public Map<String, Object> describe() {
        List<Map<String, Object>> list = new ArrayList<>();
        for (WorkloadStatement s : statements) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", s.name());
            entry.put("sql", s.sql());
            entry.put("weight", s.weight());
            entry.put("parameters", s.parameters().stream().map(ParameterSpec::text).toList());
            list.add(entry);
        }
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("name", name);
        description.put("statements", list);
        return description;
    }
}
