package io.queuelab.fit;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Random;

/**
 * Ground truth for the time-sliced server ({@code client-slice}), written apart from model-sim's
 * event-driven {@code TimeSlicedServer}: a time-stepped emulation. A FIFO client queue in front of
 * K connections; the requests holding one wait in a FIFO run queue for one of c cores. Time moves
 * in steps of at most {@link #STEP} (cut short at the next arrival, so arrivals are exact); in a
 * step every core works off its request's remaining demand, and a request that finishes inside the
 * step completes at that instant and hands its core on at once (to the head of the run queue, after
 * its connection went to the oldest waiting request). At the end of a step each core's request is
 * preempted with probability 1 - exp(-ran / s), ran its time on the core in the step: slices of
 * mean s without memory, as the model's exponential slices, but ending on the steps' grid. A
 * preempted request goes to the run queue's tail, behind everything that became ready in the step,
 * and only if something waits there (else it keeps its core).
 *
 * <p>With fixed slices a step is also cut short where a core's slice ends, and a request that has
 * run a whole slice is preempted there if something waits (else it starts its next slice):
 * model-sim's {@code client-slice} with {@code sliceFixedSeconds} equal to the slice.
 *
 * <p>Guarantee: as STEP tends to 0 this is the system model-sim's {@code client-slice} describes,
 * reached by another algorithm (no event list, no slice drawn in advance) and other random streams
 * (java.util.Random); the steps' only error is that a slice ends up to one step late.
 */
final class TimeSlicedGroundTruth {
    /** The step, seconds: a slice ends at most this late (half a percent of a 2 ms slice on average). */
    static final double STEP = 20e-6;

    /** A request's demand on one core, seconds. */
    interface Demand {
        double draw(Random random);
    }

    /**
     * The emulated server.
     *
     * @param slice the slices' mean length, seconds (infinite: no preemption, FCFS on the cores)
     * @param fixed every slice exactly {@code slice} long: a request that has run that long in its
     *              slice is preempted if something waits, else starts its next
     */
    record Server(Demand demand, int connections, int cores, double slice, boolean fixed) {
        /** Slices of random length (no memory). */
        Server(Demand demand, int connections, int cores, double slice) {
            this(demand, connections, cores, slice, false);
        }
    }

    private TimeSlicedGroundTruth() {
    }

    /** {@code requests} Poisson arrivals at {@code lambda}/s. */
    static EmulatedRun open(Server server, double lambda, int requests, long seed) {
        return run(server, lambda, 0, requests, seed);
    }

    /** {@code jobs} jobs, each issuing its next request the instant its last completes, until {@code requests} were issued. */
    static EmulatedRun closed(Server server, int jobs, int requests, long seed) {
        return run(server, 0, jobs, requests, seed);
    }

    private static EmulatedRun run(Server server, double lambda, int jobs, int requests, long seed) {
        Random random = EmulatedRun.random(seed);           // arrivals and demands
        Random preemptions = EmulatedRun.random(~seed);     // the slices' ends
        double[] intended = new double[requests];
        double[] sent = new double[requests];
        double[] completed = new double[requests];
        double[] remaining = new double[requests];
        int issued = EmulatedRun.issueAtStart(random, lambda, jobs, intended);
        ArrayDeque<Integer> clientQueue = new ArrayDeque<>();
        ArrayDeque<Integer> runQueue = new ArrayDeque<>();
        int[] onCore = new int[server.cores()];
        Arrays.fill(onCore, -1);
        double[] ran = new double[server.cores()];
        double[] inSlice = new double[server.cores()]; // fixed slices: the time the core's request has run in its slice
        double preemptedInAStep = 1 - Math.exp(-STEP / server.slice());
        int holding = 0;
        int admitted = 0; // requests issued and past the client's door (holding a connection or queued for one)
        int done = 0;
        double now = 0;
        while (done < requests) {
            if (holding == 0) {
                now = Math.max(now, intended[admitted]); // nothing inside: on to the next arrival
            }
            for (; admitted < issued && intended[admitted] <= now; admitted++) {
                if (holding < server.connections()) {
                    holding++;
                    take(admitted, intended[admitted], sent, remaining, runQueue, server, random);
                } else {
                    clientQueue.add(admitted);
                }
            }
            // the last step's slices end behind the requests that became ready in it (the arrivals just admitted included)
            for (int c = 0; c < onCore.length; c++) {
                if (server.fixed() && onCore[c] >= 0) {
                    inSlice[c] += ran[c];
                    if (inSlice[c] >= server.slice()) {
                        if (runQueue.isEmpty()) {
                            inSlice[c] -= server.slice(); // nobody waits: its next slice
                        } else {
                            runQueue.add(onCore[c]);
                            onCore[c] = -1;
                        }
                    }
                } else if (onCore[c] >= 0 && ran[c] > 0 && !runQueue.isEmpty() && preemptions.nextDouble()
                        < (ran[c] == STEP ? preemptedInAStep : 1 - Math.exp(-ran[c] / server.slice()))) {
                    runQueue.add(onCore[c]);
                    onCore[c] = -1;
                }
            }
            for (int c = 0; c < onCore.length; c++) {
                if (onCore[c] < 0 && !runQueue.isEmpty()) {
                    onCore[c] = runQueue.poll();
                    inSlice[c] = 0;
                }
            }
            double step = Math.min(STEP, (admitted < issued ? intended[admitted] : Double.POSITIVE_INFINITY) - now);
            if (server.fixed()) {
                for (int c = 0; c < onCore.length; c++) {
                    if (onCore[c] >= 0) {
                        step = Math.min(step, Math.max(1e-12, server.slice() - inSlice[c])); // a slice ends on a step's end, exactly
                    }
                }
            }
            for (int c = 0; c < onCore.length; c++) {
                double budget = step;
                ran[c] = 0;
                while (onCore[c] >= 0 && budget > 0) {
                    int r = onCore[c];
                    if (remaining[r] > budget) {
                        remaining[r] -= budget;
                        ran[c] += budget;
                        budget = 0;
                    } else {
                        budget -= remaining[r];
                        remaining[r] = 0;
                        double at = now + (step - budget);
                        completed[r] = at;
                        done++;
                        holding--;
                        if (jobs > 0 && issued < requests) {
                            intended[issued++] = at; // the job's next request, at once (it holds a connection of its own)
                        }
                        if (!clientQueue.isEmpty()) {
                            holding++;
                            take(clientQueue.poll(), at, sent, remaining, runQueue, server, random);
                        }
                        onCore[c] = runQueue.isEmpty() ? -1 : runQueue.poll();
                        ran[c] = 0;
                        inSlice[c] = 0;
                    }
                }
            }
            now += step;
        }
        return new EmulatedRun(intended, sent, completed);
    }

    /** Request {@code r} takes a connection at {@code at} and joins the run queue with its demand. */
    private static void take(int r, double at, double[] sent, double[] remaining, ArrayDeque<Integer> runQueue, Server server, Random random) {
        sent[r] = at;
        remaining[r] = server.demand().draw(random);
        runQueue.add(r);
    }
}
