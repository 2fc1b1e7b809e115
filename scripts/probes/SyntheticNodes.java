import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogWriter;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.manifest.BackendInfo;
import io.queuelab.core.manifest.ClockAnchor;
import io.queuelab.core.manifest.HostInfo;
import io.queuelab.core.manifest.LoadConfig;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.RunEnd;
import io.queuelab.core.manifest.RunNode;
import io.queuelab.core.manifest.ScheduleStart;
import io.queuelab.core.run.LogTotals;
import io.queuelab.core.run.SelfCheck;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
            long offset = (i % 7 - 3) * 1_000_000L;
            Manifest m = Manifest.create(Manifest.MEASURED)
                    .config(new LoadConfig("open", "poisson", 0, null,
                            List.of(new LoadConfig.PhaseConfig("main", seconds, null, nodeRate, false)), 1, 1, 1,
                            1000L + i, 0, 0, null))
                    .node(RunNode.single(i, k))
                    .host(new HostInfo("synthetic-" + i, null, 0))
                    .start(new ScheduleStart(anchor, start, null))
                    .backend(new BackendInfo("sync", List.of(new BackendInfo.Operation("select", 1.0)), null))
                    .totals(new LogTotals(records, records, 0, 0, 0, Map.of()))
                    .selfCheck(new SelfCheck(true, List.of(new SelfCheck.PhaseCheck("main", false, nodeRate, records, 0,
                            records / seconds, Double.NaN, Double.NaN, 0)), 1000, 5000, 0, 0, 0, 0, 0.5, 0, 0, 0, List.of(),
                            "the generator kept up", 0, 0, 0, 0, List.of()))
                    .clock(new ClockAnchor("10.0.0.1:7471", new ClockAnchor.Measurement(offset, 40_000L, 0L, 64, null),
                            new ClockAnchor.Measurement(offset + (long) (seconds * 20_000), 40_000L, end + service, 64, null)))
                    .end(RunEnd.at(anchor + end + service));
            m.markComplete();
            m.write(run.path());
        }
        System.out.println(k + " nodes, " + total + " records in " + dir);
    }
}
