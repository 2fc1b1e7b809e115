package io.queuelab.core.log;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;

import java.util.Locale;

/**
 * The text of a one-line error about a bad input file. Guarantees: {@link #quoted} returns text
 * without a control character, a line break or an undecodable byte (each is written as an escape,
 * e.g. {@code \x1b}, {@code \ufffd}) and at most {@value #MAX_QUOTE} characters of the file's own
 * text plus a count, so a binary or hostile file cannot move the terminal's cursor, recolour it or
 * fill the screen; {@link #problem} says what is wrong with a JSON or CSV file in the user's
 * terms, without the parser's internal class and option names.
 */
public final class InputErrors {
    /** How much of a file's text an error quotes. */
    public static final int MAX_QUOTE = 200;

    private InputErrors() {
    }

    /** The text escaped and cut to {@value #MAX_QUOTE} characters, with the length in all when cut. */
    public static String quoted(String text) {
        StringBuilder b = new StringBuilder();
        int shown = Math.min(text.length(), MAX_QUOTE);
        for (int i = 0; i < shown; i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                b.append(String.format(Locale.ROOT, "\\x%02x", (int) c));
            } else if (printable(c)) {
                b.append(c);
            } else {
                b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            }
        }
        if (shown < text.length()) {
            b.append(String.format(Locale.ROOT, "... (%,d characters in all)", text.length()));
        }
        return b.toString();
    }

    /**
     * A reader of a text file that decodes leniently: bytes that are not UTF-8 read as U+FFFD, which
     * {@link #quoted} escapes, where {@code Files.newBufferedReader} would throw a
     * MalformedInputException ("Input length = 1") that names neither the file nor the line.
     */
    public static java.io.BufferedReader lenientReader(java.nio.file.Path file) throws java.io.IOException {
        return new java.io.BufferedReader(new java.io.InputStreamReader(java.nio.file.Files.newInputStream(file),
                java.nio.charset.StandardCharsets.UTF_8));
    }

    /** A file's first line for an error about its header: "an empty file", or "header " and the line {@link #quoted}. */
    public static String describeHeader(String firstLine) {
        return firstLine == null ? "an empty file" : "header " + quoted(firstLine);
    }

    private static boolean printable(char c) {
        if (c == '\uFFFD') {
            return false; // the decoder's stand-in for bytes that are not UTF-8: the file is not text
        }
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.UNASSIGNED, Character.SURROGATE, Character.PRIVATE_USE,
                    Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR -> false;
            default -> true;
        };
    }

    /**
     * What a parser's failure means for the file, in one line: a field beyond the parser's length
     * bound, a non-number such as NaN where JSON wants a number, or else the parser's own first
     * line without its advice on options (which the user cannot set) and escaped.
     */
    public static String problem(JacksonException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof StreamConstraintsException limit) {
                String m = limit.getOriginalMessage();
                java.util.regex.Matcher max = java.util.regex.Pattern.compile("maximum allowed \\((\\d+)").matcher(m == null ? "" : m);
                return m != null && m.startsWith("String value length") && max.find()
                        ? String.format(Locale.ROOT, "a field longer than %,d characters", Long.parseLong(max.group(1)))
                        : "beyond the parser's bounds (" + quoted(firstLine(cutAdvice(m))) + ")";
            }
        }
        String m = e.getOriginalMessage();
        java.util.regex.Matcher token = java.util.regex.Pattern.compile("^Non-standard token '([^']*)'").matcher(m == null ? "" : m);
        if (token.find()) {
            return quoted(token.group(1)) + " is not a number JSON allows";
        }
        return quoted(firstLine(cutAdvice(m)));
    }

    /** The line of the file the failure is at, or 0 when the parser does not say. */
    public static long line(JacksonException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof JacksonException j && j.getLocation() != null && j.getLocation().getLineNr() > 0) {
                return j.getLocation().getLineNr();
            }
        }
        return 0;
    }

    private static String cutAdvice(String m) {
        if (m == null) {
            return "";
        }
        for (String advice : new String[] {": enable `", " (through reference chain", "\n at [Source"}) {
            int at = m.indexOf(advice);
            if (at > 0) {
                m = m.substring(0, at);
            }
        }
        return m;
    }

    private static String firstLine(String s) {
        return s.lines().findFirst().orElse("");
    }
}
