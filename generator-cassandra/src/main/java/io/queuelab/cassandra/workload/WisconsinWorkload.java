package io.queuelab.cassandra.workload;

import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.queuelab.cassandra.WrongResultException;
import io.queuelab.core.backend.OperationMix;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Key-value point operations on a Wisconsin-like relation of {@code rows} tuples (seed 001's E1/E2 on
 * Cassandra): {@code select} = {@code SELECT unique3 ... WHERE unique2 = ?} with a uniform key,
 * checked against the loaded value; {@code update} = {@code UPDATE ... SET unique3 = ? WHERE
 * unique2 = ?}. An update writes the tuple's own unique3 value again (a blind write costs Cassandra
 * the same whatever the value), so concurrent selects can still check what they read.
 */
public final class WisconsinWorkload implements CqlWorkload {
    static final String READ = "select";
    static final String WRITE = "update";
    private static final int STRING_LENGTH = 52;
    private static final String[] STRING4 = {"AAAA", "HHHH", "OOOO", "VVVV"};

    private final int rows;
    private final Scenario scenario;
    private final double readRatio;
    private final long multiplier;

    public WisconsinWorkload(int rows, Scenario scenario, double readRatio) {
        if (rows < 1) {
            throw new IllegalArgumentException("--rows must be >= 1, was " + rows);
        }
        this.rows = rows;
        this.scenario = scenario;
        this.readRatio = readRatio;
        operations(); // validates the ratio now rather than at run time
        this.multiplier = coprimeMultiplier(rows);
    }

    /** unique1 of the tuple with unique2 = {@code unique2}: a full-period permutation of 0..rows-1. */
    public long unique1(long unique2) {
        return (multiplier * unique2 + rows / 3) % rows;
    }

    private static long coprimeMultiplier(int n) {
        long candidate = Math.max(1, (long) (n * 0.6180339887));
        while (!BigInteger.valueOf(candidate).gcd(BigInteger.valueOf(n)).equals(BigInteger.ONE)) {
            candidate++;
        }
        return candidate;
    }

    public String table() {
        return "wisconsin_" + rows;
    }

    @Override
    public OperationMix operations() {
        return scenario.mix(READ, WRITE, readRatio);
    }

    @Override
    public List<String> schema() {
        return List.of("CREATE TABLE IF NOT EXISTS " + table() + " (unique2 int PRIMARY KEY, unique1 int, two int,"
                + " four int, ten int, twenty int, onepercent int, tenpercent int, twentypercent int,"
                + " fiftypercent int, unique3 int, evenonepercent int, oddonepercent int, stringu1 text,"
                + " stringu2 text, string4 text)");
    }

    @Override
    public String datasetKey() {
        return table();
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("schema", "wisconsin");
        d.put("table", table());
        d.put("rows", rows);
        d.put("scenario", scenario.name().toLowerCase(Locale.ROOT));
        if (scenario == Scenario.MIXED) {
            d.put("read_ratio", readRatio);
        }
        return d;
    }

    @Override
    public PreparedWorkload prepare(CqlContext context) {
        PreparedStatement insert = context.prepare("INSERT INTO " + table() + " (unique2, unique1, two, four, ten,"
                + " twenty, onepercent, tenpercent, twentypercent, fiftypercent, unique3, evenonepercent,"
                + " oddonepercent, stringu1, stringu2, string4) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        PreparedStatement select = context.prepare("SELECT unique3 FROM " + table() + " WHERE unique2 = ?");
        PreparedStatement update = context.prepare("UPDATE " + table() + " SET unique3 = ? WHERE unique2 = ?");
        return new PreparedWorkload() {
            @Override
            public void load() throws Exception {
                context.loadAll(rows, key -> {
                    int u1 = (int) unique1(key);
                    int onePercent = u1 % 100;
                    return context.load(insert.bind((int) key, u1, u1 % 2, u1 % 4, u1 % 10, u1 % 20, onePercent,
                            u1 % 10, u1 % 5, u1 % 2, u1, onePercent * 2, onePercent * 2 + 1,
                            wisconsinString(u1), wisconsinString(key), padded(STRING4[(int) (key % 4)])));
                });
            }

            @Override
            public OperationIssuer issuer(long seed) {
                SplittableRandom random = new SplittableRandom(seed);
                return operation -> {
                    int key = random.nextInt(rows);
                    int expected = (int) unique1(key);
                    if (scenario.isRead(operation)) {
                        return context.read(select.bind(key), 2).thenAccept(result -> check(key, expected, result));
                    }
                    return context.write(update.bind(expected, key)).thenApply(ignored -> null);
                };
            }
        };
    }

    private static void check(int key, int expected, List<Row> result) {
        if (result.size() != 1 || result.get(0).getInt(0) != expected) {
            throw new WrongResultException("unique2 = " + key + ": expected unique3 " + expected + ", got "
                    + (result.isEmpty() ? "no row" : result.get(0).getInt(0) + " (" + result.size() + " rows)"));
        }
    }

    /** A 52-character string unique per number: its base-26 letters, padded with 'x' (DeWitt's scheme). */
    static String wisconsinString(long number) {
        StringBuilder letters = new StringBuilder();
        long rest = number;
        for (int i = 0; i < 7; i++) {
            letters.append((char) ('A' + rest % 26));
            rest /= 26;
        }
        return padded(letters.reverse().toString());
    }

    private static String padded(String head) {
        return head + "x".repeat(STRING_LENGTH - head.length());
    }
}
