package io.queuelab.sim;

import java.util.SplittableRandom;

/**
 * The system a database run really is (the client-limited processor-sharing model): requests wait
 * in the client's FIFO queue for one of K connections; the requests holding a connection share a
 * server of c cores, each of the n inside progressing at min(1, c/n) of a core.
 *
 * <p>Simulated with virtual time, as {@link SharedServer}: every request inside progresses at the
 * same rate, so V advances at min(1, c/n) per second and a request that enters at virtual time V
 * with demand D leaves when V reaches V + D. The event list holds those finishing tags, O(log K) an
 * event. The log's {@code sent} is the instant the request took a connection (left the client's
 * queue), so queue wait = sent - arrival and service = departure - sent, as a measured run's.
 */
final class ClientLimitedServer {
    private final Distribution demand;
    private final int connections;
    private final double cores;
    private final SplittableRandom demandRandom;
    private final ReplicationStatistics statistics;

    // (arrival, sent) of each request holding a connection, by slot; the heap's value is the slot
    private final double[] slotArrival;
    private final double[] slotSent;
    private final int[] freeSlots;
    private int freeCount;

    // the client's FIFO queue of arrival instants, a ring that grows when full
    private double[] queue = new double[64];
    private int head;
    private int queued;

    ClientLimitedServer(Engine.ClientLimited server, Streams streams, ReplicationStatistics statistics) {
        demand = server.demand;
        connections = server.connections;
        cores = server.cores;
        demandRandom = streams.service();
        this.statistics = statistics;
        int slots = connections; // bounded by ClientLimitedModel.MAX_CONNECTIONS
        slotArrival = new double[slots];
        slotSent = new double[slots];
        freeSlots = new int[slots];
        for (int i = 0; i < slots; i++) {
            freeSlots[i] = slots - 1 - i;
        }
        freeCount = slots;
    }

    /** Progress of each request inside per second with n inside: min(1, c/n). */
    private double rate(int n) {
        return n <= cores ? 1.0 : cores / n;
    }

    void run(ArrivalSource arrivals) {
        DoubleHeap tags = new DoubleHeap(); // key: virtual finishing time, value: slot
        double t = 0;
        double v = 0;
        int n = 0;
        while (true) {
            double nextArrival = arrivals.peek();
            double nextDeparture = n == 0 ? Double.POSITIVE_INFINITY : t + (tags.minKey() - v) / rate(n);
            if (nextArrival == ArrivalSource.END && n == 0) {
                return; // the queue is empty too: a request waits only while every connection is busy
            }
            if (nextArrival <= nextDeparture) {
                arrivals.next();
                if (n > 0) {
                    v += (nextArrival - t) * rate(n);
                }
                t = nextArrival;
                if (n < connections) {
                    enter(tags, v, t, t);
                    n++;
                } else {
                    offer(t);
                }
            } else {
                v = tags.minKey();
                t = nextDeparture;
                int slot = (int) tags.minValue();
                tags.pop();
                double arrival = slotArrival[slot];
                double sent = slotSent[slot];
                freeSlots[freeCount++] = slot;
                n--;
                if (queued > 0) {
                    enter(tags, v, poll(), t); // the freed connection takes the oldest waiting request
                    n++;
                } else if (n == 0) {
                    v = 0; // nothing holds a tag: restart virtual time to keep its precision
                }
                statistics.answered(arrival, sent, t);
                arrivals.answered(t);
            }
        }
    }

    private void enter(DoubleHeap tags, double v, double arrival, double sent) {
        int slot = freeSlots[--freeCount];
        slotArrival[slot] = arrival;
        slotSent[slot] = sent;
        tags.push(v + demand.sample(demandRandom), slot);
    }

    private void offer(double arrival) {
        if (queued == queue.length) {
            double[] grown = new double[2 * queue.length];
            for (int i = 0; i < queued; i++) {
                grown[i] = queue[(head + i) % queue.length];
            }
            queue = grown;
            head = 0;
        }
        queue[(head + queued) % queue.length] = arrival;
        queued++;
    }

    private double poll() {
        double a = queue[head];
        head = (head + 1) % queue.length;
        queued--;
        return a;
    }
}
