package io.queuelab.sim;

import java.util.SplittableRandom;

/**
 * One FCFS server, simulated by the exact Lindley-style recursion (start = max(ready, free),
 * departure = start + service) instead of an event list: the M/M/1 model and the dirty-page-buffer
 * model, whose server additionally writes the buffer after every {@code bufferPages}-th departure.
 * Requests delayed on their way to the queue (the DPB network delay) are put back into queue
 * order by a small heap that holds only the requests still on their way.
 */
final class FcfsServer {
    private final Distribution delay;      // null: no delay before the queue
    private final double minDelay;
    private final Distribution service;
    private final int bufferPages;         // 0: no dirty-page buffer
    private final FlushDuration flushDuration; // null: no dirty-page buffer
    private final SplittableRandom delayRandom;
    private final SplittableRandom serviceRandom;
    private final ReplicationStatistics statistics;

    private double free;                   // instant the server can take the next request
    private int pages;

    FcfsServer(Engine.Fcfs server, Streams streams, ReplicationStatistics statistics) {
        delay = server.delay;
        service = server.service;
        bufferPages = server.bufferPages;
        flushDuration = server.bufferPages > 0 ? new FlushDuration(server.dirtyPage, bufferPages, streams.pages()) : null;
        minDelay = delay == null ? 0 : delay.lowerBound();
        delayRandom = streams.delay();
        serviceRandom = streams.service();
        this.statistics = statistics;
    }

    void run(ArrivalSource arrivals) {
        if (arrivals instanceof ArrivalSource.Population closed) {
            runClosed(closed);
        } else if (delay == null) {
            runOpenWithoutDelay(arrivals);
        } else {
            runOpenWithDelay(arrivals);
        }
    }

    private void runOpenWithoutDelay(ArrivalSource arrivals) {
        for (double a = arrivals.next(); a != ArrivalSource.END; a = arrivals.next()) {
            serve(a, a);
        }
    }

    private void runOpenWithDelay(ArrivalSource arrivals) {
        DoubleHeap onTheWay = new DoubleHeap(); // key: instant at the queue, value: arrival
        for (double a = arrivals.next(); a != ArrivalSource.END; a = arrivals.next()) {
            onTheWay.push(a + delay.sample(delayRandom), a);
            // every later arrival reaches the queue at or after this horizon
            double horizon = arrivals.peek() + minDelay;
            while (!onTheWay.isEmpty() && onTheWay.minKey() <= horizon) {
                double ready = onTheWay.minKey();
                double arrival = onTheWay.minValue();
                onTheWay.pop();
                serve(arrival, ready);
            }
        }
    }

    private void runClosed(ArrivalSource.Population population) {
        // Every job is on its way to the queue or waiting in it, keyed by the instant it reached it;
        // a successor is issued only after a departure, i.e. after every waiting job's arrival.
        DoubleHeap jobs = new DoubleHeap();
        for (double a = population.next(); a != ArrivalSource.END; a = population.next()) {
            jobs.push(ready(a), a);
        }
        while (!jobs.isEmpty()) {
            double ready = jobs.minKey();
            double arrival = jobs.minValue();
            jobs.pop();
            double departure = serve(arrival, ready);
            double issue = population.successor(departure); // at the server's door: after think time and latency
            if (population.admitsReaching(issue)) {
                population.issued++;
                jobs.push(ready(issue), issue);
            }
        }
    }

    private double ready(double issue) {
        return delay == null ? issue : issue + delay.sample(delayRandom);
    }

    /** Serves the request that arrived at {@code arrival} and reached the queue at {@code ready}. */
    private double serve(double arrival, double ready) {
        double start = Math.max(ready, free);
        double departure = start + service.sample(serviceRandom);
        // M/M/1: the log's sent is the service start; DPB: the instant the request reached the queue
        statistics.answered(arrival, delay == null ? start : ready, departure);
        free = departure;
        if (bufferPages > 0 && ++pages == bufferPages) {
            double end = departure + flushDuration.sample();
            statistics.flush(departure, end, pages);
            free = end;
            pages = 0;
        }
        return departure;
    }
}
