package io.queuelab.sim;

import java.util.Arrays;

/**
 * The arrival and send instants of the requests inside a server, by slot: a server's event list
 * holds a slot number, not an object per request. A freed slot is taken again before a new one,
 * so the slots number no more than the most requests inside at once, and nothing is allocated
 * once they have grown to that.
 */
final class RequestSlots {
    private double[] arrival = new double[64];
    private double[] sent = new double[64];
    private int[] free = new int[64]; // as long as the others: never more free slots than slots
    private int freeCount;
    private int used;

    /** A slot for a request that arrived at {@code arrivedAt} and was sent at {@code sentAt}. */
    int take(double arrivedAt, double sentAt) {
        int slot;
        if (freeCount > 0) {
            slot = free[--freeCount];
        } else {
            if (used == arrival.length) {
                grow();
            }
            slot = used++;
        }
        arrival[slot] = arrivedAt;
        sent[slot] = sentAt;
        return slot;
    }

    /** Out of take, which the servers' loops then take in: see {@link SharedServer}'s note on inlining. */
    private void grow() {
        arrival = Arrays.copyOf(arrival, 2 * used);
        sent = Arrays.copyOf(sent, 2 * used);
        free = Arrays.copyOf(free, 2 * used);
    }

    void release(int slot) {
        free[freeCount++] = slot;
    }

    double arrival(int slot) {
        return arrival[slot];
    }

    double sent(int slot) {
        return sent[slot];
    }

    /** Every slot taken so far is below this: an array of this length beside the slots covers them all. */
    int capacity() {
        return arrival.length;
    }
}
