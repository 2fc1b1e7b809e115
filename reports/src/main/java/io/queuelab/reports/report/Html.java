package io.queuelab.reports.report;

import java.util.List;
import java.util.Locale;

/** A small builder of well-formed XHTML (every text escaped), so tests can parse the report as XML. */
final class Html {
    private final StringBuilder out = new StringBuilder();

    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    static String number(double v) {
        if (Double.isNaN(v)) {
            return "";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e12) {
            return String.format(Locale.ROOT, "%d", (long) v);
        }
        return String.format(Locale.ROOT, "%.4g", v);
    }

    /**
     * A time given in seconds, written in milliseconds: the report's unit for response, service
     * and queue times, whose values in seconds (0.0003735) are hard to read.
     */
    static String millis(double seconds) {
        return number(seconds * 1e3);
    }

    Html raw(String s) {
        out.append(s);
        return this;
    }

    Html element(String tag, String text) {
        out.append('<').append(tag).append('>').append(escape(text)).append("</").append(tag).append(">\n");
        return this;
    }

    private final java.util.List<String> headings = new java.util.ArrayList<>();

    /** A section heading with an anchor (listed by {@link #contents()}). */
    Html heading(String text) {
        headings.add(text);
        out.append("<h2 id=\"").append(anchor(text)).append("\">").append(escape(text)).append("</h2>\n");
        return this;
    }

    static String anchor(String text) {
        return text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    }

    /** A list of links to the sections. */
    String contents() {
        StringBuilder b = new StringBuilder("<ul class=\"contents\">\n");
        for (String h : headings) {
            b.append("<li><a href=\"#").append(anchor(h)).append("\">").append(escape(h)).append("</a></li>\n");
        }
        return b.append("</ul>\n").toString();
    }

    Html paragraph(String text) {
        return element("p", text);
    }

    Html table(List<String> header, List<List<String>> rows) {
        out.append("<table>\n<tr>");
        for (String h : header) {
            out.append("<th>").append(escape(h)).append("</th>");
        }
        out.append("</tr>\n");
        for (List<String> row : rows) {
            out.append("<tr>");
            for (String cell : row) {
                out.append("<td>").append(escape(cell)).append("</td>");
            }
            out.append("</tr>\n");
        }
        out.append("</table>\n");
        return this;
    }

    Html pre(String text) {
        return element("pre", text);
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
