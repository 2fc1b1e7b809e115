package io.queuelab.cli;

import picocli.CommandLine;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads durations as people write them: {@code 90}, {@code 90s}, {@code 500ms}, {@code 2m}, {@code 1h}, {@code 1.5s}. */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    private static final Pattern FORM = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)?");

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    public static Duration parse(String value) {
        Matcher m = FORM.matcher(value.trim());
        if (!m.matches()) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a duration (e.g. 30s, 500ms, 2m, 1h)");
        }
        double amount = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        double seconds = switch (unit) {
            case "ms" -> amount / 1000;
            case "m" -> amount * 60;
            case "h" -> amount * 3600;
            default -> amount;
        };
        return Duration.ofNanos(Math.round(seconds * 1e9));
    }
}
