package io.queuelab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Files written by the reading commands onto a real disk that fills: a clear failure, nothing cut short left (issue 28). */
@Timeout(120)
class FullDiskTest {
    /** Its own embedded directory: cli's test classes run in two JVMs, and one data directory takes one server. */
    private static final String QOS_EMBEDDED_DIR = Path.of("target", "cli-full-disk-mariadb").toString();
    @TempDir
    Path dir;

    private Path smallRun() {
        Path run = dir.resolve("run");
        CliTestSupport.Result r = CliTestSupport.run("run", "--backend", "mm1", "--mu", "4000", "--rate", "1000",
                "--duration", "3s", "--seed", "5", "--out", run.toString());
        assertEquals(0, r.exitCode(), r.err());
        return run;
    }

    private static List<String> filesUnder(Path d) throws IOException {
        try (Stream<Path> s = Files.walk(d)) {
            return s.filter(Files::isRegularFile).map(p -> d.relativize(p) + " (" + p.toFile().length() + " bytes)").toList();
        }
    }

    @Test
    void exportAndReportOntoAFullDiskFailInOneLineAndLeaveNoFileCutShort() throws Exception {
        Path run = smallRun();
        // the same exports with room: bigger than the full disk below, so that disk really fills
        Path roomy = dir.resolve("roomy");
        assertEquals(0, CliTestSupport.run("export", run.toString(), "--hlog", roomy.toString(), "--interval", "10ms",
                "--csv", dir.resolve("roomy.csv").toString()).exitCode());
        assertTrue(Files.size(roomy.resolve("mm1.hlog")) > 24_000, "hlog of " + Files.size(roomy.resolve("mm1.hlog")));

        try (SmallTmpfs full = SmallTmpfs.mount(dir.resolve("full"), 16)) {
            CliTestSupport.Result hlog = CliTestSupport.run("export", run.toString(), "--hlog", full.dir.toString(), "--interval", "10ms");
            assertEquals(2, hlog.exitCode(), hlog.err());
            String err = hlog.err().strip();
            assertTrue(err.endsWith("queuelab: could not write " + full.dir.resolve("mm1.hlog") + ": No space left on device"), err);
            assertFalse(hlog.err().contains("wrote"), hlog.err());
            assertEquals(List.of(), filesUnder(full.dir), "no hlog cut short, no temporary file");

            CliTestSupport.Result csv = CliTestSupport.run("export", run.toString(), "--csv", full.dir.resolve("r.csv").toString());
            assertEquals(2, csv.exitCode(), csv.err());
            assertTrue(csv.err().strip().endsWith("r.csv: No space left on device"), csv.err());
            assertEquals(List.of(), filesUnder(full.dir));

            CliTestSupport.Result report = CliTestSupport.run("report", run.toString(), "--out", full.dir.resolve("r.html").toString());
            assertEquals(2, report.exitCode(), report.out() + report.err());
            assertTrue(report.err().strip().matches("queuelab: could not write .*\\.png: No space left on device"), report.err());
            assertEquals(List.of(), filesUnder(full.dir), "no PNG cut short or empty, no report");
        }
    }

    /**
     * {@code resources --figures} onto a disk with room for Figure 3 and not for Figure 4 (the room
     * is taken from the same figures written with room first): Figure 3 whole, no Figure 4 cut
     * short and no temporary file, the error naming Figure 4. Before: BitmapEncoder wrote into the
     * PNG itself and left Figure 4 cut short.
     */
    @Test
    void resourcesFiguresOntoAFullDiskLeaveEachFigureWholeOrAbsent() throws Exception {
        Process server = new ProcessBuilder("sleep", "60").start();
        Path run = dir.resolve("telemetry");
        try {
            CliTestSupport.Result r = CliTestSupport.run("run", "--backend", "mm1", "--mu", "1000", "--rate", "100",
                    "--duration", "2s", "--report-interval", "0", "--telemetry-interval", "250ms",
                    "--server-pid", Long.toString(server.pid()), "--server-data-dir", dir.toString(), "--out", run.toString());
            assertEquals(0, r.exitCode(), r.err());
        } finally {
            server.destroy();
            server.waitFor();
        }
        Path roomy = Files.createDirectories(dir.resolve("roomy-figures"));
        CliTestSupport.Result withRoom = CliTestSupport.run("resources", run.toString(), "--figures", roomy.toString());
        assertEquals(0, withRoom.exitCode(), withRoom.err());
        long figure3 = Files.size(roomy.resolve("resources-figure3.png"));
        long figure4 = Files.size(roomy.resolve("resources-figure4.png"));
        // tmpfs counts 4 kB pages: Figure 3's pages and one more, fewer than Figure 4 needs on top
        long pages3 = (figure3 + 4095) / 4096;
        assertTrue(figure4 > 4096, "Figure 4 of " + figure4 + " bytes needs more than the one page left");
        try (SmallTmpfs full = SmallTmpfs.mount(dir.resolve("full"), (int) (4 * pages3 + 4))) {
            CliTestSupport.Result r = CliTestSupport.run("resources", run.toString(), "--figures", full.dir.toString());
            assertEquals(2, r.exitCode(), r.out() + r.err());
            assertTrue(r.err().strip().endsWith("queuelab: could not write " + full.dir.resolve("resources-figure4.png")
                    + ": No space left on device"), r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertFalse(r.out().contains("wrote"), r.out());
            assertEquals(List.of("resources-figure3.png (" + figure3 + " bytes)"), filesUnder(full.dir),
                    "Figure 3 whole, no Figure 4 cut short, no temporary file");
        }
    }

    /**
     * qos-read's outputs onto a disk that fills at its chart (its rounds' run directories, the CSV
     * and the table fit in the 40 kB, the PNG does not). Before: a PNG cut short, and "I/O error
     * writing PNG file!" without its name.
     */
    @Test
    @Timeout(300)
    void qosReadOntoAFullDiskLeavesEveryFileWholeOrAbsent() throws Exception {
        CliTestSupport.Result load = CliTestSupport.run("load", "--relation", "qos", "--scale", "0.001", "--schema", "1",
                "--embedded-dir", QOS_EMBEDDED_DIR);
        assertEquals(0, load.exitCode(), load.toString());
        String[] read = {"qos-read", "--queries", "Q1.1", "--clients", "1", "--rounds", "2", "--schemas", "1",
                "--embedded-dir", QOS_EMBEDDED_DIR, "--out"};
        // 40 kB: the two rounds' six small files and the CSV and table take a 4 kB page each, the 19 kB PNG does not fit
        try (SmallTmpfs full = SmallTmpfs.mount(dir.resolve("full"), 40)) {
            Path out = full.dir.resolve("reads");
            CliTestSupport.Result r = CliTestSupport.run(append(read, out.toString()));
            assertEquals(2, r.exitCode(), r.toString());
            assertTrue(r.err().strip().endsWith("queuelab: could not write " + out.resolve("reads-Q1.1.png") + ": No space left on device"),
                    r.err());
            List<String> files = filesUnder(full.dir);
            assertTrue(files.stream().noneMatch(f -> f.contains(".png") || f.contains(".tmp")), "no PNG cut short, no temporary file: " + files);
            assertTrue(files.stream().anyMatch(f -> f.startsWith("reads/reads.txt")), files.toString());
            assertTrue(Files.readString(out.resolve("reads.csv")).startsWith("case,"), Files.readString(out.resolve("reads.csv")));
        }
        // (a disk full before qos-read starts fails at its first round's run directory, as every run does)
    }

    private static String[] append(String[] args, String last) {
        String[] all = java.util.Arrays.copyOf(args, args.length + 1);
        all[args.length] = last;
        return all;
    }

    /**
     * The disk fills during a run (another file takes the space left once the run is under way):
     * the run stops, the console shows the totals and the verdict with the log's failure, and the
     * one-line error names the manifest that could not be written.
     */
    @Test
    void aDiskThatFillsDuringARunLeavesTheTotalsAndVerdictOnTheConsole() throws Exception {
        try (SmallTmpfs disk = SmallTmpfs.mount(dir.resolve("disk"), 1024)) {
            Path run = disk.dir.resolve("run");
            Thread filler = new Thread(() -> {
                try {
                    while (!Files.exists(run.resolve("requests.qlog"))) {
                        Thread.sleep(20);
                    }
                    Thread.sleep(1000);
                    try (var out = Files.newOutputStream(disk.dir.resolve("hog"))) {
                        byte[] block = new byte[4096];
                        while (true) {
                            out.write(block);
                        }
                    }
                } catch (IOException full) {
                    // the disk is full: that was the point
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            filler.start();
            CliTestSupport.Result r = CliTestSupport.run("run", "--backend", "mm1", "--mu", "5000", "--rate", "1000",
                    "--duration", "4s", "--report-interval", "0", "--out", run.toString());
            filler.join(10_000);
            assertEquals(2, r.exitCode(), r.out() + r.err());
            String err = r.err().strip();
            String last = err.substring(err.lastIndexOf('\n') + 1);
            assertTrue(last.startsWith("queuelab: could not write " + run.resolve("manifest.json") + ": No space left on device: "
                    + "the totals and the verdict above are not saved"), err);
            assertTrue(r.out().contains("the request log could not be written (" + run.resolve("requests.qlog")
                    + ": No space left on device)"), r.out());
            assertTrue(r.out().contains("verdict: "), r.out());
            assertTrue(r.out().contains(" scheduled "), "the totals: " + r.out());
            assertFalse(Files.exists(run.resolve("manifest.json.tmp")), "no manifest cut short");
        }
    }
}
