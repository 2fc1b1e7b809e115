package io.queuelab.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs independent replications on a pool of threads: a fixed number, or, with a precision stop,
 * rounds of them until the mean response time's interval is narrow enough or the maximum is reached.
 *
 * <p>Guarantees: replication i draws from the seed s_i, the i-th {@code nextLong()} of
 * {@code new SplittableRandom(seed)}; the replications returned, in index order, depend only on the
 * configuration, never on the number of threads or on timing (the precision stop keeps the first
 * count, in index order, whose interval is narrow enough, whatever a round ran in parallel).
 *
 * @param precision relative half-width of the mean response's interval at which to stop, or NaN to
 *                  run exactly {@code replications}
 */
record IndependentReplications(long seed, int replications, double precision, int maxReplications,
                               double confidence, int threads) {

    /** Runs replication {@code index} from its seed. */
    interface Replicator {
        ReplicationResult run(int index, long seed) throws IOException;
    }

    /** Runs the replications and returns them in index order. */
    List<ReplicationResult> run(Replicator replicator) throws IOException {
        SplittableRandom root = new SplittableRandom(seed);
        List<Long> seeds = new ArrayList<>();
        List<ReplicationResult> results = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "simulation");
            t.setDaemon(true);
            return t;
        });
        try {
            int target = Double.isNaN(precision) ? replications : Math.max(2, replications);
            int checked = Math.max(2, replications) - 1;
            while (true) {
                List<Future<ReplicationResult>> round = new ArrayList<>();
                for (int i = results.size(); i < target; i++) {
                    seeds.add(root.nextLong()); // in index order, so seed i never depends on threads
                    long replicationSeed = seeds.get(i);
                    int index = i;
                    round.add(pool.submit(() -> replicator.run(index, replicationSeed)));
                }
                for (Future<ReplicationResult> f : round) {
                    results.add(await(f));
                }
                if (Double.isNaN(precision)) {
                    break;
                }
                // the stop is the first count, in index order, whose interval is narrow enough, so it
                // does not depend on how many replications a round ran in parallel
                int enough = firstPreciseCount(results, checked);
                if (enough > 0) {
                    results.subList(enough, results.size()).clear();
                    break;
                }
                checked = results.size();
                if (target >= maxReplications) {
                    break;
                }
                target = Math.min(maxReplications, target + threads);
            }
        } finally {
            pool.shutdownNow();
        }
        return results;
    }

    /** The smallest count above {@code checked} whose mean interval meets the precision, or 0. */
    private int firstPreciseCount(List<ReplicationResult> results, int checked) {
        for (int k = Math.max(2, checked + 1); k <= results.size(); k++) {
            double[] means = results.subList(0, k).stream().mapToDouble(ReplicationResult::meanResponse).toArray();
            if (Estimate.ofSamples(means, confidence).relativeHalfWidth() <= precision) {
                return k;
            }
        }
        return 0;
    }

    private static ReplicationResult await(Future<ReplicationResult> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("simulation interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException(cause);
        }
    }
}
