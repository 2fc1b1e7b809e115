package io.queuelab.core.iot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SensorStreamTest {
    @Test
    void aBatchHoldsOneSecondOfTwelveBitValuesInTimeOrder() {
        SensorStream.Batch b = new SensorStream(1_700_000_000L, 1000, 7).batch(1_700_000_123L);
        assertEquals(1000, b.points());
        assertEquals(1_700_000_123L, b.second());
        for (int p = 0; p < b.points(); p++) {
            assertTrue(b.nanos()[p] >= 0 && b.nanos()[p] < 1_000_000_000);
            assertTrue(p == 0 || b.nanos()[p] > b.nanos()[p - 1], "increasing nanoseconds");
            for (int c = 0; c < SensorStream.CHANNELS; c++) {
                assertTrue(b.value(p, c) >= 0 && b.value(p, c) <= 4095, "12 bits");
            }
        }
        // the divider's channels: the largest amplitude swings over most of the range, the smallest over a quarter of it
        int[] range = new int[SensorStream.CHANNELS];
        for (int c = 0; c < SensorStream.CHANNELS; c++) {
            int min = 4095, max = 0;
            for (int p = 0; p < b.points(); p++) {
                min = Math.min(min, b.value(p, c));
                max = Math.max(max, b.value(p, c));
            }
            range[c] = max - min;
        }
        assertTrue(range[0] > 900 && range[0] < 1200 && range[3] > 3900, java.util.Arrays.toString(range));
        assertTrue(range[4] > 3900, "the sawtooth " + range[4]);
    }

    @Test
    void theSameSeedAndSecondGiveTheSameBatch() {
        SensorStream.Batch a = new SensorStream(0, 500, 3).batch(42);
        SensorStream.Batch b = new SensorStream(99, 500, 3).batch(42);
        assertArrayEquals(a.values(), b.values());
        assertArrayEquals(a.nanos(), b.nanos());
        assertFalse(java.util.Arrays.equals(a.values(), new SensorStream(0, 500, 4).batch(42).values()));
    }

    @Test
    void threadsGetDistinctConsecutiveSeconds() throws Exception {
        SensorStream stream = new SensorStream(1000, 10, 1);
        Set<Long> seconds = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        for (int i = 0; i < 400; i++) {
            pool.execute(() -> seconds.add(stream.nextBatch().second()));
        }
        pool.shutdown();
        assertTrue(pool.awaitTermination(1, TimeUnit.MINUTES));
        assertEquals(400, seconds.size());
        assertEquals(1000, seconds.stream().mapToLong(Long::longValue).min().orElseThrow());
        assertEquals(1399, seconds.stream().mapToLong(Long::longValue).max().orElseThrow());
    }

    @Test
    void theJsonDocumentIsThePapersListing() throws Exception {
        SensorStream.Batch b = new SensorStream(0, 3, 1).batch(5);
        JsonNode doc = new ObjectMapper().readTree(b.json());
        assertEquals(3, doc.path("measurements").size());
        JsonNode second = doc.path("measurements").get(1);
        assertEquals(b.nanos()[1], second.path("ns").asInt());
        assertEquals(5, second.path("m").size());
        assertEquals(b.value(1, 4), second.path("m").get(4).asInt());
    }

    @Test
    void anAbsurdRateIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new SensorStream(0, 0, 1));
    }
}
