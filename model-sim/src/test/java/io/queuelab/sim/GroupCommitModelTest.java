package io.queuelab.sim;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The group-commit server against truths that share no code with it: the exact mean of a batch
 * service queue, a request alone, and an event simulation written here with an object per request
 * and an event list (the server uses virtual time, slots and no event list).
 */
class GroupCommitModelTest {

    /** One job, no think time: nothing shares its flush, so R = E[cpu] + E[flush] + perCommit and X R = 1. */
    @Test
    void aCommitAloneWaitsForItsWholeFlush() throws Exception {
        GroupCommitModel m = new GroupCommitModel(Distribution.exponential(0.0001), 16, 2, Distribution.shiftedExponential(0.0002, 0.0001),
                0.00002, 0);
        FittedModel.Prediction p = new FittedModel("gc", m, 0.00005).predict(ArrivalProcess.closed(1), 200_000, 2, 3);
        double r = 0.00005 + 0.0001 + 0.0003 + 0.00002;
        assertEquals(r, p.meanResponse(), 0.01 * r);
        assertEquals(1, p.throughput() * p.meanResponse(), 0.01);
        assertEquals(1, p.commitsPerFlush(), 1e-9, "every flush carries the one commit");
    }

    /**
     * Poisson commits at lambda, no cpu, flushes of a fixed D carrying every waiting commit: an
     * idle period Exp(lambda) starts a busy period of flushes that ends with the first flush during
     * which nobody came (e^(lambda D) flushes on average). A commit finds the log idle with
     * probability p0 = (1/lambda) / (1/lambda + D e^(lambda D)) and waits D; otherwise it waits for
     * the flush under way (D/2 on average, a uniform residual) and then its own D.
     */
    @Test
    void poissonCommitsWithFixedFlushesMatchTheBatchServiceQueue() throws Exception {
        double d = 0.001;
        for (double lambda : new double[] {300, 2000, 6000}) {
            GroupCommitModel m = new GroupCommitModel(Distribution.deterministic(0), 1 << 16, 1, Distribution.deterministic(d), 0, 0);
            SimulationResult r = Simulation.of(m, ArrivalProcess.open(lambda)).customers(300_000).replications(2).seed(5).run();
            double busy = d * Math.exp(lambda * d);
            double p0 = (1 / lambda) / (1 / lambda + busy);
            double mean = d + (1 - p0) * d / 2;
            assertEquals(mean, r.meanResponse().value(), 0.01 * mean, "lambda " + lambda);
            // commits per flush: the arrivals over the flushes of a cycle
            double perFlush = (1 + lambda * busy) / Math.exp(lambda * d);
            assertEquals(perFlush, r.flushSize().orElseThrow().value(), 0.02 * perFlush, "commits per flush at lambda " + lambda);
        }
    }

    /**
     * K connections, cores enough for all of them (no cpu sharing), random cpu, random flushes
     * growing with their group, with and without a bound on the group: mean, p50 and p99 against the
     * event simulation below, at a light and a heavy load and in a closed run.
     */
    @Test
    void agreesWithAnEventSimulationWrittenApart() throws Exception {
        Distribution cpu = Distribution.exponential(0.0002);
        Distribution flush = Distribution.shiftedExponential(0.0001, 0.0001);
        for (int bound : new int[] {0, 3}) {
            GroupCommitModel m = new GroupCommitModel(cpu, 8, 8, flush, 0.00002, bound);
            // the capacity: the truth's own throughput with every connection busy
            double capacity = 1 / EventSimulation.run(m, ArrivalProcess.closed(8), 200_000, 3, new Histogram(3)) * 8;
            for (ArrivalProcess workload : List.of(ArrivalProcess.open(0.3 * capacity), ArrivalProcess.open(0.85 * capacity),
                    ArrivalProcess.closed(5))) {
                SimulationResult sim = Simulation.of(m, workload).customers(800_000).replications(2).seed(9).run();
                Histogram truth = new Histogram(3);
                double truthMean = EventSimulation.run(m, workload, 1_600_000, 17, truth);
                String what = "bound " + bound + ", " + workload;
                // seeds 1-4 at 0.85 of capacity, half these samples: means 0.835-0.853 ms, p99 2.26-2.36 ms in both
                assertEquals(truthMean, sim.meanResponse().value(), 0.025 * truthMean, what + ": mean");
                double p50 = truth.getValueAtPercentile(50);
                assertEquals(p50, sim.responseTimes().getValueAtPercentile(50), 0.03 * p50, what + ": p50");
                double p99 = truth.getValueAtPercentile(99);
                assertEquals(p99, sim.responseTimes().getValueAtPercentile(99), 0.05 * p99, what + ": p99");
            }
        }
    }

    @Test
    void theLogBoundsTheCapacity() {
        GroupCommitModel m = new GroupCommitModel(Distribution.exponential(0.0001), 8, 1, Distribution.deterministic(0.001), 0.0001, 0);
        assertEquals(8 / (0.001 + 8 * 0.0001), m.logCapacity(), 1e-9);
        assertEquals(1, m.utilization(m.logCapacity()), 1e-12);
        GroupCommitModel bounded = new GroupCommitModel(Distribution.exponential(0.0001), 8, 1, Distribution.deterministic(0.001), 0.0001, 2);
        assertEquals(2 / (0.001 + 2 * 0.0001), bounded.logCapacity(), 1e-9);
        assertTrue(bounded.stableAt(1000) && !bounded.stableAt(1700));
        GroupCommitModel few = new GroupCommitModel(Distribution.exponential(0.001), 2, 4, Distribution.deterministic(0.001), 0, 0);
        assertEquals(2 / 0.002, 1 / few.utilization(1), 1e-9, "two connections, each held for 1 ms of cpu and a 1 ms flush at least");
    }

    /**
     * The same system as an event list of objects, one per request: arrivals, cpu ends and flush
     * ends in a priority queue; the cpu is a pure delay (cores at least K). Its own random streams,
     * so it agrees with the server only in distribution.
     */
    static final class EventSimulation {
        private record Event(double time, int kind, Request request) {
        }

        private static final class Request {
            final double arrival;

            Request(double arrival) {
                this.arrival = arrival;
            }
        }

        static double run(GroupCommitModel m, ArrivalProcess workload, int customers, long seed, Histogram into) {
            SplittableRandom random = new SplittableRandom(seed);
            PriorityQueue<Event> events = new PriorityQueue<>((a, b) -> Double.compare(a.time(), b.time()));
            Deque<Request> waitingForConnection = new ArrayDeque<>();
            Deque<Request> waitingForFlush = new ArrayDeque<>();
            List<Request> inFlush = new ArrayList<>();
            boolean flushing = false;
            int held = 0;
            boolean open = workload instanceof ArrivalProcess.Open;
            double lambda = open ? ((ArrivalProcess.Open) workload).lambda() : 0;
            if (open) {
                events.add(new Event(-Math.log(1 - random.nextDouble()) / lambda, 0, null));
            } else {
                for (int j = 0; j < ((ArrivalProcess.Closed) workload).jobs(); j++) {
                    events.add(new Event(0, 0, null));
                }
            }
            int answered = 0;
            int warmup = customers / 10;
            double sum = 0;
            while (answered < customers) {
                Event e = events.poll();
                double t = e.time();
                if (e.kind() == 0) { // arrival
                    if (open) {
                        events.add(new Event(t - Math.log(1 - random.nextDouble()) / lambda, 0, null));
                    }
                    Request r = new Request(t);
                    if (held < m.connections()) {
                        held++;
                        events.add(new Event(t + m.cpu().sample(random), 1, r));
                    } else {
                        waitingForConnection.add(r);
                    }
                } else if (e.kind() == 1) { // cpu done: commit
                    waitingForFlush.add(e.request());
                } else { // flush done
                    for (Request r : inFlush) {
                        if (answered >= warmup) {
                            into.recordValue(Math.round((t - r.arrival) * 1e9));
                            sum += t - r.arrival;
                        }
                        answered++;
                        held--;
                        if (!open) {
                            events.add(new Event(t, 0, null)); // the job's next request, no think time
                        }
                    }
                    inFlush.clear();
                    flushing = false;
                    while (held < m.connections() && !waitingForConnection.isEmpty()) {
                        held++;
                        events.add(new Event(t + m.cpu().sample(random), 1, waitingForConnection.poll()));
                    }
                }
                if (!flushing && !waitingForFlush.isEmpty()) {
                    int group = m.maxGroup() > 0 ? Math.min(m.maxGroup(), waitingForFlush.size()) : waitingForFlush.size();
                    for (int i = 0; i < group; i++) {
                        inFlush.add(waitingForFlush.poll());
                    }
                    flushing = true;
                    events.add(new Event(t + m.flush().sample(random) + m.perCommit() * group, 2, null));
                }
            }
            return sum / (answered - warmup);
        }
    }
}
