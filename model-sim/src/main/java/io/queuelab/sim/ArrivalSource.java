package io.queuelab.sim;

import java.util.SplittableRandom;

/**
 * The arrival instants (seconds) of one replication, ending at the run's stop rule. Open and trace
 * sources are fixed in advance; a closed source issues a request each time one is answered.
 */
abstract class ArrivalSource {
    static final double END = Double.POSITIVE_INFINITY;

    final double duration;
    final long customers;
    long issued;

    ArrivalSource(Stop stop) {
        this.duration = stop.duration();
        this.customers = stop.customers();
    }

    /** The next arrival instant without consuming it; {@link #END} when none remain. */
    abstract double peek();

    /** Consumes and returns the next arrival instant; {@link #END} when none remain. */
    abstract double next();

    /** A request was answered at {@code t} (a closed source issues its successor). */
    void answered(double t) {
    }

    /** Whether the stop rule admits one more arrival at {@code t}. */
    final boolean admits(double t) {
        return t < duration && issued < customers;
    }

    static ArrivalSource of(ArrivalProcess arrivalProcess, Stop stop, Streams streams) {
        if (arrivalProcess instanceof ArrivalProcess.Open open) {
            return new Poisson(open.lambda(), stop, streams.arrivals());
        }
        if (arrivalProcess instanceof ArrivalProcess.Trace trace) {
            return new Replay(trace, stop);
        }
        return new Population((ArrivalProcess.Closed) arrivalProcess, stop, streams.think());
    }

    /** Poisson arrivals. */
    static final class Poisson extends ArrivalSource {
        private final double meanGap;
        private final SplittableRandom random;
        private double t;
        private double pending;

        Poisson(double lambda, Stop stop, SplittableRandom random) {
            super(stop);
            this.meanGap = 1 / lambda;
            this.random = random;
            pending = draw();
        }

        private double draw() {
            t += -meanGap * Math.log(1.0 - random.nextDouble());
            return admits(t) ? t : END;
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

        Replay(ArrivalProcess.Trace trace, Stop stop) {
            super(stop);
            this.trace = trace;
        }

        @Override
        double peek() {
            if (i >= trace.size()) {
                return END;
            }
            double a = trace.arrival(i) / 1e9;
            return admits(a) ? a : END;
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

    /** A closed population: all jobs issue at instant 0, then each after its think time. */
    static final class Population extends ArrivalSource {
        private final Distribution think;
        private final SplittableRandom random;
        private final DoubleHeap issues = new DoubleHeap();

        Population(ArrivalProcess.Closed closed, Stop stop, SplittableRandom random) {
            super(stop);
            this.think = closed.thinkTime();
            this.random = random;
            for (int j = 0; j < closed.jobs(); j++) {
                issues.push(0, 0);
            }
        }

        @Override
        double peek() {
            double a = issues.minKey();
            return a != END && admits(a) ? a : END;
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
            issues.push(t + think.sample(random), 0);
        }

        /** The think time that follows an answer at {@code t}: the successor's issue instant. */
        double successor(double t) {
            return t + think.sample(random);
        }
    }
}
