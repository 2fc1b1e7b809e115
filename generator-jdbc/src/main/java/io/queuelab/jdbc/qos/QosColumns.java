package io.queuelab.jdbc.qos;

import java.util.ArrayList;
import java.util.List;

/**
 * The columns of seed 000's QoS measurement data: 13 identification parameters, the same for every
 * result of one measurement, and 48 result parameters per result row, split into the main ones
 * (delay, jitter, loss, load, throughput: schema 3's {@code mainStats}) and the rest
 * ({@code secondaryStats}). The seed names customer_id, ul_delay, dl_delay, ul_dupl and dl_dupl and
 * the split; its figures with the full column lists are lost, so the other names are ours. Every
 * column is an integer (delays in microseconds, ratios in parts per million).
 */
public final class QosColumns {
    private QosColumns() {
    }

    /** The identification parameters and their SQL types, in table order. */
    public static final List<String> ID = List.of("customer_id", "probe_id", "primary_address", "secondary_address",
            "primary_port", "secondary_port", "protocol", "dscp", "traffic_type", "direction", "averaging_ms",
            "start_time", "end_time");

    private static final List<String> MAIN_PER_DIRECTION = List.of("delay", "delay_min", "delay_max", "jitter", "loss",
            "loss_ratio", "load", "throughput");
    private static final List<String> SECONDARY_PER_DIRECTION = List.of("dupl", "reorder", "reorder_ratio", "break_count",
            "break_time", "break_max", "bytes", "packets", "packet_size_min", "packet_size_max", "packet_size_avg",
            "ipdv_min", "ipdv_max", "load_peak", "throughput_peak", "mos");

    /** The 16 main result parameters (schema 3's mainStats), ul_delay and dl_delay first. */
    public static final List<String> MAIN = bothDirections(MAIN_PER_DIRECTION);

    /** The 32 other result parameters (schema 3's secondaryStats), ul_dupl and dl_dupl first. */
    public static final List<String> SECONDARY = bothDirections(SECONDARY_PER_DIRECTION);

    /** All 48 result parameters: main, then secondary. */
    public static final List<String> RESULTS = concat(MAIN, SECONDARY);

    /**
     * The columns the read data set counts up within a run (the row's sequence number, 0-based), so
     * that {@code ul_delay < x} selects x rows of every run; every other result is random.
     */
    public static final List<String> COUNTING = List.of("ul_delay", "dl_delay", "ul_dupl", "dl_dupl");

    private static final int[] COUNTING_IN_RESULTS = COUNTING.stream().mapToInt(RESULTS::indexOf).toArray();

    /**
     * Fills {@code results} (in {@link #RESULTS} order) with line {@code line} of a measurement:
     * the counting columns = line, every other result uniform in [0, 1,000,000).
     */
    static void line(int[] results, int line, java.util.SplittableRandom random) {
        for (int i = 0; i < results.length; i++) {
            results[i] = random.nextInt(1_000_000);
        }
        for (int i : COUNTING_IN_RESULTS) {
            results[i] = line;
        }
    }

    /** The SQL type of an identification column. */
    static String idType(String column) {
        return switch (column) {
            case "start_time", "end_time" -> "BIGINT NOT NULL";
            case "primary_address", "secondary_address" -> "INT UNSIGNED NOT NULL";
            case "primary_port", "secondary_port" -> "SMALLINT UNSIGNED NOT NULL";
            case "protocol", "dscp", "traffic_type", "direction" -> "TINYINT UNSIGNED NOT NULL";
            default -> "INT NOT NULL";
        };
    }

    /** Column definitions {@code name TYPE, ...} of identification columns. */
    static String idDefinitions() {
        StringBuilder b = new StringBuilder();
        for (String c : ID) {
            b.append(b.length() == 0 ? "" : ", ").append(c).append(' ').append(idType(c));
        }
        return b.toString();
    }

    /** Column definitions {@code name INT NOT NULL, ...} of result columns. */
    static String resultDefinitions(List<String> columns) {
        StringBuilder b = new StringBuilder();
        for (String c : columns) {
            b.append(b.length() == 0 ? "" : ", ").append(c).append(" INT NOT NULL");
        }
        return b.toString();
    }

    /** ul_x, dl_x for each x in order, so ul_delay, dl_delay (and ul_dupl, dl_dupl) come first. */
    private static List<String> bothDirections(List<String> names) {
        List<String> paired = new ArrayList<>();
        for (String n : names) {
            paired.add("ul_" + n);
            paired.add("dl_" + n);
        }
        return List.copyOf(paired);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return List.copyOf(all);
    }
}
