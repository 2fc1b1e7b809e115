package io.queuelab.reports.fit;

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
 * from java.util.Random. It writes a plain CSV request log with a sent column (docs/csv-logs.md).
 */
final class ClientServerGroundTruth {
    static final double MEAN_DEMAND = 0.002;

    private ClientServerGroundTruth() {
    }

    static double demand(Random random) {
        return random.nextDouble() < 0.8 ? 0.0005 + 0.001 * random.nextDouble() : 0.004 + 0.004 * random.nextDouble();
    }

    /**
     * Simulates {@code requests} Poisson arrivals at {@code lambda}/s (the first {@code warmup}
     * flagged as warm-up) and writes the log to {@code file}.
     */
    static Path write(Path file, double lambda, int connections, int cores, int requests, int warmup, long seed) throws IOException {
        Random random = new Random(seed);
        double[] arrival = new double[requests];
        double[] sent = new double[requests];
        double[] completed = new double[requests];
        double t = 0;
        for (int i = 0; i < requests; i++) {
            t += -Math.log(1 - random.nextDouble()) / lambda;
            arrival[i] = t;
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
            double nextArrival = next < requests ? arrival[next] : Double.POSITIVE_INFINITY;
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
                if (!queue.isEmpty()) {
                    int r = queue.poll();
                    inside[n] = r;
                    remaining[n] = demand(random);
                    sent[r] = now;
                    n++;
                }
            }
        }
        try (BufferedWriter out = Files.newBufferedWriter(file)) {
            out.write("scheduled_ns,sent_ns,completed_ns,warmup\n");
            for (int i = 0; i < requests; i++) {
                out.write(Math.round(arrival[i] * 1e9) + "," + Math.round(sent[i] * 1e9) + "," + Math.round(completed[i] * 1e9) + ","
                        + (i < warmup ? 1 : 0) + "\n");
            }
        }
        return file;
    }
}
