package io.queuelab.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs the queuelab command line in-process and captures what it prints. */
public final class CliTestSupport {
    private CliTestSupport() {
    }

    /** The exit code, standard output and standard error of one command line. */
    public record Result(int exitCode, String out, String err) {
    }

    public static synchronized Result run(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code = Main.run(args);
            return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    /** Each command line fails with exit code 2 and one line on stderr, naming no exception. */
    public static void assertEachIsRefused(String[][] commandLines) {
        for (String[] args : commandLines) {
            Result r = run(args);
            String what = String.join(" ", args);
            assertEquals(2, r.exitCode(), what + " -> " + r.err());
            String err = r.err().strip();
            assertTrue(err.startsWith("queuelab: "), what + " -> " + err);
            assertFalse(err.contains("\n"), what + " -> one line: " + err);
            assertFalse(err.contains("Exception"), what + " -> no stack trace or exception name: " + err);
        }
    }

    /**
     * The command line is refused with exactly {@code said} and exit 2, at once (within 5 s: no
     * server was started, no relation loaded, no probe run first), and none of {@code untouched}
     * exists after it: nothing was started or created.
     */
    public static void assertRefusedAtOnce(java.util.List<String> args, String said, java.nio.file.Path... untouched) {
        long t0 = System.nanoTime();
        Result r = run(args.toArray(String[]::new));
        double seconds = (System.nanoTime() - t0) / 1e9;
        String what = String.join(" ", args);
        assertEquals(said, r.err().strip(), what + " -> " + r.out());
        assertEquals(2, r.exitCode(), what);
        assertTrue(seconds < 5, what + ": refused at once, not after a server's start or a run: " + seconds + " s");
        for (java.nio.file.Path p : untouched) {
            assertFalse(java.nio.file.Files.exists(p), what + ": nothing started or created, yet " + p + " exists");
        }
    }
}
