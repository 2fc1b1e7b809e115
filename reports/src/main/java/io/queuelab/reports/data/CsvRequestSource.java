package io.queuelab.reports.data;

import io.queuelab.core.log.LogFormat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * A {@link RequestSource} over a plain CSV request log of another tool, as documented in
 * {@code docs/csv-logs.md}: a header naming a start column ({@code scheduled}, {@code intended}
 * or {@code start}) and a completion column ({@code completed} or {@code end}) or a duration
 * column ({@code elapsed} or {@code latency}), each with an optional unit suffix
 * ({@code _s}, {@code _ms}, {@code _us}, {@code _ns}; seconds without one), and optional
 * {@code outcome}, {@code operation} and {@code warmup} columns. Times are returned as ns after
 * the first record's start, so epoch instants keep their full precision. A malformed line is an
 * IOException naming the file and line.
 */
public final class CsvRequestSource implements RequestSource {
    private static final List<String> START = List.of("scheduled", "intended", "start");
    private static final List<String> END = List.of("completed", "end");
    private static final List<String> DURATION = List.of("elapsed", "latency");

    private final Path file;
    private final BufferedReader in;
    private final int startColumn;
    private final long startUnit;
    private final int endColumn;
    private final long endUnit;
    private final boolean endIsDuration;
    private final int outcomeColumn;
    private final int warmupColumn;
    private final int columns;
    private final Map<String, Integer> outcomeCodes = new HashMap<>();
    private final List<String> outcomeNames = new ArrayList<>(List.of("ok", "dropped", "unfinished"));
    private long lineNumber = 1;
    private long origin = Long.MIN_VALUE;

    private long intended;
    private long completed;
    private int outcome;
    private boolean warmup;

    private CsvRequestSource(Path file, BufferedReader in, String header) throws IOException {
        this.file = file;
        this.in = in;
        String[] names = header.trim().split(",", -1);
        columns = names.length;
        int start = -1, end = -1, outcomeAt = -1, warmupAt = -1;
        long su = 0, eu = 0;
        boolean duration = false;
        for (int i = 0; i < names.length; i++) {
            String name = names[i].trim().toLowerCase(Locale.ROOT);
            String base = baseName(name);
            long unit = unitNanos(name);
            if (START.contains(base) && start < 0) {
                start = i;
                su = unit;
            } else if ((END.contains(base) || DURATION.contains(base)) && end < 0) {
                end = i;
                eu = unit;
                duration = DURATION.contains(base);
            } else if (name.equals("outcome")) {
                outcomeAt = i;
            } else if (name.equals("warmup")) {
                warmupAt = i;
            }
        }
        if (start < 0 || end < 0) {
            throw new IOException("CSV request log " + file + " needs a header with a start column (scheduled|intended|start)"
                    + " and a completion column (completed|end|elapsed|latency), see docs/csv-logs.md; got: " + header.trim());
        }
        startColumn = start;
        startUnit = su;
        endColumn = end;
        endUnit = eu;
        endIsDuration = duration;
        outcomeColumn = outcomeAt;
        warmupColumn = warmupAt;
        for (int i = 0; i < outcomeNames.size(); i++) {
            outcomeCodes.put(outcomeNames.get(i), i);
        }
    }

    public static CsvRequestSource open(Path file) throws IOException {
        InputStream raw = Files.newInputStream(file);
        try {
            InputStream stream = file.toString().endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw;
            BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8), 1 << 16);
            String header = in.readLine();
            if (header != null && header.startsWith("\uFEFF")) {
                header = header.substring(1); // a UTF-8 byte order mark, as spreadsheet programs write
            }
            while (header != null && (header.isBlank() || header.startsWith("#"))) {
                header = in.readLine();
            }
            if (header == null) {
                throw new IOException("empty CSV request log " + file);
            }
            return new CsvRequestSource(file, in, header);
        } catch (IOException | RuntimeException e) {
            raw.close();
            throw e;
        }
    }

    private static String baseName(String name) {
        int underscore = name.lastIndexOf('_');
        return underscore > 0 && unitOrZero(name.substring(underscore + 1)) != 0 ? name.substring(0, underscore) : name;
    }

    private static long unitNanos(String name) {
        int underscore = name.lastIndexOf('_');
        long unit = underscore > 0 ? unitOrZero(name.substring(underscore + 1)) : 0;
        return unit != 0 ? unit : 1_000_000_000L;
    }

    private static long unitOrZero(String suffix) {
        return switch (suffix) {
            case "s" -> 1_000_000_000L;
            case "ms" -> 1_000_000L;
            case "us" -> 1_000L;
            case "ns" -> 1L;
            default -> 0;
        };
    }

    @Override
    public boolean next() throws IOException {
        String line;
        do {
            line = in.readLine();
            lineNumber++;
            if (line == null) {
                return false;
            }
        } while (line.isBlank() || line.startsWith("#"));
        String[] fields = line.split(",", -1);
        if (fields.length != columns) {
            throw malformed("expected " + columns + " fields, found " + fields.length);
        }
        long start = nanos(fields[startColumn], startUnit, "start");
        if (origin == Long.MIN_VALUE) {
            origin = start;
        }
        intended = start - origin;
        String end = fields[endColumn].trim();
        String outcomeText = outcomeColumn >= 0 ? fields[outcomeColumn].trim().toLowerCase(Locale.ROOT) : "ok";
        if (end.isEmpty()) {
            completed = LogFormat.NONE;
            outcome = LogFormat.UNFINISHED;
        } else {
            long value = nanos(end, endUnit, "completion");
            completed = endIsDuration ? intended + value : value - origin;
            if (completed < intended) {
                throw malformed("completion before start");
            }
            outcome = outcomeCode(outcomeText);
        }
        warmup = warmupColumn >= 0 && isTrue(fields[warmupColumn].trim());
        return true;
    }

    private int outcomeCode(String text) {
        if (text.isEmpty() || text.equals("ok") || text.equals("true") || text.equals("success") || text.equals("0")) {
            return LogFormat.OK;
        }
        Integer code = outcomeCodes.get(text);
        if (code == null) {
            code = Math.min(outcomeNames.size(), LogFormat.MAX_OUTCOME);
            if (code == outcomeNames.size()) {
                outcomeNames.add(text);
            }
            outcomeCodes.put(text, code);
        }
        return code;
    }

    private static boolean isTrue(String s) {
        return s.equals("1") || s.equalsIgnoreCase("true") || s.equalsIgnoreCase("yes");
    }

    private long nanos(String field, long unit, String what) throws IOException {
        String s = field.trim();
        try {
            if (s.indexOf('.') < 0 && s.indexOf('e') < 0 && s.indexOf('E') < 0) {
                return Math.multiplyExact(Long.parseLong(s), unit);
            }
            return new BigDecimal(s).multiply(BigDecimal.valueOf(unit)).setScale(0, java.math.RoundingMode.HALF_EVEN).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw malformed("bad " + what + " time '" + s + "'");
        }
    }

    private IOException malformed(String why) {
        return new IOException(file + " line " + lineNumber + ": " + why);
    }

    @Override
    public long intended() {
        return intended;
    }

    @Override
    public long sent() {
        return LogFormat.NONE;
    }

    @Override
    public long completed() {
        return completed;
    }

    @Override
    public int outcome() {
        return outcome;
    }

    @Override
    public String outcomeName(int code) {
        return code >= 0 && code < outcomeNames.size() ? outcomeNames.get(code) : "error" + code;
    }

    @Override
    public boolean warmup() {
        return warmup;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
