package io.queuelab.fit;

import io.queuelab.core.log.LogFormat;
import io.queuelab.fit.runs.RequestSource;
import io.queuelab.fit.runs.RunData;

import java.io.IOException;
import java.util.Arrays;

/**
 * The service interval [sent, completed] of every request of a log that has both instants, in log
 * order, with its intended instant and whether it is a measured one (successful, after warm-up):
 * what the client's connection count and the requests' demands are read from. Empty for a log
 * without send instants.
 */
record ServiceIntervals(long[] intended, long[] sent, long[] completed, boolean[] measured) {

    static ServiceIntervals of(RunData run) throws IOException {
        long[] intended = new long[1024];
        long[] sent = new long[1024];
        long[] completed = new long[1024];
        boolean[] measured = new boolean[1024];
        int n = 0;
        try (RequestSource in = RequestSource.open(run.source())) {
            while (in.next()) {
                if (in.sent() == LogFormat.NONE || in.completed() == LogFormat.NONE) {
                    continue;
                }
                if (n == sent.length) {
                    intended = Arrays.copyOf(intended, 2 * n);
                    sent = Arrays.copyOf(sent, 2 * n);
                    completed = Arrays.copyOf(completed, 2 * n);
                    measured = Arrays.copyOf(measured, 2 * n);
                }
                intended[n] = in.intended();
                sent[n] = in.sent();
                completed[n] = in.completed();
                measured[n] = in.outcome() == LogFormat.OK && !in.warmup();
                n++;
            }
        }
        return new ServiceIntervals(Arrays.copyOf(intended, n), Arrays.copyOf(sent, n), Arrays.copyOf(completed, n),
                Arrays.copyOf(measured, n));
    }

    int size() {
        return sent.length;
    }

    int measuredCount() {
        int m = 0;
        for (boolean b : measured) {
            m += b ? 1 : 0;
        }
        return m;
    }

    /** The most requests between their send and their completion at any instant (0 without intervals). */
    int maxConcurrency() {
        long[] starts = sent.clone();
        long[] ends = completed.clone();
        Arrays.sort(starts);
        Arrays.sort(ends);
        int inside = 0, most = 0;
        for (int i = 0, j = 0; i < starts.length; ) {
            // a completion at the instant of a send frees the connection first; but never a completion before any
            // send is inside (a request that completed at the instant it was sent holds its connection for no time)
            if (j < ends.length && ends[j] <= starts[i] && inside > 0) {
                inside--;
                j++;
            } else {
                most = Math.max(most, ++inside);
                i++;
            }
        }
        return most;
    }
}
