package io.queuelab.fit.runs;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.core.JacksonException;
import io.queuelab.core.log.InputErrors;
import io.queuelab.core.log.LogFormat;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * A {@link RequestSource} over the CSV request log of another tool, in one of the dialects of
 * {@code docs/csv-logs.md}, told apart by the header:
 * <ul>
 *   <li>{@link Dialect#JMETER}: a JMeter results file ({@code .jtl} or {@code .csv}) as JMeter
 *       writes it, header {@code timeStamp,elapsed,label,responseCode,...,success,...}: the start
 *       instant in epoch ms (JMeter stamps a sample with its start since 2.1), the elapsed ms,
 *       {@code success}, the {@code label} as the operation and the {@code responseCode} as the
 *       failure class;</li>
 *   <li>{@link Dialect#K6}: k6's {@code --out csv} ({@code metric_name,timestamp,metric_value,...}):
 *       the {@code http_req_duration} rows only, each a request that ended at {@code timestamp}
 *       (k6 stamps a request's samples with its end) after {@code metric_value} ms; the
 *       timestamp in any of k6's {@code timeFormat}s;</li>
 *   <li>{@link Dialect#PLAIN}: a start column ({@code scheduled}, {@code intended} or
 *       {@code start}) and a completion ({@code completed}, {@code end}) or duration
 *       ({@code elapsed}, {@code latency}) column, each with an optional unit suffix
 *       ({@code _s}, {@code _ms}, {@code _us}, {@code _ns}; seconds without one), optional
 *       {@code outcome}, {@code operation} and {@code warmup} columns.</li>
 * </ul>
 * Fields are read by Jackson's CSV parser (RFC 4180: quoted fields may hold commas, quotes and
 * line breaks). Times are returned as ns after the first record's start, so epoch instants keep
 * their full precision. A malformed line is an IOException naming the file and the line.
 */
public final class CsvRequestSource implements RequestSource {
    /** The tools whose CSV request logs are read as they write them. */
    public enum Dialect { PLAIN, JMETER, K6 }

    private static final List<String> START = List.of("scheduled", "intended", "start");
    private static final List<String> END = List.of("completed", "end");
    private static final List<String> DURATION = List.of("elapsed", "latency");
    private static final long MS = 1_000_000L;

    private final Path file;
    private final MappingIterator<String[]> rows;
    private final Dialect dialect;
    private final int startColumn;
    private final long startUnit;
    private final int endColumn;
    private final long endUnit;
    private final boolean endIsDuration;
    private final int outcomeColumn;
    private final int failureClassColumn;
    private final int warmupColumn;
    private final int sentColumn;   // the plain format's optional send instant; -1 without
    private final long sentUnit;
    private final int metricColumn;
    private final int columns;
    private final Map<String, Integer> outcomeCodes = new HashMap<>();
    private final List<String> outcomeNames = new ArrayList<>(List.of("ok", "dropped", "unfinished"));
    private long lineNumber = 1;
    private long origin = Long.MIN_VALUE;
    private long k6Unit; // k6's timestamp unit in ns, from the first row; 0 for RFC 3339 text

    private long intended;
    private long sent = LogFormat.NONE;
    private long completed;
    private int outcome;
    private boolean warmup;

    private CsvRequestSource(Path file, MappingIterator<String[]> rows, String[] header) throws IOException {
        this.file = file;
        this.rows = rows;
        columns = header.length;
        Map<String, Integer> at = new HashMap<>();
        for (int i = header.length - 1; i >= 0; i--) {
            at.put(header[i].trim().toLowerCase(Locale.ROOT), i); // the first of two equal names wins
        }
        int metric = -1, failureClass = -1;
        if (at.containsKey("timestamp") && at.containsKey("elapsed") && at.containsKey("success")) {
            dialect = Dialect.JMETER;
            startColumn = at.get("timestamp");
            startUnit = MS;
            endColumn = at.get("elapsed");
            endUnit = MS;
            endIsDuration = true;
            outcomeColumn = at.get("success");
            failureClass = at.getOrDefault("responsecode", -1);
            warmupColumn = -1;
            sentColumn = -1;
            sentUnit = 0;
        } else if (at.containsKey("metric_name") && at.containsKey("timestamp") && at.containsKey("metric_value")) {
            dialect = Dialect.K6;
            metric = at.get("metric_name");
            startColumn = at.get("timestamp");
            startUnit = 0; // decided by the first row's timestamp
            endColumn = at.get("metric_value");
            endUnit = MS;
            endIsDuration = true;
            // expected_response (k6 >= 0.31) says whether k6 counted the response as a success
            outcomeColumn = at.getOrDefault("expected_response", -1);
            failureClass = at.getOrDefault("status", -1);
            warmupColumn = -1;
            sentColumn = -1;
            sentUnit = 0;
        } else {
            dialect = Dialect.PLAIN;
            int start = -1, end = -1, outcomeAt = -1, warmupAt = -1, sentAt = -1;
            long su = 0, eu = 0, sentU = 0;
            boolean duration = false;
            for (int i = 0; i < header.length; i++) {
                String name = header[i].trim().toLowerCase(Locale.ROOT);
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
                } else if (base.equals("sent") && sentAt < 0) {
                    sentAt = i;
                    sentU = unit;
                }
            }
            if (start < 0 || end < 0) {
                throw new IOException("CSV request log " + file + " needs a header with a start column (scheduled|intended|start)"
                        + " and a completion column (completed|end|elapsed|latency), or JMeter's (timeStamp,elapsed,...,success)"
                        + " or k6's (metric_name,timestamp,metric_value,...), see docs/csv-logs.md; got: "
                        + InputErrors.quoted(String.join(",", header))); // the file's own bytes: escaped and cut
            }
            startColumn = start;
            startUnit = su;
            endColumn = end;
            endUnit = eu;
            endIsDuration = duration;
            outcomeColumn = outcomeAt;
            warmupColumn = warmupAt;
            sentColumn = sentAt;
            sentUnit = sentU;
        }
        metricColumn = metric;
        failureClassColumn = failureClass;
        for (int i = 0; i < outcomeNames.size(); i++) {
            outcomeCodes.put(outcomeNames.get(i), i);
        }
    }

    public static CsvRequestSource open(Path file) throws IOException {
        InputStream raw = Files.newInputStream(file);
        try {
            InputStream stream = file.toString().endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw;
            Reader in = new InputStreamReader(stream, StandardCharsets.UTF_8);
            MappingIterator<String[]> rows = new CsvMapper()
                    .enable(CsvParser.Feature.WRAP_AS_ARRAY)
                    .enable(CsvParser.Feature.SKIP_EMPTY_LINES)
                    .enable(CsvParser.Feature.ALLOW_COMMENTS) // lines that start with '#'
                    .readerFor(String[].class)
                    .readValues(in);
            String[] header = null;
            while (header == null && hasNext(rows, file)) {
                header = nextRow(rows, file);
                if (header.length > 0 && header[0].startsWith("\uFEFF")) {
                    header[0] = header[0].substring(1); // a UTF-8 byte order mark, as spreadsheet programs write
                }
                if (header.length == 1 && header[0].isBlank()) {
                    header = null;
                }
            }
            if (header == null) {
                throw new IOException("empty CSV request log " + file);
            }
            if (header.length > 0 && header[0].trim().startsWith("<")) {
                throw new IOException(file + " is not CSV (an XML JMeter results file?): save JMeter's results as CSV"
                        + " (jmeter.save.saveservice.output_format=csv, the default), see docs/csv-logs.md");
            }
            return new CsvRequestSource(file, rows, header);
        } catch (IOException | RuntimeException e) {
            raw.close();
            throw e;
        }
    }

    /** The tool whose log this is, as told by its header. */
    public Dialect dialect() {
        return dialect;
    }

    private static boolean hasNext(MappingIterator<String[]> rows, Path file) throws IOException {
        try {
            return rows.hasNextValue();
        } catch (IOException | RuntimeException e) {
            throw unreadable(rows, file, e);
        }
    }

    private static String[] nextRow(MappingIterator<String[]> rows, Path file) throws IOException {
        try {
            return rows.nextValue();
        } catch (IOException | RuntimeException e) {
            throw unreadable(rows, file, e);
        }
    }

    /**
     * A row the parser could not read, named by file and line in the user's terms (a field beyond
     * the parser's bound, as a 50 MB one-line file has, is not "String value length ... exceeds
     * ... StreamReadConstraints").
     */
    private static IOException unreadable(MappingIterator<String[]> rows, Path file, Exception e) {
        JacksonException j = e instanceof JacksonException je ? je
                : e.getCause() instanceof JacksonException cause ? cause : null;
        long line = j == null ? 0 : InputErrors.line(j);
        if (line <= 0) {
            line = rows.getParser().currentLocation().getLineNr();
        }
        String why = j == null ? InputErrors.quoted(String.valueOf(e.getMessage()).lines().findFirst().orElse(""))
                : InputErrors.problem(j);
        boolean limit = why.startsWith("a field longer than");
        return new IOException(file + (line > 0 ? " line " + line : "") + ": "
                + (limit ? why + ": not a CSV request log" : "not readable as CSV: " + why), e);
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
        String[] fields;
        do {
            try {
                if (!rows.hasNextValue()) {
                    return false;
                }
                fields = rows.nextValue();
            } catch (IOException | RuntimeException e) {
                throw unreadable(rows, file, e);
            }
            // the parser stands after the row's line break, or at its end at the end of the file
            com.fasterxml.jackson.core.JsonLocation at = rows.getParser().currentLocation();
            lineNumber = at.getColumnNr() <= 1 ? at.getLineNr() - 1 : at.getLineNr();
        } while ((fields.length == 1 && fields[0].isBlank())
                || (dialect == Dialect.K6 && fields.length > metricColumn && !fields[metricColumn].equals("http_req_duration")));
        if (fields.length != columns) {
            throw malformed("expected " + columns + " fields, found " + fields.length);
        }
        String end = fields[endColumn].trim();
        long value = end.isEmpty() ? LogFormat.NONE : nanos(end, endUnit, endIsDuration ? "duration" : "completion");
        long start = dialect == Dialect.K6
                ? k6Instant(fields[startColumn].trim()) - (value == LogFormat.NONE ? 0 : value) // stamped at its end
                : nanos(fields[startColumn], startUnit, "start");
        if (origin == Long.MIN_VALUE) {
            origin = start;
        }
        intended = start - origin;
        if (end.isEmpty()) {
            completed = LogFormat.NONE;
            outcome = LogFormat.UNFINISHED;
        } else {
            completed = endIsDuration ? intended + value : value - origin;
            if (completed < intended) {
                throw malformed("completion before start");
            }
            outcome = outcomeCode(fields);
        }
        sent = LogFormat.NONE;
        String sentText = sentColumn >= 0 ? fields[sentColumn].trim() : "";
        if (!sentText.isEmpty()) {
            sent = nanos(sentText, sentUnit, "sent") - origin;
            if (sent < intended || (completed != LogFormat.NONE && sent > completed)) {
                throw malformed("sent outside [start, completion]");
            }
        }
        warmup = warmupColumn >= 0 && isTrue(fields[warmupColumn].trim());
        return true;
    }

    /** k6's timestamp: whole seconds, ms, us or ns since the epoch (its timeFormat), or RFC 3339 text. */
    private long k6Instant(String s) throws IOException {
        if (k6Unit == 0 && s.indexOf('T') < 0) {
            // the unit follows from the magnitude of an epoch instant: 10 digits are seconds, 13 ms, 16 us, 19 ns
            int digits = s.length() - (s.startsWith("-") ? 1 : 0);
            k6Unit = digits >= 18 ? 1 : digits >= 15 ? 1_000 : digits >= 12 ? MS : 1_000_000_000L;
        }
        if (s.indexOf('T') >= 0) {
            try {
                Instant t = DateTimeFormatter.ISO_OFFSET_DATE_TIME.parse(s, Instant::from);
                return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
            } catch (DateTimeParseException | ArithmeticException e) {
                throw malformed("bad timestamp '" + s + "'");
            }
        }
        return nanos(s, k6Unit, "timestamp");
    }

    private int outcomeCode(String[] fields) {
        String text = outcomeColumn >= 0 ? fields[outcomeColumn].trim().toLowerCase(Locale.ROOT) : "";
        if (dialect != Dialect.PLAIN) {
            if (dialect == Dialect.K6 && outcomeColumn < 0) {
                // no expected_response column (k6 before 0.31): a 2xx or 3xx status is a success
                String status = failureClassColumn >= 0 ? fields[failureClassColumn].trim() : "";
                text = status.startsWith("2") || status.startsWith("3") ? "true" : "false";
            }
            if (text.isEmpty() || text.equals("true")) {
                return LogFormat.OK;
            }
            String failure = failureClassColumn >= 0 ? fields[failureClassColumn].trim() : "";
            return code(failure.isEmpty() ? "error" : failureClassName(failure));
        }
        if (text.isEmpty() || text.equals("ok") || text.equals("true") || text.equals("success") || text.equals("0")) {
            return LogFormat.OK;
        }
        return code(text);
    }

    /** A response code as a failure class: "500" stays, "Non HTTP response code: java.net.SocketTimeoutException" becomes "SocketTimeoutException". */
    private static String failureClassName(String code) {
        String s = code.replaceFirst("^Non HTTP response code: ", "");
        int dot = s.lastIndexOf('.');
        if (dot >= 0 && dot < s.length() - 1 && !s.contains(" ")) {
            s = s.substring(dot + 1);
        }
        s = s.trim().replaceAll("\\s+", "_");
        return s.chars().allMatch(Character::isDigit) ? "http_" + s : s;
    }

    private int code(String name) {
        Integer code = outcomeCodes.get(name);
        if (code == null) {
            code = Math.min(outcomeNames.size(), LogFormat.MAX_OUTCOME);
            if (code == outcomeNames.size()) {
                outcomeNames.add(name);
            }
            outcomeCodes.put(name, code);
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
        return sent;
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
        rows.close();
    }
}
