package io.queuelab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Seed 000's commands ({@code load --relation qos}, {@code qos-write}) on an embedded MariaDB, and their bad input. */
class QosCommandsTest {
    static final String EMBEDDED_DIR = Path.of("target", "cli-qos-mariadb").toString();

    @Test
    void loadWriteReadAndScoreRunFromTheCommandLine(@TempDir Path tmp) throws Exception {
        CliTestSupport.Result load = CliTestSupport.run("load", "--relation", "qos", "--scale", "0.001",
                "--embedded-dir", EMBEDDED_DIR);
        assertEquals(0, load.exitCode(), load.toString());
        assertTrue(load.out().contains("loaded schema 2 (qos2_measurementsId, qos2_averageStats): 556 runs, 2030 rows at "),
                load.out());
        assertEquals(3, load.out().lines().count(), load.out());

        Path out = tmp.resolve("grid");
        CliTestSupport.Result grid = CliTestSupport.run("qos-write", "--clients", "1,2", "--rows", "3",
                "--min-rounds", "2", "--max-rounds", "2", "--max-error", "10", "--telemetry-interval", "100ms",
                "--embedded-dir", EMBEDDED_DIR, "--out", out.toString());
        assertEquals(0, grid.exitCode(), grid.toString());
        assertTrue(grid.out().contains("schema 3: lines/s (rows per client across, clients down)"), grid.out());
        List<String> csv = Files.readAllLines(out.resolve("grid.csv"));
        assertEquals(1 + 3 * 2, csv.size(), csv.toString());
        assertTrue(csv.get(6).startsWith("3,2,3,") && csv.get(6).split(",")[4].equals("2"), csv.get(6));
        assertTrue(Files.exists(out.resolve("schema3-c2-r3").resolve("round-00").resolve("manifest.json")), "the warm-up round");
        assertTrue(Files.size(out.resolve("grid-schema3.png")) > 1000);
        // the seed's sar figures 5.4-5.7: host and server resources per cell, sampled in every round
        List<String> host = Files.readAllLines(out.resolve("grid-host.csv"));
        assertEquals(1 + 3 * 2, host.size(), host.toString());
        String[] schema3 = host.get(6).split(",");
        assertTrue(Double.parseDouble(schema3[5]) > 0 && Double.parseDouble(schema3[6]) > 10e6, "server I/O and RSS: " + host.get(6));
        assertTrue(Files.exists(out.resolve("schema3-c2-r3").resolve("round-01").resolve("host-resources.csv")));
        for (String png : List.of("write-host-cpu.png", "write-server-io.png", "write-server-memory.png")) {
            assertTrue(Files.size(out.resolve(png)) > 1000, png);
        }
        assertTrue(Files.exists(out.resolve("schema3-c2-r3").resolve("round-02").resolve("manifest.json")));
        CliTestSupport.Result summary = CliTestSupport.run("summary", out.resolve("schema3-c2-r3").resolve("round-01").toString());
        assertTrue(summary.out().contains("requests  6 logged (0 in warm-up), ok 6"), summary.out());

        Path reads = tmp.resolve("reads");
        CliTestSupport.Result read = CliTestSupport.run("qos-read", "--queries", "Q1.1,Q1.1-sj,Q3.5", "--clients", "1,3", "--rounds", "2",
                "--embedded-dir", EMBEDDED_DIR, "--out", reads.toString());
        assertEquals(0, read.exitCode(), read.toString());
        List<String> readCsv = Files.readAllLines(reads.resolve("reads.csv"));
        // Q1.1 and Q3.5 on three schemas, Q1.1-sj on schema 2, two client counts each
        assertEquals(1 + (3 + 1 + 3) * 2, readCsv.size(), readCsv.toString());
        // Q3.5 (query cache on, all tables) on schema 3 with 3 clients fetched one row per run
        assertTrue(readCsv.stream().anyMatch(l -> l.startsWith("Q3.5,Q3,5,true,true,false,3,3,556,556,")), readCsv.toString());
        // the seed's Figures 5.8-5.27: one chart per case
        assertTrue(Files.size(reads.resolve("reads-Q3.5.png")) > 1000 && Files.exists(reads.resolve("reads-Q1.1-sj.png")));

        CliTestSupport.Result score = CliTestSupport.run("qos-score", "--write", out.resolve("grid.csv").toString(),
                "--read", reads.resolve("reads.csv").toString());
        assertEquals(0, score.exitCode(), score.toString());
        assertTrue(score.out().contains("reading Q1 (Table 5.6)") && score.out().contains("reading Q3 (Table 5.6)")
                && score.out().contains("total points"), score.out());

        Path ingest = tmp.resolve("ingest");
        CliTestSupport.Result e2e = CliTestSupport.run("qos-ingest", "--clients", "5", "--writers", "1", "--warmup", "0",
                "--duration", "1s", "--embedded-dir", EMBEDDED_DIR, "--out", ingest.toString());
        assertEquals(0, e2e.exitCode(), e2e.toString());
        List<String> ingestCsv = Files.readAllLines(ingest.resolve("ingest.csv"));
        assertEquals(2, ingestCsv.size(), ingestCsv.toString());
        assertTrue(ingestCsv.get(1).startsWith("5,1,100.0,"), ingestCsv.toString());
        assertTrue(ingestCsv.get(1).endsWith(",0"), "every line written: " + ingestCsv);
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
                {"qos-read", "--queries", "Q9"},
                {"qos-ingest", "--writers", "0"},
                {"qos-ingest", "--schema", "7"},
                {"qos-read", "--clients", "0"},
                {"qos-read", "--clients", "51"},
                {"qos-read", "--rounds", "1"},
                {"qos-write", "--clients", "129"},
                {"qos-write", "--rows", "10001"},
                {"qos-write", "--telemetry-interval", "0s"},
                {"qos-score", "--write", tmp.resolve("none.csv").toString(), "--read", tmp.resolve("none.csv").toString()},
        });
        CliTestSupport.Result r = CliTestSupport.run("load", "--relation", "qos", "--schema", "4");
        assertTrue(r.err().contains("--schema must be 1, 2 or 3"), r.err());
    }
}
