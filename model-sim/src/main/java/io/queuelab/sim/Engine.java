package io.queuelab.sim;

import java.util.SplittableRandom;
import java.util.function.IntToDoubleFunction;

/**
 * The server simulation that runs a model, named by the model itself ({@link Model#engine()}), so
 * that nothing chooses an engine by testing the model's type. There are two: one FCFS server
 * simulated by the exact start = max(ready, free) recursion ({@link FcfsServer}: the M/M/1 model,
 * and the dirty-page-buffer model with its network delay before the queue and its flushes),
 * one shared server simulated with virtual time ({@link SharedServer}: M/M/1-PS, the load-dependent
 * model with its speed per population and its capacity, and the client-limited system, a FIFO
 * client queue in front of K connections to a server of c cores, which is also M/G/1 and M/G/c
 * FCFS when K = c; or, with its cores time-sliced in slices of a given mean length,
 * {@link TimeSlicedServer}); and the group-commit server ({@link GroupCommitServer}), the client
 * system whose requests then wait for a log flush shared by every commit waiting when it starts.
 *
 * <p>Guarantees: an engine is immutable and holds only the model's parameters, so one engine runs
 * any number of replications, in parallel; each {@link #run} builds its own server state and draws
 * only from the replication's {@link Streams}. Engines are built and run only inside this package.
 */
public abstract sealed class Engine permits Engine.Fcfs, Engine.ProcessorSharing, Engine.GroupCommit {

    private Engine() {
    }

    /** One FCFS server serving requests that reach it at once (M/M/1). */
    static Engine fcfs(Distribution service) {
        return new Fcfs(null, service, 0, null);
    }

    /**
     * One FCFS server behind a delay (requests reach the queue {@code delay} after they arrive),
     * which writes {@code bufferPages} pages of {@code dirtyPage} each after every
     * {@code bufferPages}-th departure (the dirty-page-buffer model).
     */
    static Engine fcfsWithBuffer(Distribution delay, Distribution service, int bufferPages, Distribution dirtyPage) {
        return new Fcfs(java.util.Objects.requireNonNull(delay, "delay"), service, bufferPages,
                java.util.Objects.requireNonNull(dirtyPage, "dirtyPage"));
    }

    /** One processor-sharing server of unbounded capacity: n requests present each progress at 1/n. */
    static Engine processorSharing(Distribution service) {
        return new ProcessorSharing(service, Integer.MAX_VALUE, null, 1, false, "arrival (processor sharing serves at once)", 0, 0, 0, null);
    }

    /**
     * One processor-sharing server that works at {@code speed(n)} with n requests present and
     * refuses arrivals beyond {@code capacity} requests (the load-dependent model).
     */
    static Engine processorSharing(Distribution service, int capacity, IntToDoubleFunction speed) {
        return new ProcessorSharing(service, capacity, java.util.Objects.requireNonNull(speed, "speed"), 1, false,
                "arrival (processor sharing serves at once)", 0, 0, 0, null);
    }

    /**
     * A FIFO client queue in front of {@code connections} connections to a server of {@code cores}
     * cores shared by the requests holding a connection (each gets min(1, cores/n) of a core); each
     * demand times {@code profile}'s factor at the instant it takes a connection (null: none).
     */
    static Engine clientLimited(Distribution demand, int connections, int cores, DemandProfile profile) {
        return new ProcessorSharing(demand, connections, null, cores, true, TOOK_A_CONNECTION, 0, 0, 0, profile);
    }

    /**
     * The same client queue and connections to a server of {@code cores} cores time-sliced among the
     * requests holding a connection, {@code slice} seconds at a time on average, of which
     * {@code sliceFixed} are fixed and the rest exponential; a request that takes a connection goes
     * to the run queue's head with probability {@code cutIn} ({@link TimeSlicedServer}); each
     * demand times {@code profile}'s factor at the instant it takes a connection (null: none).
     */
    static Engine timeSliced(Distribution demand, int connections, int cores, double slice, double sliceFixed, double cutIn,
                             DemandProfile profile) {
        return new ProcessorSharing(demand, connections, null, cores, true, TOOK_A_CONNECTION, slice, sliceFixed, cutIn, profile);
    }

    /**
     * The client queue and connections to {@code cores} cores shared by the requests running their
     * {@code cpu}, then one log flush at a time ({@link GroupCommitServer}).
     */
    static Engine groupCommit(Distribution cpu, int connections, int cores, Distribution flush, double perCommit, int maxGroup) {
        return new GroupCommit(cpu, connections, cores, flush, perCommit, maxGroup);
    }

    private static final String TOOK_A_CONNECTION = "the request took a connection (left the client's queue)";

    /** Whether the server writes a dirty-page buffer: its replications then report flushes. */
    abstract boolean flushes();

    /** Whether its flushes are a log's, each carrying commits (else a dirty-page buffer's pages, or none). */
    boolean flushesCarryCommits() {
        return false;
    }

    /** The instant a log record's {@code dequeued} and {@code sent} fields stand for under this engine. */
    abstract String sentMeans();

    /** Serves every arrival of one replication and reports each request (and flush) to {@code statistics}. */
    abstract void run(ArrivalSource arrivals, Streams streams, ReplicationStatistics statistics);

    /** The parameters of {@link FcfsServer}. */
    static final class Fcfs extends Engine {
        final Distribution delay;      // null: requests reach the queue when they arrive
        final Distribution service;
        final int bufferPages;         // 0: no dirty-page buffer
        final Distribution dirtyPage;  // null: no dirty-page buffer

        private Fcfs(Distribution delay, Distribution service, int bufferPages, Distribution dirtyPage) {
            this.delay = delay;
            this.service = java.util.Objects.requireNonNull(service, "service");
            this.bufferPages = bufferPages;
            this.dirtyPage = dirtyPage;
        }

        @Override
        boolean flushes() {
            return bufferPages > 0;
        }

        @Override
        String sentMeans() {
            return delay != null ? "arrival at the job queue (after the network delay)" : "service start";
        }

        @Override
        void run(ArrivalSource arrivals, Streams streams, ReplicationStatistics statistics) {
            new FcfsServer(this, streams, statistics).run(arrivals);
        }
    }

    /** The parameters of {@link SharedServer}, and of {@link TimeSlicedServer} when the cores are time-sliced. */
    static final class ProcessorSharing extends Engine {
        final Distribution service;
        final int capacity;
        final IntToDoubleFunction speed; // null: each of n inside progresses at min(1, cores/n)
        final int cores;
        final boolean queueWhenFull;     // false: an arrival beyond the capacity is refused
        final double slice;              // 0: shared at every instant; else the cores' mean time slice (queueWhenFull, no speed)
        final double sliceFixed;         // the fixed part of each slice (the rest exponential)
        final double cutIn;              // the probability that a request taking a connection goes to the run queue's head
        final DemandProfile profile;     // null: demands as drawn; else times the factor at the instant a request enters
        private final String sentMeans;

        private ProcessorSharing(Distribution service, int capacity, IntToDoubleFunction speed, int cores, boolean queueWhenFull,
                                 String sentMeans, double slice, double sliceFixed, double cutIn, DemandProfile profile) {
            this.service = java.util.Objects.requireNonNull(service, "service");
            this.capacity = capacity;
            this.speed = speed;
            this.cores = cores;
            this.queueWhenFull = queueWhenFull;
            this.sentMeans = sentMeans;
            this.slice = slice;
            this.sliceFixed = sliceFixed;
            this.cutIn = cutIn;
            this.profile = profile;
        }

        /** A demand drawn at instant {@code t}: the service distribution's, times the profile's factor then. */
        double demand(SplittableRandom random, double t) {
            double d = service.sample(random);
            return profile == null ? d : d * profile.at(t);
        }

        @Override
        boolean flushes() {
            return false;
        }

        @Override
        String sentMeans() {
            return sentMeans;
        }

        @Override
        void run(ArrivalSource arrivals, Streams streams, ReplicationStatistics statistics) {
            if (slice > 0) {
                new TimeSlicedServer(this, streams, statistics).run(arrivals);
            } else {
                new SharedServer(this, streams, statistics).run(arrivals);
            }
        }
    }

    /** The parameters of {@link GroupCommitServer}. */
    static final class GroupCommit extends Engine {
        final Distribution cpu;
        final int connections;
        final int cores;
        final Distribution flush;
        final double perCommit;
        final int maxGroup; // 0: no bound but the connections

        private GroupCommit(Distribution cpu, int connections, int cores, Distribution flush, double perCommit, int maxGroup) {
            this.cpu = java.util.Objects.requireNonNull(cpu, "cpu");
            this.connections = connections;
            this.cores = cores;
            this.flush = java.util.Objects.requireNonNull(flush, "flush");
            this.perCommit = perCommit;
            this.maxGroup = maxGroup;
        }

        /** Its flushes are the log's; each carries commits, reported as a dirty-page flush's pages are. */
        @Override
        boolean flushes() {
            return true;
        }

        @Override
        boolean flushesCarryCommits() {
            return true;
        }

        @Override
        String sentMeans() {
            return TOOK_A_CONNECTION;
        }

        @Override
        void run(ArrivalSource arrivals, Streams streams, ReplicationStatistics statistics) {
            new GroupCommitServer(this, streams, statistics).run(arrivals);
        }
    }
}
