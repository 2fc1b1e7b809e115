package io.queuelab.core.clock;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StartBarrierTest {
    private static final InetSocketAddress ANY = new InetSocketAddress("127.0.0.1", 0);

    /** The reference's clock, 1 h ahead of this machine's: the start is an instant of the reference. */
    private static long referenceClock() {
        return ClockProbe.wallClockNanos() + 3_600_000_000_000L;
    }

    @Test
    void everyNodeGetsOneInstantOnTheReferencesClockAsSoonAsTheLastIsReady() throws Exception {
        // a wait far longer than the test: the release can only come from the third node's arrival
        StartBarrier barrier = new StartBarrier(3, TimeUnit.HOURS.toNanos(1), StartBarrierTest::referenceClock);
        AtomicLong released = new AtomicLong();
        barrier.onRelease(() -> released.set(referenceClock()));
        ExecutorService nodes = Executors.newFixedThreadPool(3);
        try (ClockReferenceServer server = ClockReferenceServer.start(ANY, StartBarrierTest::referenceClock, barrier)) {
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", server.port());
            List<CompletableFuture<Long>> starts = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                int index = i;
                starts.add(CompletableFuture.supplyAsync(() -> await(at, index, 3), nodes));
            }
            Thread.sleep(300);
            assertFalse(starts.get(0).isDone() || starts.get(1).isDone(), "nodes 0 and 1 wait for node 2");
            assertEquals(Long.MIN_VALUE, barrier.start());
            starts.add(CompletableFuture.supplyAsync(() -> await(at, 2, 3), nodes));
            long start = starts.get(2).get(30, TimeUnit.SECONDS);
            for (CompletableFuture<Long> s : starts) {
                assertEquals(start, s.get(30, TimeUnit.SECONDS), "one instant for all");
            }
            assertEquals(start, barrier.start());
            // the reference's clock at the release + the margin, not this machine's
            assertTrue(Math.abs(start - StartBarrier.MARGIN_NANOS - released.get()) < 100_000_000L,
                    (start - released.get()) / 1e6 + " ms from the release");
            assertEquals(3, barrier.ready().cardinality());
        } finally {
            nodes.shutdownNow();
        }
    }

    @Test
    void aNodeNotReadyWithinTheWaitAfterTheFirstIsNotWaitedForAndGetsTheSameInstantWhenItComes() throws Exception {
        StartBarrier barrier = new StartBarrier(2, TimeUnit.MILLISECONDS.toNanos(500), ClockProbe::wallClockNanos);
        long before = ClockProbe.wallClockNanos();
        long start = barrier.arrive(1);
        long waited = ClockProbe.wallClockNanos() - before;
        assertTrue(waited >= 490_000_000L, "waited " + waited / 1e6 + " ms of 500");
        assertEquals(1, barrier.ready().cardinality());
        assertTrue(barrier.ready().get(1));
        assertTrue(start - before >= 500_000_000L + StartBarrier.MARGIN_NANOS - 10_000_000L, "the wait + the margin");
        // the late node is told the same start (which, once the margin has passed, it finds in the past)
        assertEquals(start, barrier.arrive(0));
        assertEquals(2, barrier.ready().cardinality());
    }

    @Test
    void aReferenceWithoutABarrierOrForAnotherNodeCountIsRefusedWithTheReason() throws Exception {
        try (ClockReferenceServer plain = ClockReferenceServer.start(ANY)) {
            IOException e = assertThrows(IOException.class,
                    () -> StartBarrier.await(new InetSocketAddress("127.0.0.1", plain.port()), 0, 2, () -> false));
            assertEquals("the clock reference at 127.0.0.1:" + plain.port() + " names no start instant "
                    + "(start it with 'queuelab clock-server --nodes 2')", e.getMessage());
            // and it still serves its clock on the same protocol
            ClockOffset offset = ClockProbe.measure(new InetSocketAddress("127.0.0.1", plain.port()), ClockProbe::wallClockNanos);
            assertTrue(Math.abs(offset.offsetNanos()) < 50_000_000L, offset.toString());
        }
        StartBarrier forThree = new StartBarrier(3, TimeUnit.HOURS.toNanos(1), ClockProbe::wallClockNanos);
        try (ClockReferenceServer server = ClockReferenceServer.start(ANY, ClockProbe::wallClockNanos, forThree)) {
            IOException e = assertThrows(IOException.class,
                    () -> StartBarrier.await(new InetSocketAddress("127.0.0.1", server.port()), 0, 2, () -> false));
            assertEquals("the clock reference at 127.0.0.1:" + server.port() + " waits for 3 nodes, this node is one of 2",
                    e.getMessage());
            assertEquals(0, forThree.ready().cardinality(), "a node of another run counts for nothing");
        }
    }

    @Test
    void aNodeAskedToStopWhileItWaitsGivesUpTheWait() throws Exception {
        StartBarrier barrier = new StartBarrier(2, TimeUnit.HOURS.toNanos(1), ClockProbe::wallClockNanos);
        AtomicBoolean stopped = new AtomicBoolean();
        try (ClockReferenceServer server = ClockReferenceServer.start(ANY, ClockProbe::wallClockNanos, barrier)) {
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", server.port());
            CompletableFuture<Long> start = CompletableFuture.supplyAsync(() -> {
                try {
                    return StartBarrier.await(at, 0, 2, stopped::get);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            Thread.sleep(300);
            assertFalse(start.isDone());
            stopped.set(true);
            assertEquals(Long.MIN_VALUE, start.get(30, TimeUnit.SECONDS));
        }
    }

    private static long await(InetSocketAddress at, int index, int count) {
        try {
            return StartBarrier.await(at, index, count, () -> false);
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }
}
