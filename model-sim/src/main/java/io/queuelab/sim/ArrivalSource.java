package io.queuelab.sim;

import java.util.SplittableRandom;

/**
 * The instants (seconds) at which the requests of one replication reach the server, ending at the
 * run's stop rule. Open and trace sources are fixed in advance; a closed source issues a request
 * each time one is answered.
 *
 * <p>A request reaches the server {@link #latency} after it arrives (is issued): a constant time
 * outside the server (the client's and the network's), which every instant returned here includes,
 * while the stop rule is applied to the arrival instants themselves. A closed job's cycle is then
 * think time, latency, server: the latency is inside the cycle, so a closed population's
 * throughput X(N) and response time R(N) = latency + time at the server obey Little's law
 * X (R + Z) = N, and an open stream is the same stream moved by the latency.
 */
abstract class ArrivalSource {
    static final double END = Double.POSITIVE_INFINITY;

    final double duration;
    final long customers;
    final double latency;
    long issued;

    ArrivalSource(Stop stop, double latency) {
        this.duration = stop.duration();
        this.customers = stop.customers();
        this.latency = latency;
    }

    /** The next arrival instant without consuming it; {@link #END} when none remain. */
    abstract double peek();

    /** Consumes and returns the next arrival instant; {@link #END} when none remain. */
    abstract double next();

    /** A request was answered at {@code t} (a closed source issues its successor). */
    void answered(double t) {
    }

    /** Whether the stop rule admits one more arrival at {@code t} (an arrival instant, before the latency). */
    final boolean admits(double t) {
        return t < duration && issued < customers;
    }

    /** Whether the stop rule admits one more request reaching the server at {@code reaching} (after the latency). */
    final boolean admitsReaching(double reaching) {
        return admits(reaching - latency);
    }

    static ArrivalSource of(ArrivalProcess arrivalProcess, Stop stop, Streams streams, double latency) {
        if (arrivalProcess instanceof ArrivalProcess.Open open) {
            return new Poisson(open.lambda(), stop, streams.arrivals(), latency);
        }
        if (arrivalProcess instanceof ArrivalProcess.Trace trace) {
            return new Replay(trace, stop, latency);
        }
        return new Population((ArrivalProcess.Closed) arrivalProcess, stop, streams.think(), latency);
    }

    /** Poisson arrivals. */
    static final class Poisson extends ArrivalSource {
        private final double meanGap;
        private final SplittableRandom random;
        private double t;
        private double pending;

        Poisson(double lambda, Stop stop, SplittableRandom random, double latency) {
            super(stop, latency);
            this.meanGap = 1 / lambda;
            this.random = random;
            pending = draw();
        }

        private double draw() {
            t += meanGap * random.nextExponential(); // the ziggurat, as Distribution.Exponential's
            return admits(t) ? t + latency : END;
        }

        @Override
        double peek() {
            return pending;
        }

        @Override
        double next() {
            double a = pending;
            if (a != END) {
                issued++;
                pending = draw();
            }
            return a;
        }
    }

    /** The instants of a trace, in order. */
    static final class Replay extends ArrivalSource {
        private final ArrivalProcess.Trace trace;
        private int i;

        Replay(ArrivalProcess.Trace trace, Stop stop, double latency) {
            super(stop, latency);
            this.trace = trace;
        }

        @Override
        double peek() {
            if (i >= trace.size()) {
                return END;
            }
            double a = trace.arrival(i) / 1e9;
            return admits(a) ? a + latency : END;
        }

        @Override
        double next() {
            double a = peek();
            if (a != END) {
                i++;
                issued++;
            }
            return a;
        }
    }

    /** A closed population: all jobs issue at instant 0, then each after its think time; each request reaches the server the latency later. */
    static final class Population extends ArrivalSource {
        private final Distribution think;
        private final SplittableRandom random;
        private final DoubleHeap issues = new DoubleHeap();

        Population(ArrivalProcess.Closed closed, Stop stop, SplittableRandom random, double latency) {
            super(stop, latency);
            this.think = closed.thinkTime();
            this.random = random;
            for (int j = 0; j < closed.jobs(); j++) {
                issues.push(latency, 0);
            }
        }

        @Override
        double peek() {
            double a = issues.minKey();
            return a != END && admitsReaching(a) ? a : END;
        }

        @Override
        double next() {
            double a = peek();
            if (a != END) {
                issues.pop();
                issued++;
            }
            return a;
        }

        @Override
        void answered(double t) {
            issues.push(successor(t), 0);
        }

        /** The instant the successor of a request answered at {@code t} reaches the server: after a think time and the latency. */
        double successor(double t) {
            return t + think.sample(random) + latency;
        }
    }
}
