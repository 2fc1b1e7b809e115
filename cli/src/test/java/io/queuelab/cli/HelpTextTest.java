package io.queuelab.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.IllegalFormatException;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every command's help text goes through picocli's String.format: a lone '%' (as in "95 % interval")
 * makes picocli print a warning and show the raw text, so each description must be a valid format.
 */
class HelpTextTest {
    @Test
    void everyDescriptionIsAValidFormat() {
        List<String> bad = new ArrayList<>();
        check(Cli.commandLine(new Main(), false), bad);
        check(Cli.commandLine(new NodeMain(), false), bad);
        assertTrue(bad.isEmpty(), "descriptions picocli cannot format (write % as %%): " + bad);
    }

    private static void check(CommandLine cl, List<String> bad) {
        CommandSpec spec = cl.getCommandSpec();
        for (String line : spec.usageMessage().description()) {
            formats(spec.qualifiedName() + " description", line, bad);
        }
        for (OptionSpec option : spec.options()) {
            for (String line : option.description()) {
                formats(spec.qualifiedName() + " " + option.longestName(), line, bad);
            }
        }
        for (CommandLine sub : cl.getSubcommands().values()) {
            check(sub, bad);
        }
    }

    private static void formats(String where, String line, List<String> bad) {
        try {
            String.format(Locale.ROOT, line);
        } catch (IllegalFormatException e) {
            bad.add(where + ": " + e.getMessage());
        }
    }
}
