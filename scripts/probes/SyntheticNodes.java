import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queuelab.core.log.LogFormat;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.log.RequestLogWriter;
import io.queuelab.core.log.RunDirectory;

import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * K synthetic node run directories of one distributed run, for measuring 'queuelab merge' at scale
 * (scripts/bench-merge): node i logs a Poisson stream at RATE/K for SECONDS (its own seed), each
 * request served in 200 us, with a clock measured against a reference (offsets of a few ms, drifting),
 * as 'queuelab run --node-index i --node-count K --clock-reference' would write it.
 *   java -cp cli/target/queuelab.jar scripts/probes/SyntheticNodes.java DIR K RATE SECONDS
 */
public class SyntheticNodes {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int k = Integer.parseInt(args[1]);
        double rate = Double.parseDouble(args[2]);
        double seconds = Double.parseDouble(args[3]);
        long anchor = 1_800_000_000_000_000_000L;
        long start = 50_000_000L;
        long end = start + (long) (seconds * 1e9);
        long service = 200_000;
        long total = 0;
        for (int i = 0; i < k; i++) {
            SplittableRandom random = new SplittableRandom(1000 + i);
            RunDirectory run = RunDirectory.create(dir.resolve("node-" + i));
            long records = 0;
            double nodeRate = rate / k;
            try (RequestLogWriter log = RequestLogWriter.create(run.log(), anchor)) {
                log.defineOperation(0, "select");
                for (double t = start - Math.log(1 - random.nextDouble()) / nodeRate * 1e9; t < end;
                     t += -Math.log(1 - random.nextDouble()) / nodeRate * 1e9) {
                    long at = (long) t;
                    log.append(at, at, at + 1_000, at + 1_000 + service, i, 0, 0, LogFormat.OK, 0, 0);
                    records++;
                }
            }
            total += records;
            Manifest m = Manifest.create("measured");
            ObjectNode config = m.section("config");
            config.put("loop", "open").put("arrivals", "poisson").put("seed", 1000 + i);
            config.putArray("phases").addObject().put("name", "main").put("durationSeconds", seconds)
                    .put("rate", nodeRate).put("warmup", false);
            m.section("node").put("index", i).put("count", k);
            m.section("host").put("name", "synthetic-" + i);
            m.section("start").put("anchorEpochNanos", anchor).put("scheduleStartNanos", start);
            ArrayNode ops = m.section("backend").put("kind", "sync").putArray("operations");
            ops.addObject().put("name", "select").put("probability", 1.0);
            m.section("totals").put("scheduled", records).put("ok", records).put("errors", 0)
                    .put("dropped", 0).put("unfinished", 0).putObject("errorsByClass");
            ObjectNode check = m.section("selfCheck");
            check.put("openLoop", true).put("lagP50Nanos", 1000).put("lagP99Nanos", 5000).put("cpuSeconds", 0.5)
                    .put("gcPauseSeconds", 0.0).put("gcCount", 0);
            check.putArray("phases").addObject().put("achievedRate", records / seconds);
            check.putArray("failures");
            check.put("verdict", "the generator kept up");
            long offset = (i % 7 - 3) * 1_000_000L;
            ObjectNode clock = m.section("clock").put("reference", "10.0.0.1:7471");
            clock.putObject("start").put("offsetNanos", offset).put("uncertaintyNanos", 40_000).put("atNanos", 0).put("exchanges", 64);
            clock.putObject("end").put("offsetNanos", offset + (long) (seconds * 20_000)).put("uncertaintyNanos", 40_000)
                    .put("atNanos", end + service).put("exchanges", 64);
            m.section("end").put("epochNanos", anchor + end + service);
            m.markComplete();
            m.write(run.path());
        }
        System.out.println(k + " nodes, " + total + " records in " + dir);
    }
}
