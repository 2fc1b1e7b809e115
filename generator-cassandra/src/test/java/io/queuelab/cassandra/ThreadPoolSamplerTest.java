package io.queuelab.cassandra;

import io.queuelab.core.testing.TimingSensitive;

import io.queuelab.cassandra.workload.Scenario;
import io.queuelab.cassandra.workload.WisconsinWorkload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The node's thread pools, sampled while writes run against it, land in the CSV on the generator's clock. */
@TimingSensitive
class ThreadPoolSamplerTest {
    @TempDir
    Path tmp;

    @Test
    void everySampleHoldsTheNodesPoolsAndTheRequestsShow() throws Exception {
        CqlSettings settings = TestCassandra.settings("pools");
        Path file = tmp.resolve(ThreadPoolSampler.FILE_NAME);
        long before = System.currentTimeMillis() * 1_000_000L;
        ThreadPoolSampler sampler = ThreadPoolSampler.start(settings, file, Duration.ofMillis(200));
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (sampler.samples() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(10); // the first sample comes before the writes
        }
        if (sampler.samples() == 0) {
            sampler.close();
            throw new AssertionError("no sample within 30 s (missed: " + sampler.missedSamples() + ")");
        }
        try (sampler; CqlBackend backend = CqlBackend.open(settings, new WisconsinWorkload(500, Scenario.WRITE, 0.5))) {
            RecordingDriver driver = RecordingDriver.run(backend, 400, 8, 5);
            assertEquals(400, driver.completed());
            Thread.sleep(600);
        }
        // a sample whose query times out (2 s) on a loaded machine is counted as missed, not written in part
        assertTrue(sampler.missedSamples() <= sampler.samples() / 4,
                () -> "missed " + sampler.missedSamples() + " of " + (sampler.samples() + sampler.missedSamples()));
        List<String> lines = Files.readAllLines(file);
        assertEquals("epoch_ns,node,pool,active,pending,completed,blocked", lines.get(0));
        InetSocketAddress node = TestCassandra.cluster().contactPoints().get(0);
        String address = node.getAddress().getHostAddress() + ":" + node.getPort();
        Map<Long, Map<String, String[]>> samples = new TreeMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            assertEquals(7, f.length, line);
            assertEquals(address, f[1], line);
            assertTrue(Long.parseLong(f[0]) >= before, line);
            samples.computeIfAbsent(Long.parseLong(f[0]), k -> new TreeMap<>()).put(f[2], f);
        }
        assertTrue(samples.size() >= 4, "one sample per 200 ms: " + samples.size());
        for (Map<String, String[]> pools : samples.values()) {
            for (String pool : List.of("ReadStage", "MemtableFlushWriter", "CompactionExecutor", "Native-Transport-Requests")) {
                assertTrue(pools.containsKey(pool), pool + " in " + pools.keySet());
            }
        }
        // every CQL request is a task of the native transport's pool (a write may run on that thread
        // rather than queue on MutationStage, so MutationStage does not count them all)
        TreeMap<Long, Map<String, String[]>> byTime = (TreeMap<Long, Map<String, String[]>>) samples;
        long firstRequests = Long.parseLong(byTime.firstEntry().getValue().get("Native-Transport-Requests")[5]);
        long lastRequests = Long.parseLong(byTime.lastEntry().getValue().get("Native-Transport-Requests")[5]);
        assertTrue(lastRequests - firstRequests >= 400, "the run's writes: " + firstRequests + " -> " + lastRequests);
    }

    @Test
    void anExistingFileOrAZeroIntervalIsRefused() throws Exception {
        CqlSettings settings = TestCassandra.settings("pools");
        Path file = Files.writeString(tmp.resolve("exists.csv"), "");
        assertThrows(java.nio.file.FileAlreadyExistsException.class, () -> ThreadPoolSampler.start(settings, file, Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> ThreadPoolSampler.start(settings, tmp.resolve("x.csv"), Duration.ZERO));
    }
}
