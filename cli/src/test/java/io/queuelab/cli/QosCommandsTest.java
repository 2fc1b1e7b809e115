package io.queuelab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Seed 000's commands ({@code load --relation qos}, {@code qos-write}) on an embedded MariaDB, and their bad input. */
class QosCommandsTest {
    static final String EMBEDDED_DIR = Path.of("target", "cli-qos-mariadb").toString();

    @Test
    void loadAndATinyWriteGridRunFromTheCommandLine(@TempDir Path tmp) throws Exception {
        CliTestSupport.Result load = CliTestSupport.run("load", "--relation", "qos", "--schema", "2", "--scale", "0.001",
                "--embedded-dir", EMBEDDED_DIR);
        assertEquals(0, load.exitCode(), load.toString());
        assertTrue(load.out().startsWith("loaded schema 2 (qos2_measurementsId, qos2_averageStats): 556 runs, 2030 rows at "),
                load.out());

        Path out = tmp.resolve("grid");
        CliTestSupport.Result grid = CliTestSupport.run("qos-write", "--schemas", "3", "--clients", "1,2", "--rows", "3",
                "--min-rounds", "2", "--max-rounds", "2", "--max-error", "10", "--embedded-dir", EMBEDDED_DIR, "--out", out.toString());
        assertEquals(0, grid.exitCode(), grid.toString());
        assertTrue(grid.out().contains("schema 3: lines/s (rows per client across, clients down)"), grid.out());
        List<String> csv = Files.readAllLines(out.resolve("grid.csv"));
        assertEquals(3, csv.size(), csv.toString());
        assertTrue(csv.get(2).startsWith("3,2,3,2,"), csv.get(2));
        assertTrue(Files.size(out.resolve("grid-schema3.png")) > 1000);
        assertTrue(Files.exists(out.resolve("schema3-c2-r3").resolve("round-02").resolve("manifest.json")));
        CliTestSupport.Result summary = CliTestSupport.run("summary", out.resolve("schema3-c2-r3").resolve("round-01").toString());
        assertTrue(summary.out().contains("requests  6 logged (0 in warm-up), ok 6"), summary.out());
    }

    @Test
    void badInputIsOneLineBeforeAnyServerStarts(@TempDir Path tmp) {
        CliTestSupport.assertEachIsRefused(new String[][] {
                {"load", "--relation", "qos", "--schema", "4"},
                {"load", "--relation", "qos", "--scale", "2"},
                {"load", "--relation", "qos", "--tuples", "10"},
                {"load", "--relation", "wisc", "--tuples", "10", "--schema", "1"},
                {"load", "--relation", "wisc"},
                {"qos-write", "--clients", "0"},
                {"qos-write", "--schemas", "5"},
                {"qos-write", "--min-rounds", "5", "--max-rounds", "3"},
                {"qos-write", "--max-error", "0"},
        });
        CliTestSupport.Result r = CliTestSupport.run("load", "--relation", "qos", "--schema", "4");
        assertTrue(r.err().contains("--schema must be 1, 2 or 3"), r.err());
    }
}
