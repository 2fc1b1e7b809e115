package io.queuelab.sim;

import java.util.SplittableRandom;

/**
 * The group-commit server ({@link GroupCommitModel}): a FIFO client queue in front of K
 * connections; a request holding one first runs its cpu on c cores shared as in
 * {@link SharedServer} (each of n running gets min(1, c/n) of a core, simulated with virtual time),
 * then waits for the log: one flush at a time, each covering every commit waiting when it starts
 * (at most the bound), all of which are answered when it ends. A request keeps its connection
 * until its flush ends, as a synchronous client does.
 *
 * <p>Each flush is reported to the statistics with the commits it carried (the "pages" of a
 * dirty-page flush), so a replication's mean commits per flush can be set beside the server's own
 * count of updates per fsync.
 */
final class GroupCommitServer {
    private final Engine.GroupCommit model;
    private final ShareRates rates;
    private final SplittableRandom cpuRandom;
    private final SplittableRandom flushRandom;
    private final ReplicationStatistics statistics;

    private final RequestSlots slots = new RequestSlots();
    private final DoubleFifo clientQueue = new DoubleFifo(); // arrival instants waiting for a connection
    // slots whose cpu is done, in order: the first `carried` are the running flush's, the rest wait for the next
    // (one queue, not two: a commit is added and polled once)
    private final DoubleFifo commits = new DoubleFifo();
    private int carried;
    private final FinishingTags tags = new FinishingTags();  // cpu: virtual finishing time -> slot

    private double t;
    private double v;           // virtual time of the cpu phase
    private int running;        // requests in their cpu phase
    private int connected;      // requests holding a connection
    private double flushEnd = Double.POSITIVE_INFINITY; // no flush running

    GroupCommitServer(Engine.GroupCommit model, Streams streams, ReplicationStatistics statistics) {
        this.model = model;
        this.rates = ShareRates.ofCores(model.cores, model.connections);
        this.cpuRandom = streams.service();
        this.flushRandom = streams.pages();
        this.statistics = statistics;
    }

    void run(ArrivalSource arrivals) {
        while (true) {
            double nextArrival = arrivals.peek();
            double nextCpu = t + (tags.minTag() - v) * rates.inverse(running); // +infinity when none runs
            if (nextArrival == ArrivalSource.END && connected == 0) {
                return; // nobody waits for a connection either: a request waits only while all are held
            }
            if (nextArrival <= Math.min(nextCpu, flushEnd)) { // one branch, not two
                arrivals.next();
                advance(nextArrival);
                if (connected < model.connections) {
                    connect(t, t, model.cpu.sample(cpuRandom));
                } else {
                    clientQueue.add(t);
                }
            } else if (nextCpu <= flushEnd) {
                v = tags.minTag();
                t = nextCpu;
                int slot = tags.minSlot();
                tags.removeMin();
                if (--running == 0) {
                    v = 0; // nothing holds a tag: restart virtual time to keep its precision
                }
                commits.add(slot);
                if (carried == 0) { // no flush running
                    startFlush(model.flush.sample(flushRandom));
                }
            } else {
                advance(flushEnd);
                flushEnd = Double.POSITIVE_INFINITY;
                for (; carried > 0; carried--) {
                    int slot = (int) commits.poll();
                    double arrival = slots.arrival(slot);
                    double sent = slots.sent(slot);
                    slots.release(slot);
                    connected--;
                    statistics.answered(arrival, sent, t);
                    arrivals.answered(t);
                    if (!clientQueue.isEmpty()) {
                        connect(clientQueue.poll(), t, model.cpu.sample(cpuRandom)); // the freed connection takes the oldest waiting request
                    }
                }
                if (!commits.isEmpty()) {
                    startFlush(model.flush.sample(flushRandom)); // the commits that came during the flush: the next group
                }
            }
        }
    }

    /** Moves the clock to {@code to}, the cpu phase's virtual time with it. */
    private void advance(double to) {
        v += (to - t) * rates.rate(running); // r(0) = 0
        t = to;
    }

    /** A request takes a connection and starts its {@code cpu} (drawn by the caller: see SharedServer's note on inlining). */
    private void connect(double arrival, double sent, double cpu) {
        connected++;
        running++;
        tags.add(v + cpu, slots.take(arrival, sent));
    }

    /** One flush from now of {@code duration} and the commits' share, carrying every waiting commit up to the bound. */
    private void startFlush(double duration) {
        int group = model.maxGroup > 0 ? Math.min(model.maxGroup, commits.size()) : commits.size();
        carried = group;
        flushEnd = t + duration + model.perCommit * group;
        statistics.flush(t, flushEnd, group);
    }
}
