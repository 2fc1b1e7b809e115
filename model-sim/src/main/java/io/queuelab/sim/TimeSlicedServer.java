package io.queuelab.sim;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A server of c cores that the operating system time-slices among the requests holding a
 * connection: a FIFO client queue in front of K connections; the requests holding one wait in a
 * FIFO run queue for a core, run on it for at most one slice, and go back to the tail of the run
 * queue (behind every request that became ready during their slice) while work remains. Each
 * slice's length is exponential with the model's mean slice: a scheduler preempts at instants (its
 * ticks, other threads' wake-ups) not in step with the requests, and a fixed slice would make a
 * demand just over it wait a whole round for its small remainder, which no measured server showed.
 * A mean slice far longer than every demand is FCFS on c cores; one tending to 0 is processor
 * sharing. Between the two lies a real server's scheduler, whose slice (Linux EEVDF's base slice,
 * 0.75 ms times 1 + log2 of the cpus) is about as long as a short query's demand: a request that
 * finds the core busy waits for the current slice, not only for a share of the core.
 *
 * <p>A core whose run queue is empty when its slice ends keeps its request (no switch). The log's
 * {@code sent} is the instant a request took a connection.
 */
final class TimeSlicedServer {
    private final Engine.ProcessorSharing demands; // draws each demand (and its profile's factor)
    private final int connections;
    private final int cores;
    private final double slice;
    private final SplittableRandom serviceRandom;
    private final SplittableRandom sliceRandom; // its own stream: every slice draws the same demands (common random numbers)
    private final ReplicationStatistics statistics;

    // the requests holding a connection, by slot: arrival and sent, and beside them the remaining demand
    private final RequestSlots slots = new RequestSlots();
    private double[] remaining = new double[64];

    // the run queue (slots) and the client's queue (arrival instants)
    private final DoubleFifo ready = new DoubleFifo();
    private final DoubleFifo waiting = new DoubleFifo();

    // each core's request (-1: idle) and the instant its slice ends
    private final int[] running;
    private final double[] sliceEnd;
    private final double[] sliceLength;
    private final boolean[] lastSlice; // the slice ends the request's demand (no rounding decides it)

    TimeSlicedServer(Engine.ProcessorSharing server, Streams streams, ReplicationStatistics statistics) {
        demands = server;
        connections = server.capacity;
        cores = server.cores;
        slice = server.slice;
        serviceRandom = streams.service();
        sliceRandom = streams.slices();
        this.statistics = statistics;
        running = new int[cores];
        Arrays.fill(running, -1);
        sliceEnd = new double[cores];
        sliceLength = new double[cores];
        lastSlice = new boolean[cores];
    }

    void run(ArrivalSource arrivals) {
        int holding = 0; // requests holding a connection
        while (true) {
            int core = -1;
            double nextEnd = Double.POSITIVE_INFINITY;
            for (int i = 0; i < cores; i++) {
                if (running[i] >= 0 && sliceEnd[i] < nextEnd) {
                    nextEnd = sliceEnd[i];
                    core = i;
                }
            }
            double nextArrival = arrivals.peek();
            if (nextArrival == ArrivalSource.END && holding == 0) {
                return; // nothing waits in the client's queue while a connection is free
            }
            if (nextArrival < nextEnd) {
                arrivals.next();
                if (holding < connections) {
                    take(nextArrival, nextArrival);
                    holding++;
                    dispatch(nextArrival);
                } else {
                    waiting.add(nextArrival);
                }
                continue;
            }
            double t = nextEnd;
            int slot = running[core];
            remaining[slot] = Math.max(0, remaining[slot] - sliceLength[core]); // the length drawn, not t - start, which rounds
            running[core] = -1;
            if (!lastSlice[core]) {
                ready.add(slot); // behind every request that became ready during its slice
            } else {
                double a = slots.arrival(slot), s = slots.sent(slot);
                slots.release(slot);
                holding--;
                if (!waiting.isEmpty()) {
                    take(waiting.poll(), t); // the freed connection goes to the oldest waiting request
                    holding++;
                }
                statistics.answered(a, s, t);
                arrivals.answered(t);
            }
            dispatch(t);
        }
    }

    /** Gives every idle core the head of the run queue, for one slice. */
    private void dispatch(double t) {
        for (int i = 0; i < cores && !ready.isEmpty(); i++) {
            if (running[i] < 0) {
                int slot = (int) ready.poll();
                running[i] = slot;
                double length = slice * sliceRandom.nextExponential(); // the ziggurat, as Distribution.Exponential's
                lastSlice[i] = remaining[slot] <= length;
                sliceLength[i] = lastSlice[i] ? remaining[slot] : length;
                sliceEnd[i] = t + sliceLength[i];
            }
        }
    }

    /** A request takes a connection at {@code t} and joins the run queue with its demand. */
    private void take(double arrivedAt, double t) {
        int slot = slots.take(arrivedAt, t);
        if (remaining.length < slots.capacity()) {
            remaining = Arrays.copyOf(remaining, slots.capacity());
        }
        remaining[slot] = demands.demand(serviceRandom, t);
        ready.add(slot);
    }
}
