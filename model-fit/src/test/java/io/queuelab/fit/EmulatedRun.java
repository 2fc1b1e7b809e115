package io.queuelab.fit;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogWriter;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.manifest.BackendInfo;
import io.queuelab.core.manifest.HostInfo;
import io.queuelab.core.manifest.LoadConfig;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.RunNode;
import io.queuelab.core.manifest.ScheduleStart;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * One run of a ground-truth emulation written in test code apart from model-sim: every request's
 * intended instant, the instant it took a connection (sent) and its completion, in seconds from
 * the schedule's start, in the order the requests were issued. It is written as {@code queuelab
 * run} writes a run directory (request log and manifest, an open run at a rate or a closed one of
 * N jobs), and it reduces itself to the figures a prediction is judged by (the exact mean and the
 * sorted p99 of the requests after its warm-up), with nothing of the fit library's.
 */
record EmulatedRun(double[] intended, double[] sent, double[] completed) {
    int requests() {
        return intended.length;
    }

    /** The response times (completed - intended) of the requests after the first {@code warmup}, seconds. */
    double[] responses(int warmup) {
        double[] r = new double[requests() - warmup];
        for (int i = warmup; i < requests(); i++) {
            r[i - warmup] = completed[i] - intended[i];
        }
        return r;
    }

    /** The mean response time after the warm-up, seconds. */
    double meanResponse(int warmup) {
        return Arrays.stream(responses(warmup)).average().orElseThrow();
    }

    /** The {@code q} quantile of the response times after the warm-up (the ceil(q n)-th smallest), seconds. */
    double quantile(int warmup, double q) {
        double[] r = responses(warmup);
        Arrays.sort(r);
        return r[Math.max(0, (int) Math.ceil(q * r.length) - 1)];
    }

    /** Completions a second between the warm-up's end and the last completion. */
    double throughput(int warmup) {
        double first = Arrays.stream(completed, 0, warmup + 1).max().orElseThrow();
        double last = Arrays.stream(completed).max().orElseThrow();
        return (requests() - warmup - 1) / (last - first);
    }

    /**
     * This run as a run directory (request log and manifest) of an open run at {@code lambda} with
     * {@code connections} synchronous workers, or, with {@code jobs} > 0, of a closed run of that
     * many jobs, on a host of {@code cores} cores; the first {@code warmup} requests flagged as warm-up.
     */
    Path write(Path dir, double lambda, int jobs, int connections, int cores, int warmup, long seed) throws IOException {
        return write(dir, lambda, jobs, connections, cores, warmup, seed, "select");
    }

    /** As {@link #write(Path, double, int, int, int, int, long)}, the one operation named {@code operation}. */
    Path write(Path dir, double lambda, int jobs, int connections, int cores, int warmup, long seed, String operation) throws IOException {
        RunDirectory run = RunDirectory.create(dir);
        long offset = 1_000_000_000L; // the schedule starts 1 s after the anchor
        try (RequestLogWriter log = RequestLogWriter.create(run.log(), ANCHOR_EPOCH_NANOS)) {
            log.defineOperation(0, operation);
            for (int i = 0; i < requests(); i++) {
                long sentNanos = offset + Math.round(sent[i] * 1e9);
                log.append(offset + Math.round(intended[i] * 1e9), sentNanos, sentNanos, offset + Math.round(completed[i] * 1e9), 0, 0, 0,
                        LogFormat.OK, 0, i < warmup ? LogFormat.FLAG_WARMUP : 0);
            }
        }
        double seconds = lastCompletion();
        LoadConfig.PhaseConfig phase = jobs > 0 ? new LoadConfig.PhaseConfig("main", seconds, jobs, null, false)
                : new LoadConfig.PhaseConfig("main", seconds, null, lambda, false);
        Manifest.create(Manifest.MEASURED)
                .config(new LoadConfig(jobs > 0 ? "closed" : "open", "poisson", 0, null, List.of(phase), connections, 100_000, 128,
                        seed, 0, 0, null))
                .node(RunNode.single(0, 1))
                .host(new HostInfo("ground-truth", null, cores))
                .start(new ScheduleStart(ANCHOR_EPOCH_NANOS, offset, null))
                .backend(new BackendInfo("sync", List.of(new BackendInfo.Operation(operation, 1.0)), null))
                .write(run.path());
        return dir;
    }

    /** The instant the run's last request completed, seconds from the schedule's start. */
    double lastCompletion() {
        return Arrays.stream(completed).max().orElseThrow();
    }

    /**
     * The requests issued before the emulation starts: an open run's every intended instant, drawn
     * from {@code random} as a Poisson stream of {@code lambda} a second (returns {@code intended}'s
     * length); a closed run's {@code jobs} first requests, all at 0 (returns how many).
     */
    static int issueAtStart(java.util.Random random, double lambda, int jobs, double[] intended) {
        if (jobs > 0) {
            return Math.min(jobs, intended.length);
        }
        double t = 0;
        for (int i = 0; i < intended.length; i++) {
            t += -Math.log(1 - random.nextDouble()) / lambda;
            intended[i] = t;
        }
        return intended.length;
    }

    /**
     * A java.util.Random stream for an emulation's {@code seed}, seeded through SplitMix64's
     * finalizer: Random's first draws for nearby seeds are nearly equal, so replications seeded
     * 10, 11, 12 ... would not be independent.
     */
    static java.util.Random random(long seed) {
        long z = seed + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return new java.util.Random(z ^ (z >>> 31));
    }

    /** The epoch instant a written run's schedule is anchored at (its start is 1 s after it). */
    static final long ANCHOR_EPOCH_NANOS = 1_800_000_000_000_000_000L;
}
