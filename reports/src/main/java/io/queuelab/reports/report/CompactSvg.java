package io.queuelab.reports.report;

import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A chart as inline SVG small enough for a report of a realistic sweep (twenty-odd charts) to
 * stay within 1 MB. XChart's SVG export (VectorGraphics2D) writes every number with up to 17
 * digits, every marker and every segment of a line as an element with its own style, and all text
 * as glyph outlines: XChart fills the outlines of TextLayouts and never draws strings, so no option
 * of the export makes SVG text of them; the outlines are kept, written compactly.
 *
 * <p>Guarantees: the same drawing to a tenth of a pixel, except that (1) the chart's title is left
 * out (the figure's caption says it, as text) and (2) a series' markers become one path of round
 * dots (zero-length subpaths with round caps) of the same colour, size and opacity, and
 * consecutive shapes of one style become one path, so where they overlap the opacity does not add
 * up.
 */
final class CompactSvg {
    private static final Pattern MARKER = Pattern.compile(
            "\\s*<ellipse cx=\"([-0-9.]+)\" cy=\"([-0-9.]+)\" rx=\"([0-9.]+)\" ry=\"\\3\" style=\"fill:(rgb\\([0-9,]+\\));"
                    + "(?:fill-opacity:([0-9.]+);)?stroke:none;\"/>");
    private static final Pattern SEGMENT = Pattern.compile(
            "\\s*<line style=\"([^\"]+)\" x1=\"([-0-9.]+)\" x2=\"([-0-9.]+)\" y1=\"([-0-9.]+)\" y2=\"([-0-9.]+)\"/>");
    private static final Pattern SHAPE = Pattern.compile("\\s*<path d=\"([MLQZ0-9., -]+)\" style=\"([^\"]+)\"/>");
    private static final Pattern PATH_DATA = Pattern.compile(" d=\"([MLQZ0-9., -]+)\"");
    private static final Pattern PATH_TOKEN = Pattern.compile("[MLQZ]|-?[0-9]+(?:\\.[0-9]+)?");
    /** Coordinates' decimals beyond the first (opacities keep theirs). */
    private static final Pattern LONG_DECIMALS = Pattern.compile("(?<!opacity:)(\\d\\.\\d)\\d+");

    /** A drawn path with its style, as the compacted export writes it (text outlines among them). */
    private static final Pattern STYLED_PATH = Pattern.compile("<path d=\"([^\"]+)\" style=\"([^\"]+)\"/>");
    /** Paths shorter than this are cheaper written again than referred to. */
    static final int SHARED_MIN_LENGTH = 64;

    private CompactSvg() {
    }

    /**
     * The charts of one page draw the same text again and again (axis titles, legend entries, tick
     * labels), each as its outline, hundreds of bytes a string: a path already drawn on the page
     * with the same data and style is drawn again by reference ({@code <use>}), the first occurrence
     * given an id. {@code <use>} draws the referenced element in its own place (the enclosing
     * groups' transform and clip), so the drawing is the same; it needs the charts inline in one
     * document, as the report puts them. {@code drawn} maps path-and-style to id across the page's
     * charts; ids are {@code qlo<n>}.
     */
    static String shareRepeatedPaths(String svg, java.util.Map<String, String> drawn) {
        Matcher m = STYLED_PATH.matcher(svg);
        StringBuilder out = new StringBuilder(svg.length());
        while (m.find()) {
            if (m.group(1).length() < SHARED_MIN_LENGTH) {
                continue;
            }
            String key = m.group(1) + '\n' + m.group(2);
            String id = drawn.get(key);
            if (id == null) {
                id = "qlo" + drawn.size();
                drawn.put(key, id);
                m.appendReplacement(out, Matcher.quoteReplacement("<path id=\"" + id + "\" d=\"" + m.group(1) + "\" style=\""
                        + m.group(2) + "\"/>"));
            } else {
                m.appendReplacement(out, Matcher.quoteReplacement("<use xlink:href=\"#" + id + "\"/>"));
            }
        }
        m.appendTail(out);
        return out.toString();
    }

    static String of(XYChart chart) throws IOException {
        boolean titled = chart.getStyler().isChartTitleVisible();
        chart.getStyler().setChartTitleVisible(false);
        ByteArrayOutputStream svg = new ByteArrayOutputStream();
        try {
            VectorGraphicsEncoder.saveVectorGraphic(chart, svg, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        } finally {
            chart.getStyler().setChartTitleVisible(titled);
        }
        return compact(svg.toString(StandardCharsets.UTF_8).replaceFirst("(?s)^.*?(<svg)", "$1"));
    }

    static String compact(String svg) {
        String joined = joinPaths(joinSegments(joinMarkers(svg)));
        Matcher d = PATH_DATA.matcher(joined);
        StringBuilder out = new StringBuilder(joined.length());
        while (d.find()) {
            d.appendReplacement(out, Matcher.quoteReplacement(" d=\"" + relative(d.group(1)) + "\""));
        }
        d.appendTail(out);
        return LONG_DECIMALS.matcher(out).replaceAll("$1");
    }

    /** Runs of markers of one radius and colour become one path of dots. */
    private static String joinMarkers(String svg) {
        Matcher m = MARKER.matcher(svg);
        StringBuilder out = new StringBuilder(svg.length());
        StringBuilder dots = new StringBuilder();
        String style = null;
        int last = 0;
        while (m.find()) {
            double radius = Double.parseDouble(m.group(3));
            String opacity = m.group(5) == null ? "" : "stroke-opacity:" + m.group(5) + ";";
            String markerStyle = "fill:none;stroke:" + m.group(4) + ";" + opacity + "stroke-width:" + trim(2 * radius)
                    + ";stroke-linecap:round;";
            if (style != null && !(m.start() == last && markerStyle.equals(style))) {
                closePath(out, dots, style);
                style = null;
            }
            out.append(svg, last, m.start());
            style = markerStyle;
            dots.append('M').append(m.group(1)).append(',').append(m.group(2)).append(" L").append(m.group(1)).append(',')
                    .append(m.group(2)).append(' ');
            last = m.end();
        }
        if (style != null) {
            closePath(out, dots, style);
        }
        return out.append(svg, last, svg.length()).toString();
    }

    /** Runs of line segments of one style become one path (a polyline where they join). */
    private static String joinSegments(String svg) {
        Matcher m = SEGMENT.matcher(svg);
        StringBuilder out = new StringBuilder(svg.length());
        StringBuilder path = new StringBuilder();
        String style = null, end = null;
        int last = 0;
        while (m.find()) {
            if (style != null && !(m.start() == last && m.group(1).equals(style))) {
                closePath(out, path, style);
                style = null;
            }
            out.append(svg, last, m.start());
            String start = m.group(2) + ',' + m.group(4);
            if (style == null || !start.equals(end)) {
                path.append('M').append(start).append(' ');
            }
            end = m.group(3) + ',' + m.group(5);
            path.append('L').append(end).append(' ');
            style = m.group(1);
            last = m.end();
        }
        if (style != null) {
            closePath(out, path, style);
        }
        return out.append(svg, last, svg.length()).toString();
    }

    /** Runs of paths of one style (e.g. a series' triangle markers) become one path of their subpaths. */
    private static String joinPaths(String svg) {
        Matcher m = SHAPE.matcher(svg);
        StringBuilder out = new StringBuilder(svg.length());
        StringBuilder data = new StringBuilder();
        String style = null;
        int last = 0;
        while (m.find()) {
            if (style != null && !(m.start() == last && m.group(2).equals(style))) {
                closePath(out, data, style);
                style = null;
            }
            out.append(svg, last, m.start());
            data.append(m.group(1)).append(' ');
            style = m.group(2);
            last = m.end();
        }
        if (style != null) {
            closePath(out, data, style);
        }
        return out.append(svg, last, svg.length()).toString();
    }

    private static void closePath(StringBuilder out, StringBuilder data, String style) {
        out.append("\n<path d=\"").append(data.toString().trim()).append("\" style=\"").append(style).append("\"/>");
        data.setLength(0);
    }

    /**
     * Path data with absolute M, L, Q and Z rewritten as relative commands (h and v for level
     * steps) in tenths of a pixel (the first move stays absolute): small deltas instead of large coordinates. Integer tenths
     * add up exactly, so no position drifts.
     */
    static String relative(String data) {
        Matcher t = PATH_TOKEN.matcher(data);
        PathWriter out = new PathWriter();
        long x = 0, y = 0, startX = 0, startY = 0;
        char command = 0;
        long[] points = new long[4];
        int filled = 0;
        while (t.find()) {
            String token = t.group();
            char c = token.charAt(0);
            if (Character.isLetter(c)) {
                command = c;
                filled = 0;
                if (c == 'Z') {
                    out.command('z', false);
                    x = startX;
                    y = startY;
                }
                continue;
            }
            points[filled++] = Math.round(Double.parseDouble(token) * 10);
            if (filled < (command == 'Q' ? 4 : 2)) {
                continue;
            }
            filled = 0;
            if (out.isEmpty()) { // the first move: absolute
                out.command('M', false);
                out.number(points[0]);
                out.number(points[1]);
            } else if (command == 'L' && (points[0] == x || points[1] == y)) { // a horizontal or vertical step
                boolean vertical = points[0] == x;
                out.command(vertical ? 'v' : 'h', true);
                out.number(vertical ? points[1] - y : points[0] - x);
            } else {
                // after an m, further pairs would mean l: repeat only l and q
                out.command(Character.toLowerCase(command), command != 'M');
                for (int i = 0; i < (command == 'Q' ? 4 : 2); i += 2) {
                    out.number(points[i] - x);
                    out.number(points[i + 1] - y);
                }
            }
            int end = command == 'Q' ? 2 : 0;
            x = points[end];
            y = points[end + 1];
            if (command == 'M') {
                startX = x;
                startY = y;
            }
        }
        return out.toString();
    }

    /** Writes path data with the fewest separators SVG's grammar allows. */
    private static final class PathWriter {
        private final StringBuilder out = new StringBuilder();
        private char lastCommand;
        private boolean afterCommand;
        private boolean lastHadDot;

        boolean isEmpty() {
            return out.length() == 0;
        }

        void command(char c, boolean mayRepeat) {
            if (!(mayRepeat && c == lastCommand)) {
                out.append(c);
                afterCommand = true;
            }
            lastCommand = c;
        }

        void number(long tenths) {
            String n = tenths(tenths);
            boolean joins = afterCommand || n.startsWith("-") || (n.startsWith(".") && lastHadDot);
            if (!joins) {
                out.append(' ');
            }
            out.append(n);
            afterCommand = false;
            lastHadDot = n.contains(".");
        }

        @Override
        public String toString() {
            return out.toString();
        }
    }

    /** A length in tenths written in pixels, shortest form: 12 -> "1.2", -3 -> "-.3", 20 -> "2". */
    private static String tenths(long v) {
        String sign = v < 0 ? "-" : "";
        long a = Math.abs(v);
        long whole = a / 10, tenth = a % 10;
        if (tenth == 0) {
            return sign + whole;
        }
        return sign + (whole == 0 ? "" : Long.toString(whole)) + "." + tenth;
    }

    private static String trim(double v) {
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
