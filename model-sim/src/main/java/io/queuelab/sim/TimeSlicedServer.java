package io.queuelab.sim;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A server of c cores that the operating system time-slices among the requests holding a
 * connection: a FIFO client queue in front of K connections; the requests holding one wait in a
 * FIFO run queue for a core, run on it for at most one slice, and go back to the tail of the run
 * queue (behind every request that became ready during their slice) while work remains. A slice
 * is a fixed part (0 by default) and an exponential rest, of the model's mean slice in all: a
 * scheduler gives a thread a slice of its own (Linux EEVDF's base slice, 0.75 ms times 1 + log2 of
 * the cpus) and preempts it at the first instant after that at which it looks (its ticks, other
 * threads' wake-ups), not in step with the requests. A demand just over the fixed part waits a
 * whole round for its remainder, as the closed runs of demo q's server showed (docs/experiments.md,
 * "What scheduler the closed runs show"). A mean slice far longer than every demand is FCFS on c
 * cores; one tending to 0 is processor sharing. Between the two lies a real server's scheduler,
 * whose slice is about as long as a short query's demand: a request that finds the core busy waits
 * for the current slice, not only for a share of the core.
 *
 * <p>A request that takes a connection goes to the run queue's head instead of its tail with the
 * model's cut-in probability (0 by default): the thread of a connection woken by its request may
 * run before those waiting, as EEVDF places a woken thread by the lag it kept.
 *
 * <p>A core whose run queue is empty when its slice ends keeps its request (no switch). The log's
 * {@code sent} is the instant a request took a connection.
 *
 * <p>A slice is drawn only while someone waits for a core. A slice that ends with the run queue
 * empty changes nothing (the request runs on into its next slice), so a request that takes a core
 * with nobody waiting runs to the end of its demand ("unarmed"), and when a request becomes ready
 * every busy core that runs unarmed finds the end of the slice it is in ("arms"): for exponential
 * slices the slice ends are a Poisson stream that no other event changes, so that end is the
 * instant plus a fresh slice; with a fixed part, the slices since the core took its request are
 * drawn back to back up to the instant. The same server in law as one that draws every slice, with
 * an event a slice only under contention (CpuTimeProbe's client-slice: 2.98 events a request,
 * arrival included, where drawing every slice made 3.33).
 */
final class TimeSlicedServer {
    private final Engine.ProcessorSharing demands; // draws each demand (and its profile's factor)
    private final int connections;
    private final int cores;
    private final double slice;
    private final double sliceFixed;  // the fixed part of a slice: a slice is sliceFixed + Exp(slice - sliceFixed)
    private final double cutIn;       // the probability that a request taking a connection goes to the run queue's head
    private final SplittableRandom serviceRandom;
    private final SplittableRandom sliceRandom; // its own stream: every slice draws the same demands (common random numbers)
    private final ReplicationStatistics statistics;

    // the requests holding a connection, by slot: arrival and sent, and beside them the demand remaining at the start of
    // the stretch its core runs now (or, waiting, at its last slice's end)
    private final RequestSlots slots = new RequestSlots();
    private double[] remaining = new double[64];

    // the run queue (slots) and the client's queue (arrival instants)
    private final DoubleFifo ready = new DoubleFifo();
    private final DoubleFifo waiting = new DoubleFifo();

    // each core's request (-1: idle), the instant its stretch began, and the instant it ends (+infinity when idle): at a
    // slice's end if armed, else at the end of the request's demand
    private final int[] running;
    private final double[] since;
    private final double[] slicesFrom; // the instant the core's current run of slices began (it took its request, or a slice ended)
    private final double[] sliceEnd;
    private final double[] sliceLength;
    private final boolean[] lastSlice; // the stretch ends the request's demand (no rounding decides it)
    private final boolean[] armed;     // a slice was drawn for the stretch
    private int unarmed;               // busy cores running unarmed

    TimeSlicedServer(Engine.ProcessorSharing server, Streams streams, ReplicationStatistics statistics) {
        demands = server;
        connections = server.capacity;
        cores = server.cores;
        slice = server.slice;
        sliceFixed = server.sliceFixed;
        cutIn = server.cutIn;
        serviceRandom = streams.service();
        sliceRandom = streams.slices();
        this.statistics = statistics;
        running = new int[cores];
        Arrays.fill(running, -1);
        since = new double[cores];
        slicesFrom = new double[cores];
        sliceEnd = new double[cores];
        Arrays.fill(sliceEnd, Double.POSITIVE_INFINITY);
        sliceLength = new double[cores];
        lastSlice = new boolean[cores];
        armed = new boolean[cores];
    }

    /*
     * Invariant after every event: either the run queue is empty, or every core is busy and armed (a request waits, so
     * every core's slice is drawn). So a slice's end or a departure frees one core, which the head of the run queue takes
     * at once, and only an arrival can find cores idle or unarmed: the two frequent events need no scan of the cores.
     */
    void run(ArrivalSource arrivals) {
        int holding = 0; // requests holding a connection
        while (true) {
            int core = firstToEnd();
            double nextEnd = sliceEnd[core];
            double nextArrival = arrivals.peek();
            if (nextArrival == ArrivalSource.END && holding == 0) {
                return; // nothing waits in the client's queue while a connection is free
            }
            if (nextArrival < nextEnd) {
                arrivals.next();
                if (holding < connections) {
                    take(nextArrival, nextArrival, demands.demand(serviceRandom, nextArrival));
                    holding++;
                    arrived(nextArrival);
                } else {
                    waiting.add(nextArrival);
                }
                continue;
            }
            double t = nextEnd;
            int slot = running[core];
            if (!lastSlice[core]) {
                // a slice ended (it was armed): the request goes behind every request that became ready during it, and the
                // head of the run queue takes the core (itself if nobody waits: then it runs on, unarmed)
                remaining[slot] = Math.max(0, remaining[slot] - sliceLength[core]); // the length drawn, not t - start, which rounds
                if (!ready.isEmpty()) {
                    ready.add(slot);
                    slot = (int) ready.poll();
                }
                start(core, slot, t);
                continue;
            }
            // its demand is done
            if (!armed[core]) {
                unarmed--;
            }
            double a = slots.arrival(slot), s = slots.sent(slot);
            slots.release(slot);
            holding--;
            if (!waiting.isEmpty()) {
                take(waiting.poll(), t, demands.demand(serviceRandom, t)); // the freed connection goes to the oldest waiting request
                holding++;
            }
            if (ready.isEmpty()) {
                running[core] = -1;
                sliceEnd[core] = Double.POSITIVE_INFINITY;
            } else {
                start(core, (int) ready.poll(), t);
            }
            statistics.answered(a, s, t);
            arrivals.answered(t);
        }
    }

    /**
     * The core whose stretch ends first (the lowest of equals; +infinity if all are idle), found without a branch: which
     * core that is changes at random from one event to the next, and a branch on it was mispredicted about every other
     * time. The instants are 0 or more (or +infinity), whose bits order as the numbers do.
     */
    private int firstToEnd() {
        int first = 0;
        long firstBits = Double.doubleToRawLongBits(sliceEnd[0]);
        for (int i = 1; i < cores; i++) {
            long bits = Double.doubleToRawLongBits(sliceEnd[i]);
            long earlier = (bits - firstBits) >> 63; // all ones if core i ends strictly before the first so far, else 0
            firstBits += (bits - firstBits) & earlier;
            first += (i - first) & (int) earlier;
        }
        return first;
    }

    /** Core {@code i} runs {@code slot} from {@code t}: for one slice if others still wait, else to the end of its demand. */
    private void start(int i, int slot, double t) {
        running[i] = slot;
        since[i] = t;
        slicesFrom[i] = t;
        if (ready.isEmpty()) {
            runToTheEnd(i, t);
        } else {
            drawSlice(i, t, drawSliceLength());
        }
    }

    /**
     * A request took a connection and joined the run queue at {@code t}: an idle core takes it (there is one only if the
     * queue was empty), or, if every core is busy, every core that runs unarmed draws its slice from now.
     */
    private void arrived(double t) {
        for (int i = 0; i < cores; i++) {
            if (running[i] < 0) {
                running[i] = (int) ready.poll(); // the queue held only this request: it runs alone, unarmed
                since[i] = t;
                slicesFrom[i] = t;
                runToTheEnd(i, t);
                return;
            }
        }
        if (unarmed > 0) {
            for (int i = 0; i < cores; i++) {
                if (!armed[i]) {
                    int slot = running[i];
                    remaining[slot] = Math.max(0, remaining[slot] - (t - since[i])); // the work done in the stretch so far
                    since[i] = t;
                    drawSlice(i, t, sliceLeftAt(i, t));
                    unarmed--;
                }
            }
        }
    }

    /** Core {@code i}'s request runs, unarmed, until its demand ends. */
    private void runToTheEnd(int i, double t) {
        unarmed++; // it was idle or armed
        armed[i] = false;
        lastSlice[i] = true;
        sliceLength[i] = remaining[running[i]];
        sliceEnd[i] = t + sliceLength[i];
    }

    /** One slice's length: {@code sliceFixed} plus an exponential rest ({@code slice} on average); a fixed slice draws nothing. */
    private double drawSliceLength() {
        if (sliceFixed == slice) {
            return slice;
        }
        double rest = (slice - sliceFixed) * sliceRandom.nextExponential(); // the ziggurat, as Distribution.Exponential's
        return sliceFixed == 0 ? rest : sliceFixed + rest;
    }

    /**
     * What is left at {@code t} of the slice core {@code i} runs in, unarmed since {@link #slicesFrom}: its slices went on
     * back to back while nobody waited (a slice that ends with the run queue empty goes on), so the one {@code t} falls
     * in is found by drawing them from there. With exponential slices ({@code sliceFixed} 0) that is a fresh slice from
     * {@code t} in law, drawn as such (no loop).
     */
    private double sliceLeftAt(int i, double t) {
        if (sliceFixed == 0) {
            return drawSliceLength();
        }
        if (sliceFixed == slice) { // slices of one length: their ends are a grid from slicesFrom
            double end = slicesFrom[i] + slice * (Math.floor((t - slicesFrom[i]) / slice) + 1);
            return Math.max(end - t, 0);
        }
        double end = slicesFrom[i] + drawSliceLength();
        while (end <= t) {
            end += drawSliceLength();
        }
        return end - t;
    }

    /** Core {@code i}'s request runs for a slice of {@code length} from {@code t}, or less if its demand ends first. */
    private void drawSlice(int i, double t, double length) {
        int slot = running[i];
        armed[i] = true;
        lastSlice[i] = remaining[slot] <= length;
        sliceLength[i] = Math.min(remaining[slot], length); // the same, without a branch on a coin toss
        sliceEnd[i] = t + sliceLength[i];
    }

    /**
     * A request takes a connection at {@code t} and joins the run queue with its {@code demand} (drawn by the caller: see
     * SharedServer's note on inlining).
     */
    private void take(double arrivedAt, double t, double demand) {
        int slot = slots.take(arrivedAt, t);
        if (remaining.length < slots.capacity()) {
            growRemaining();
        }
        remaining[slot] = demand;
        if (cutIn > 0 && sliceRandom.nextDouble() < cutIn) {
            ready.addFirst(slot); // a woken request the scheduler runs before those waiting
        } else {
            ready.add(slot);
        }
    }

    private void growRemaining() {
        remaining = Arrays.copyOf(remaining, slots.capacity());
    }
}
