package io.queuelab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad options are one line that names the option and what to do, before anything starts (issue 43,
 * case 10): each message here was once about something else, or came after a server had started.
 */
class OptionMessagesTest {
    @TempDir
    Path dir;

    /** Three runs of an emulated M/M/1 server that validate takes (two to fit, one to hold out). */
    private Path[] runs() {
        Path[] runs = new Path[3];
        int i = 0;
        for (String rate : new String[] {"100", "300", "200"}) {
            runs[i] = dir.resolve("r" + rate);
            CliTestSupport.Result made = CliTestSupport.run("run", "--backend", "mm1", "--mu", "500", "--rate", rate, "--duration", "2s",
                    "--warmup", "0", "--report-interval", "0", "--out", runs[i++].toString());
            assertEquals(0, made.exitCode(), made.err());
        }
        return runs;
    }

    /** An absurd core count names --server-cores (validate once answered "connections must be between 1 and 1048576"). */
    @Test
    void anAbsurdServerCoreCountNamesTheOption() {
        Path[] r = runs();
        String expected = "queuelab: --server-cores 1000000000 is more cores than a Linux x86-64 server can have (at most 8192): "
                + "give the server's own count (nproc on it)";
        for (String[] args : new String[][] {
                {"validate", r[0].toString(), r[1].toString(), "--holdout", r[2].toString(), "--server-cores=1000000000"},
                {"run", "--backend", "noop", "--rate", "5", "--duration", "1s", "--server-cores=1000000000", "--out", dir.resolve("x").toString()},
                {"simulate", "--model", "client-ps", "--service", "exp:0.01", "--connections", "4", "--server-cores=1000000000",
                        "--lambda", "10"},
        }) {
            CliTestSupport.Result c = CliTestSupport.run(args);
            assertEquals(expected, c.err().strip(), String.join(" ", args));
            assertEquals(2, c.exitCode(), String.join(" ", args) + " -> " + c.out() + c.err());
        }
        assertFalse(Files.exists(dir.resolve("x")), "nothing was run");
        CliTestSupport.Result ok = CliTestSupport.run("simulate", "--model", "client-ps", "--service", "exp:0.01", "--connections", "4",
                "--server-cores", "8192", "--lambda", "10", "--duration", "2");
        assertEquals(0, ok.exitCode(), ok.err());
    }

    /** An empty run name is not the working directory. */
    @Test
    void anEmptyHoldoutIsRefusedNotReadAsTheWorkingDirectory() {
        Path[] r = runs();
        for (String[] args : new String[][] {{"validate", r[0].toString(), r[1].toString(), "--holdout", ""},
                {"validate", r[0].toString(), r[1].toString(), "--holdout", "," + r[2]}, {"validate", r[0].toString(), "", "--holdout", r[2].toString()}}) {
            CliTestSupport.Result c = CliTestSupport.run(args);
            assertTrue(c.err().strip().matches("queuelab: (--holdout|a fit run) has an empty run name \\('' or a stray comma\\): "
                    + "give run directories, e.g. --holdout r500,r800"), String.join("|", args) + " -> " + c.out() + c.err());
            assertEquals(2, c.exitCode(), c.err());
        }
    }

    /**
     * --server-pid, --server-data-dir and --telemetry-interval are refused before the embedded
     * server starts: its directory is never created, and the refusal comes at once.
     */
    @Test
    void serverPidErrorsComeBeforeTheEmbeddedServerStarts() {
        Path db = dir.resolve("db");
        String[][] cases = {
                {"--telemetry-interval", "1s", "--server-pid", "999999999"},
                {"--server-pid", String.valueOf(ProcessHandle.current().pid())},
                {"--telemetry-interval", "1s", "--server-data-dir", dir.toString()},
        };
        String[] said = {"queuelab: --server-pid 999999999: no such process (give the pid of the running server, e.g. pgrep -o mariadbd)",
                "queuelab: --server-pid needs --telemetry-interval", "queuelab: --server-data-dir needs --server-pid"};
        for (int i = 0; i < cases.length; i++) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("run", "--embedded-dir", db.toString(), "--rate",
                    "5", "--duration", "1s", "--out", dir.resolve("x").toString()));
            args.addAll(java.util.List.of(cases[i]));
            CliTestSupport.assertRefusedAtOnce(args, said[i], db);
        }
    }
}
