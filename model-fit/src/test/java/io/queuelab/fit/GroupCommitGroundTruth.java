package io.queuelab.fit;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Ground truth for the group-commit model, written apart from model-sim's
 * {@code GroupCommitServer} (virtual time, a heap of finishing tags, slots): a direct event loop
 * over the K connections, each holding at most one request in one phase, with every request's
 * remaining cpu decremented at every event (O(K) an event), as {@link ClientServerGroundTruth}
 * does for processor sharing. A request waits in the client's FIFO queue for a connection, runs its
 * cpu on c cores shared by those running (each of n gets min(1, c/n)), then waits for the log: one
 * flush at a time, carrying every commit waiting when it starts and lasting a drawn fixed part plus
 * {@code perCommit} a commit; when it ends its commits are answered and free their connections.
 * The constant latency outside the server is either spent before the request reaches the client's
 * queue (where the model places it) or, as on a real server, half on the way there and half back
 * while the request holds its connection. It counts what the server's counters would: the cpu
 * drawn and the flushes (fsyncs) done.
 */
final class GroupCommitGroundTruth {
    interface Duration {
        double draw(Random random);
    }

    /**
     * @param latency                the time outside the server, seconds
     * @param latencyHoldsConnection whether the latency is spent holding the connection (half each way), not before it
     */
    record Server(Duration cpu, int connections, int cores, Duration flush, double perCommit, double latency,
                  boolean latencyHoldsConnection) {
        /** The latency spent on each way while the request holds its connection. */
        double eachWay() {
            return latencyHoldsConnection ? latency / 2 : 0;
        }

        /** The latency spent before the request reaches the client's queue. */
        double beforeQueue() {
            return latencyHoldsConnection ? 0 : latency;
        }
    }

    /** A run and the server's counters over it. */
    record Run(EmulatedRun requests, double cpuSeconds, long flushes) {
        /** The run directory with the counters beside its log (an open run at {@code lambda}, or closed with {@code jobs}). */
        Path write(Path dir, double lambda, int jobs, Server server, int warmup) throws IOException {
            requests.write(dir, lambda, jobs, jobs > 0 ? jobs : server.connections(), server.cores(), warmup, 0);
            ServerCounters.write(dir, cpuSeconds, requests.requests(), flushes, requests.lastCompletion());
            return dir;
        }

        double commitsPerFlush() {
            return (double) requests.requests() / flushes;
        }
    }

    private GroupCommitGroundTruth() {
    }

    static Run open(Server server, double lambda, int requests, long seed) {
        return run(server, lambda, 0, requests, seed);
    }

    static Run closed(Server server, int jobs, int requests, long seed) {
        return run(server, 0, jobs, requests, seed);
    }

    private static final int IDLE = 0, TO_SERVER = 1, CPU = 2, COMMITTING = 3, BACK = 4;

    private static Run run(Server server, double lambda, int jobs, int requests, long seed) {
        Random random = EmulatedRun.random(seed);
        int k = jobs > 0 ? jobs : server.connections();
        double[] intended = new double[requests];
        double[] sent = new double[requests];
        double[] completed = new double[requests];
        int issued = EmulatedRun.issueAtStart(random, lambda, jobs, intended);
        int[] phase = new int[k];           // of each connection's request
        int[] request = new int[k];
        double[] until = new double[k];     // end of TO_SERVER or BACK
        double[] remaining = new double[k]; // cpu left in CPU
        ArrayDeque<Integer> clientQueue = new ArrayDeque<>();
        List<Integer> waitingForFlush = new ArrayList<>(); // connections
        List<Integer> inFlush = new ArrayList<>();
        double flushEnd = Double.POSITIVE_INFINITY;
        double cpuSeconds = 0;
        long flushes = 0;
        int next = 0;
        int done = 0;
        double now = 0;
        while (done < requests) {
            int running = 0;
            for (int c = 0; c < k; c++) {
                running += phase[c] == CPU ? 1 : 0;
            }
            double rate = running <= server.cores() ? 1.0 : (double) server.cores() / running;
            // the next event: an arrival, a phase's end on some connection, or the flush's end
            double when = next < issued ? intended[next] + server.beforeQueue() : Double.POSITIVE_INFINITY;
            int who = -1;
            for (int c = 0; c < k; c++) {
                double end = phase[c] == CPU ? now + remaining[c] / rate : phase[c] == TO_SERVER || phase[c] == BACK ? until[c]
                        : Double.POSITIVE_INFINITY;
                if (end < when) {
                    when = end;
                    who = c;
                }
            }
            boolean flushEnds = flushEnd <= when;
            if (flushEnds) {
                when = flushEnd;
                who = -1;
            }
            for (int c = 0; c < k; c++) {
                if (phase[c] == CPU) {
                    remaining[c] -= (when - now) * rate;
                }
            }
            now = when;
            if (flushEnds) {
                for (int c : inFlush) {
                    phase[c] = BACK;
                    until[c] = now + server.eachWay();
                }
                inFlush.clear();
                flushEnd = Double.POSITIVE_INFINITY;
            } else if (who < 0) { // an arrival
                int free = freeConnection(phase);
                if (free >= 0) {
                    connect(free, next, now, server, phase, request, until, sent);
                } else {
                    clientQueue.add(next);
                }
                next++;
            } else if (phase[who] == TO_SERVER) {
                phase[who] = CPU;
                double cpu = server.cpu().draw(random);
                cpuSeconds += cpu;
                remaining[who] = cpu;
            } else if (phase[who] == CPU) {
                phase[who] = COMMITTING;
                waitingForFlush.add(who);
            } else { // BACK: answered
                completed[request[who]] = now;
                done++;
                phase[who] = IDLE;
                if (jobs > 0 && issued < requests) {
                    intended[issued++] = now; // the job's next request, at once, on its own connection
                }
                if (!clientQueue.isEmpty()) {
                    connect(who, clientQueue.poll(), now, server, phase, request, until, sent);
                }
            }
            if (flushEnd == Double.POSITIVE_INFINITY && !waitingForFlush.isEmpty()) {
                inFlush.addAll(waitingForFlush);
                waitingForFlush.clear();
                flushEnd = now + server.flush().draw(random) + server.perCommit() * inFlush.size();
                flushes++;
            }
        }
        return new Run(new EmulatedRun(intended, sent, completed), cpuSeconds, flushes);
    }

    private static int freeConnection(int[] phase) {
        for (int c = 0; c < phase.length; c++) {
            if (phase[c] == IDLE) {
                return c;
            }
        }
        return -1;
    }

    /** Request {@code r} takes connection {@code c} at {@code now} and sets out for the server. */
    private static void connect(int c, int r, double now, Server server, int[] phase, int[] request, double[] until, double[] sent) {
        phase[c] = TO_SERVER;
        request[c] = r;
        sent[r] = now;
        until[c] = now + server.eachWay();
    }
}
