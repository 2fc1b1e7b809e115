package io.queuelab.sim;

import java.util.SplittableRandom;

/**
 * The independent random streams of one replication, split in a fixed order from the
 * replication's own stream, so each part of a model draws the same numbers whatever the others do
 * (an open and a trace-driven run of the same seed share their service times).
 */
record Streams(SplittableRandom arrivals, SplittableRandom service, SplittableRandom delay,
               SplittableRandom pages, SplittableRandom think, SplittableRandom slices) {

    static Streams of(SplittableRandom replication) {
        // a new stream is split last, so the earlier ones draw what they drew before it existed
        return new Streams(replication.split(), replication.split(), replication.split(),
                replication.split(), replication.split(), replication.split());
    }
}
