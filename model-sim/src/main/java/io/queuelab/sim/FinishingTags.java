package io.queuelab.sim;

import java.util.Arrays;

/**
 * The virtual finishing tags of the requests inside a shared server, each with its request's slot: the event list of
 * {@link SharedServer} and of {@link GroupCommitServer}'s cpu phase, which needs the smallest tag at every event.
 *
 * <p>The tags are kept sorted, largest first, in an array behind a +infinity sentinel, so the smallest is the last
 * one: taking it is a decrement, and a new tag moves the smaller ones up by one, a loop that the sentinel ends. A
 * binary heap did the same in O(log n), but its sift down a level was a comparison of two random tags at every level,
 * mispredicted about every other time; a server holds a few requests (mean 4 at rho 0.8), so moving them is cheaper.
 * Beyond {@link #SORTED} tags the largest ones wait in a heap (an overloaded server's queue grows without bound), from
 * which the array is refilled when it empties: every sorted tag is at most every tag in the heap.
 */
final class FinishingTags {
    static final int SORTED = 128;

    // tags[1..count] sorted, largest first; tags[0] is +infinity (the sentinel, and the smallest tag of an empty list)
    private double[] tags = new double[16];
    private int[] slots = new int[16];
    private int count;
    private final DoubleHeap overflow = new DoubleHeap(); // the tags beyond the SORTED smallest, with their slots

    FinishingTags() {
        tags[0] = Double.POSITIVE_INFINITY;
    }

    /** The smallest tag, or +infinity when empty. */
    double minTag() {
        return tags[count];
    }

    /** The slot of the smallest tag (undefined when empty). */
    int minSlot() {
        return slots[count];
    }

    void add(double tag, int slot) {
        if (count == SORTED || !overflow.isEmpty() && tag > overflow.minKey()) {
            addBeyond(tag, slot);
            return;
        }
        if (count + 1 == tags.length) {
            grow(2 * tags.length);
        }
        int i = count;
        while (tags[i] < tag) { // ends at the sentinel
            tags[i + 1] = tags[i];
            slots[i + 1] = slots[i];
            i--;
        }
        tags[i + 1] = tag;
        slots[i + 1] = slot;
        count++;
    }

    /** Removes the smallest tag. */
    void removeMin() {
        count--;
        if (count == 0 && !overflow.isEmpty()) {
            refill();
        }
    }

    /** Out of add, which the servers' loops then take in: see {@link SharedServer}'s note on inlining. */
    private void grow(int length) {
        tags = Arrays.copyOf(tags, length);
        slots = Arrays.copyOf(slots, length);
    }

    /** A tag that does not belong among the sorted ones, or a full sorted array: the largest sorted or the tag waits. */
    private void addBeyond(double tag, int slot) {
        if (count < SORTED || tag >= tags[1]) {
            overflow.push(tag, slot);
            return;
        }
        overflow.push(tags[1], slots[1]); // the largest sorted tag makes room
        System.arraycopy(tags, 2, tags, 1, count - 1);
        System.arraycopy(slots, 2, slots, 1, count - 1);
        count--;
        add(tag, slot);
    }

    /** Moves the smallest half of the sorted array's worth from the heap, largest first. */
    private void refill() {
        int n = Math.min(SORTED / 2, overflow.size());
        if (tags.length < n + 1) {
            grow(n + 1);
        }
        for (int i = n; i >= 1; i--) {
            tags[i] = overflow.minKey();
            slots[i] = (int) overflow.minValue();
            overflow.pop();
        }
        count = n;
    }
}
