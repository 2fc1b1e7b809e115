package io.queuelab.sim;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The sorted tags give the same smallest tag as a heap at every step, also past the sorted array's length. */
class FinishingTagsTest {

    @Test
    void theSmallestTagComesFirstAtEverySizeAndThroughTheOverflow() {
        SplittableRandom random = new SplittableRandom(44);
        FinishingTags tags = new FinishingTags();
        DoubleHeap reference = new DoubleHeap();
        assertEquals(Double.POSITIVE_INFINITY, tags.minTag());
        double v = 0;
        // a population that drifts up to several times the sorted array's length and back to empty, twice
        for (int phase = 0; phase < 4; phase++) {
            boolean growing = phase % 2 == 0;
            for (int step = 0; step < 20_000; step++) {
                boolean add = reference.isEmpty() || random.nextDouble() < (growing ? 0.6 : 0.4);
                if (add) {
                    // ties on purpose: tags on a coarse grid
                    double tag = v + Math.floor(random.nextDouble() * 50) / 10;
                    int slot = random.nextInt(1000);
                    tags.add(tag, slot);
                    reference.push(tag, slot);
                } else {
                    v = reference.minKey();
                    assertEquals(reference.minKey(), tags.minTag(), "step " + step);
                    tags.removeMin();
                    reference.pop();
                }
                assertEquals(reference.minKey(), tags.minTag());
            }
            while (!growing && !reference.isEmpty()) {
                assertEquals(reference.minKey(), tags.minTag());
                tags.removeMin();
                reference.pop();
            }
        }
        assertEquals(Double.POSITIVE_INFINITY, tags.minTag());
    }

    @Test
    void eachTagKeepsItsSlot() {
        FinishingTags tags = new FinishingTags();
        SplittableRandom random = new SplittableRandom(45);
        int n = 3 * FinishingTags.SORTED;
        double[] tagOf = new double[n];
        for (int slot = 0; slot < n; slot++) {
            tagOf[slot] = random.nextDouble(); // distinct with certainty in practice
            tags.add(tagOf[slot], slot);
        }
        double last = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            double tag = tags.minTag();
            assertEquals(tagOf[tags.minSlot()], tag);
            assertEquals(true, tag >= last);
            last = tag;
            tags.removeMin();
        }
    }
}
