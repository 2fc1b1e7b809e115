package io.queuelab.fit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * Ground truth for the dirty-page-buffer model (seed 004), written apart from model-sim's
 * {@code FcfsServer} (a Lindley recursion over a heap of delayed arrivals): an event list of
 * objects, one per request. A request's network delay brings it to a FCFS job queue; the server
 * processes one request at a time; every completion leaves a dirty page and is answered at once,
 * and the completion that fills the buffer ({@code bufferPages} pages) stops the server while it
 * writes every page (each page's write drawn on its own, summed: no Gamma shortcut). Open runs
 * (Poisson) or closed ones (N jobs, each issuing its next request the instant its last is answered).
 * The log is a client's: sent = intended (the network delay is inside the service time, as a
 * measured run sees it). java.util.Random streams.
 */
final class DirtyPageBufferGroundTruth {
    /** A duration, seconds. */
    interface Duration {
        double draw(Random random);
    }

    record Server(Duration networkDelay, Duration processing, int bufferPages, Duration dirtyPage) {
    }

    private enum Kind { ISSUED, AT_QUEUE, PROCESSED, FLUSHED }

    private record Event(double time, long order, Kind kind, Request request) {
    }

    private static final class Request {
        final int index;
        final double issued;

        Request(int index, double issued) {
            this.index = index;
            this.issued = issued;
        }
    }

    private DirtyPageBufferGroundTruth() {
    }

    static EmulatedRun open(Server server, double lambda, int requests, long seed) {
        return run(server, lambda, 0, requests, seed);
    }

    static EmulatedRun closed(Server server, int jobs, int requests, long seed) {
        return run(server, 0, jobs, requests, seed);
    }

    private static EmulatedRun run(Server server, double lambda, int jobs, int requests, long seed) {
        Random random = EmulatedRun.random(seed);
        PriorityQueue<Event> events = new PriorityQueue<>((a, b) -> a.time() != b.time() ? Double.compare(a.time(), b.time())
                : Long.compare(a.order(), b.order()));
        long sequence = 0; // orders events of one instant as they were scheduled
        List<Request> issuedRequests = new ArrayList<>();
        double[] completed = new double[requests];
        ArrayDeque<Request> jobQueue = new ArrayDeque<>();
        boolean serverBusy = false; // processing a request or writing the buffer
        int pages = 0;
        int done = 0;
        if (jobs == 0) {
            events.add(new Event(exponential(random, 1 / lambda), sequence++, Kind.ISSUED, null));
        } else {
            for (int j = 0; j < Math.min(jobs, requests); j++) {
                events.add(new Event(0, sequence++, Kind.ISSUED, null));
            }
        }
        while (done < requests) {
            Event e = events.poll();
            double t = e.time();
            switch (e.kind()) {
                case ISSUED -> {
                    if (issuedRequests.size() == requests) {
                        break; // every request of the run is out
                    }
                    Request r = new Request(issuedRequests.size(), t);
                    issuedRequests.add(r);
                    events.add(new Event(t + server.networkDelay().draw(random), sequence++, Kind.AT_QUEUE, r));
                    if (jobs == 0) {
                        events.add(new Event(t + exponential(random, 1 / lambda), sequence++, Kind.ISSUED, null));
                    }
                }
                case AT_QUEUE -> jobQueue.add(e.request());
                case PROCESSED -> {
                    serverBusy = false;
                    completed[e.request().index] = t;
                    done++;
                    if (jobs > 0) {
                        events.add(new Event(t, sequence++, Kind.ISSUED, null)); // the job's next request, at once
                    }
                    if (++pages == server.bufferPages()) {
                        double flush = 0;
                        for (int p = 0; p < pages; p++) {
                            flush += server.dirtyPage().draw(random);
                        }
                        pages = 0;
                        serverBusy = true;
                        events.add(new Event(t + flush, sequence++, Kind.FLUSHED, null));
                    }
                }
                case FLUSHED -> serverBusy = false;
            }
            if (!serverBusy && !jobQueue.isEmpty()) {
                serverBusy = true;
                events.add(new Event(t + server.processing().draw(random), sequence++, Kind.PROCESSED, jobQueue.poll()));
            }
        }
        double[] intended = issuedRequests.stream().mapToDouble(r -> r.issued).toArray();
        return new EmulatedRun(intended, intended.clone(), completed);
    }

    static double exponential(Random random, double mean) {
        return -mean * Math.log(1 - random.nextDouble());
    }
}
