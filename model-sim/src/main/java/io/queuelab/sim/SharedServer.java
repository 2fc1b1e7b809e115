package io.queuelab.sim;

import java.util.SplittableRandom;

/**
 * A server shared by the requests inside it, simulated with virtual time: every request inside
 * progresses at the same rate r(n), so V advances at r(n) per second, a request that enters at
 * virtual time V with service S leaves when V reaches V + S, and the event list holds those
 * finishing tags; each event costs O(log n) and no request is rescheduled when n changes. Three
 * servers are this one with other rates and limits:
 * <ul>
 *   <li>processor sharing (M/M/1-PS): r(n) = 1/n, no limit;</li>
 *   <li>the load-dependent model: r(n) = speed(n)/n, an arrival beyond the capacity is refused;</li>
 *   <li>the client-limited system: r(n) = min(1, c/n) on c cores, and an arrival beyond the K
 *       connections waits in the client's FIFO queue for the next departure.</li>
 * </ul>
 * The log's {@code sent} is the instant a request entered (took a connection); for the first two
 * that is its arrival.
 *
 * <p>Inlining, here and in the other servers: HotSpot takes a helper the loop calls for every request (entering, the
 * statistics' {@code answered}) into the loop only if the helper's own compiled code is small ({@code InlineSmallCode},
 * 2,500 bytes); else it stays a call, and every call saves and restores each double the loop holds in a register. One
 * sample of the ziggurat alone compiles to about 1,000 bytes and a growing array's copy to hundreds more, so the helpers
 * called per request draw nothing (the loop draws and passes what it drew) and grow their arrays in methods of their own.
 */
final class SharedServer {
    private final Engine.ProcessorSharing demands; // draws each demand (and its profile's factor)
    private final int capacity;
    private final boolean queueWhenFull;
    private final ShareRates rates;        // r(n): speed(n)/n of the load-dependent model, else min(1, cores/n)
    private final SplittableRandom serviceRandom;
    private final ReplicationStatistics statistics;

    // (arrival, sent) of each request inside; the heap's value is the slot
    private final RequestSlots slots = new RequestSlots();

    // the client's FIFO queue of arrival instants
    private final DoubleFifo queue = new DoubleFifo();

    SharedServer(Engine.ProcessorSharing server, Streams streams, ReplicationStatistics statistics) {
        demands = server;
        capacity = server.capacity;
        queueWhenFull = server.queueWhenFull;
        var speed = server.speed;
        rates = speed != null ? new ShareRates(n -> speed.applyAsDouble(n) / n, capacity) : ShareRates.ofCores(server.cores, capacity);
        serviceRandom = streams.service();
        this.statistics = statistics;
    }

    void run(ArrivalSource arrivals) {
        FinishingTags tags = new FinishingTags();
        double t = 0;
        double v = 0;
        int n = 0;
        while (true) {
            double nextArrival = arrivals.peek();
            double nextDeparture = t + (tags.minTag() - v) * rates.inverse(n); // +infinity when empty
            if (nextArrival == ArrivalSource.END && n == 0) {
                return; // the queue is empty too: a request waits only while the server is full
            }
            if (nextArrival <= nextDeparture) {
                arrivals.next();
                v += (nextArrival - t) * rates.rate(n); // r(0) = 0
                t = nextArrival;
                if (n < capacity) {
                    enter(tags, v + demands.demand(serviceRandom, t), t, t);
                    n++;
                } else if (queueWhenFull) {
                    queue.add(t);
                } else {
                    statistics.dropped(t);
                    arrivals.answered(t); // a refused closed job thinks and tries again
                }
            } else {
                v = tags.minTag();
                t = nextDeparture;
                int slot = tags.minSlot();
                tags.removeMin();
                double arrival = slots.arrival(slot);
                double sent = slots.sent(slot);
                slots.release(slot);
                n--;
                if (!queue.isEmpty()) {
                    enter(tags, v + demands.demand(serviceRandom, t), queue.poll(), t); // the freed place takes the oldest waiting request
                    n++;
                } else if (n == 0) {
                    v = 0; // nothing holds a tag: restart virtual time to keep its precision
                }
                statistics.answered(arrival, sent, t);
                arrivals.answered(t);
            }
        }
    }

    /** A request enters with its finishing tag (its demand drawn by the caller: see the note on inlining above). */
    private void enter(FinishingTags tags, double tag, double arrival, double sent) {
        tags.add(tag, slots.take(arrival, sent));
    }
}
