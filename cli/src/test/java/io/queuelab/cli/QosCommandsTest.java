package io.queuelab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
        // sar's own figures, from host-sar.csv of each round (the same samples): user, system, iowait, disk writes/s
        assertTrue(host.get(0).endsWith(",host_user_percent,host_system_percent,host_iowait_percent,host_disk_writes_per_second"),
                host.get(0));
        // /proc/stat counts in 10 ms ticks and a cell of 3 rows lasts a few of them, so one cell's user + system can be 0
        // ticks (CI saw 0.00 beside a host CPU of 46 %); the grid's cells together always spend some
        double userSystem = 0;
        for (String row : host.subList(1, host.size())) {
            String[] f = row.split(",");
            assertTrue(Double.parseDouble(f[7]) >= 0 && Double.parseDouble(f[8]) >= 0, "the host's user and system CPU: " + row);
            userSystem += Double.parseDouble(f[7]) + Double.parseDouble(f[8]);
        }
        assertTrue(userSystem > 0, "the host's user + system CPU over the grid: " + host);
        assertTrue(Double.parseDouble(schema3[10]) >= 0, "disk writes/s: " + host.get(6));
        assertTrue(Files.exists(out.resolve("schema3-c2-r3").resolve("round-01").resolve("host-sar.csv")));
        for (String png : List.of("write-host-cpu.png", "write-server-io.png", "write-server-memory.png", "write-host-sar-cpu.png",
                "write-host-sar-disk.png")) {
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

    /**
     * qos-score on a grid and a read test small enough to score by hand (seed 000's equations 4-10):
     * writing means 200, 400 and 100 lines/s give 5, 10 and 2.5 points. Q1 case 1 (schema 1's two
     * client counts average 3 s; schema 2's STRAIGHT_JOIN 1.5 s stands in for its plain 100 s;
     * schema 3 6 s) scales to M = 5, 2.5, 10 and scores 12.5 - M = 7.5, 10, 2.5; its case 2 (1 s
     * each) 10 each; Q1 averages 8.75, 10, 6.25. Q2 case 1 (4, 2, 8 s) scores 7.5, 10, 2.5, and its
     * case 2, measured on two schemas only, is not scored. Reading: 8.125, 10, 4.375; total
     * 2 x writing + reading: 18.125, 30, 9.375.
     */
    @Test
    void scoreGivesTheHandComputedPoints(@TempDir Path tmp) throws Exception {
        Path grid = tmp.resolve("grid.csv");
        Files.writeString(grid, String.join("\n", "schema,clients,rows_per_client,lines_per_second",
                "1,1,100,100", "1,2,100,300", "2,1,100,400", "3,1,100,50", "3,2,100,150", "3,4,100,100", ""));
        Path reads = tmp.resolve("reads.csv");
        Files.writeString(reads, String.join("\n", "query,case_number,straight_join,schema,clients,seconds_per_client",
                "Q1,1,false,1,1,2.0", "Q1,1,false,1,2,4.0", "Q1,1,false,2,1,100", "Q1,1,true,2,1,1.5", "Q1,1,false,3,1,6",
                "Q1,2,false,1,1,1", "Q1,2,true,2,1,1", "Q1,2,false,3,1,1",
                "Q2,1,false,1,1,4", "Q2,1,false,2,1,2", "Q2,1,false,3,1,8",
                "Q2,2,false,1,1,3", "Q2,2,false,2,1,9", ""));
        CliTestSupport.Result r = CliTestSupport.run("qos-score", "--write", grid.toString(), "--read", reads.toString());
        assertEquals(0, r.exitCode(), r.err());
        java.util.Map<String, double[]> rows = new java.util.LinkedHashMap<>();
        for (String line : r.out().lines().skip(1).toList()) {
            java.util.regex.Matcher f = java.util.regex.Pattern.compile("^(.*?)\\s+([-0-9.]+)\\s+([-0-9.]+)\\s+([-0-9.]+)$")
                    .matcher(line.trim());
            assertTrue(f.matches(), line);
            rows.put(f.group(1), new double[] {Double.parseDouble(f.group(2)), Double.parseDouble(f.group(3)), Double.parseDouble(f.group(4))});
        }
        assertEquals(List.of("reading Q1 (Table 5.6)", "reading Q2 (Table 5.6)", "points for writing",
                "weighted points for writing", "points for reading", "total points"), List.copyOf(rows.keySet()), r.out());
        // as printed, to 2 decimals rounding half up (8.125 -> 8.13, 4.375 -> 4.38)
        assertArrayEquals(new double[] {8.75, 10, 6.25}, rows.get("reading Q1 (Table 5.6)"), 1e-9);
        assertArrayEquals(new double[] {7.5, 10, 2.5}, rows.get("reading Q2 (Table 5.6)"), 1e-9);
        assertArrayEquals(new double[] {5, 10, 2.5}, rows.get("points for writing"), 1e-9);
        assertArrayEquals(new double[] {10, 20, 5}, rows.get("weighted points for writing"), 1e-9);
        assertArrayEquals(new double[] {8.13, 10, 4.38}, rows.get("points for reading"), 1e-9);
        assertArrayEquals(new double[] {18.13, 30, 9.38}, rows.get("total points"), 1e-9);
    }
}
