package io.queuelab.fit;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Random;

/**
 * Ground truth for the fits, written independently of model-sim: a direct event simulation of a
 * client queue in front of K connections to a server of c cores, each of the n requests inside
 * progressing at min(1, c/n), with a bimodal demand (80 % uniform on [0.5, 1.5] ms, 20 % uniform
 * on [4, 8] ms: mean 2 ms, far from exponential). Unlike model-sim's virtual-time server it keeps
 * every request's remaining work and decrements it at every event (O(K) an event), and it draws
 * from java.util.Random. Open runs (Poisson arrivals) or closed ones (N jobs, no think time, one
 * connection each), written as a plain CSV request log with a sent column (docs/csv-logs.md) or as
 * a run directory (request log and manifest) as {@code queuelab run} writes one.
 */
public final class ClientServerGroundTruth {
    public static final double MEAN_DEMAND = 0.002;

    private ClientServerGroundTruth() {
    }

    static double demand(Random random) {
        return random.nextDouble() < 0.8 ? 0.0005 + 0.001 * random.nextDouble() : 0.004 + 0.004 * random.nextDouble();
    }

    /** {@code requests} Poisson arrivals at {@code lambda}/s ({@code jobs} = 0), or {@code jobs} jobs each reissuing at once. */
    static EmulatedRun simulate(double lambda, int jobs, int connections, int cores, int requests, long seed) {
        Random random = new Random(seed);
        double[] arrival = new double[requests];
        double[] sent = new double[requests];
        double[] completed = new double[requests];
        int issued = 0;
        if (jobs == 0) {
            double t = 0;
            for (; issued < requests; issued++) {
                t += -Math.log(1 - random.nextDouble()) / lambda;
                arrival[issued] = t;
            }
        } else {
            for (; issued < Math.min(jobs, requests); issued++) {
                arrival[issued] = 0;
            }
        }
        int[] inside = new int[connections];     // request index of each request holding a connection
        double[] remaining = new double[connections];
        int n = 0;
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        int next = 0;
        double now = 0;
        int done = 0;
        while (done < requests) {
            double rate = n <= cores ? 1.0 : (double) cores / n;
            int first = -1;
            for (int j = 0; j < n; j++) {
                if (first < 0 || remaining[j] < remaining[first]) {
                    first = j;
                }
            }
            double departure = first < 0 ? Double.POSITIVE_INFINITY : now + remaining[first] / rate;
            double nextArrival = next < issued ? arrival[next] : Double.POSITIVE_INFINITY;
            double until = Math.min(departure, nextArrival);
            for (int j = 0; j < n; j++) {
                remaining[j] -= (until - now) * rate;
            }
            now = until;
            if (nextArrival <= departure) {
                if (n < connections) {
                    inside[n] = next;
                    remaining[n] = demand(random);
                    sent[next] = now;
                    n++;
                } else {
                    queue.add(next);
                }
                next++;
            } else {
                completed[inside[first]] = now;
                done++;
                inside[first] = inside[n - 1];
                remaining[first] = remaining[n - 1];
                n--;
                if (jobs > 0 && issued < requests) {
                    arrival[issued++] = now; // the job's next request, at once
                }
                if (!queue.isEmpty()) {
                    int r = queue.poll();
                    inside[n] = r;
                    remaining[n] = demand(random);
                    sent[r] = now;
                    n++;
                }
            }
        }
        return new EmulatedRun(arrival, sent, completed);
    }

    /** An open run as a CSV request log, the first {@code warmup} requests flagged as warm-up. */
    static Path writeCsv(Path file, double lambda, int connections, int cores, int requests, int warmup, long seed) throws IOException {
        EmulatedRun r = simulate(lambda, 0, connections, cores, requests, seed);
        try (BufferedWriter out = Files.newBufferedWriter(file)) {
            out.write("scheduled_ns,sent_ns,completed_ns,warmup\n");
            for (int i = 0; i < requests; i++) {
                out.write(Math.round(r.intended()[i] * 1e9) + "," + Math.round(r.sent()[i] * 1e9) + "," + Math.round(r.completed()[i] * 1e9)
                        + "," + (i < warmup ? 1 : 0) + "\n");
            }
        }
        return file;
    }

    /**
     * A run directory (request log and manifest) of an open run at {@code lambda} with
     * {@code connections} synchronous workers, or, with {@code jobs} > 0, of a closed run of that
     * many jobs; the first {@code warmup} requests flagged as warm-up.
     */
    public static Path writeRun(Path dir, double lambda, int jobs, int connections, int cores, int requests, int warmup, long seed)
            throws IOException {
        int k = jobs > 0 ? jobs : connections;
        return simulate(lambda, jobs, k, cores, requests, seed).write(dir, lambda, jobs, connections, cores, warmup, seed);
    }
}
