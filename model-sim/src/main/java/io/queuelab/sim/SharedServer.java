package io.queuelab.sim;

import java.util.SplittableRandom;

/**
 * One processor-sharing server whose speed may depend on the number of requests present (the
 * load-dependent model), simulated with virtual time: V advances at speed(n)/n, a request that
 * arrives at virtual time V with service S leaves when V reaches V + S, and the event list holds
 * those finishing tags. Each event costs O(log n); no request is rescheduled when n changes.
 */
final class SharedServer {
    private final Distribution service;
    private final int capacity;
    private final double[] ratePerRequest; // speed(n)/n for the load-dependent model; null for PS
    private final SplittableRandom serviceRandom;
    private final ReplicationStatistics statistics;

    SharedServer(Engine.ProcessorSharing server, Streams streams, ReplicationStatistics statistics) {
        service = server.service;
        capacity = server.capacity;
        if (server.speed != null) {
            ratePerRequest = new double[capacity + 1];
            for (int n = 1; n <= capacity; n++) {
                ratePerRequest[n] = server.speed.applyAsDouble(n) / n;
            }
        } else {
            ratePerRequest = null;
        }
        serviceRandom = streams.service();
        this.statistics = statistics;
    }

    private double rate(int n) {
        return ratePerRequest == null ? 1.0 / n : ratePerRequest[n];
    }

    void run(ArrivalSource arrivals) {
        DoubleHeap tags = new DoubleHeap(); // key: virtual finishing time, value: arrival instant
        double t = 0;
        double v = 0;
        int n = 0;
        while (true) {
            double nextArrival = arrivals.peek();
            double nextDeparture = n == 0 ? Double.POSITIVE_INFINITY : t + (tags.minKey() - v) / rate(n);
            if (nextArrival == ArrivalSource.END && n == 0) {
                return;
            }
            if (nextArrival <= nextDeparture) {
                arrivals.next();
                if (n > 0) {
                    v += (nextArrival - t) * rate(n);
                }
                t = nextArrival;
                if (n >= capacity) {
                    statistics.dropped(t);
                    arrivals.answered(t); // a refused closed job thinks and tries again
                } else {
                    tags.push(v + service.sample(serviceRandom), t);
                    n++;
                }
            } else {
                v = tags.minKey();
                t = nextDeparture;
                double arrival = tags.minValue();
                tags.pop();
                if (--n == 0) {
                    v = 0; // nothing holds a tag: restart virtual time to keep its precision
                }
                statistics.answered(arrival, arrival, t);
                arrivals.answered(t);
            }
        }
    }
}
