package io.queuelab.core.inprocess;

import io.queuelab.core.backend.AsyncBackend;
import io.queuelab.core.backend.AsyncSession;
import io.queuelab.core.backend.OperationMix;
import io.queuelab.core.backend.SyncBackend;
import io.queuelab.core.backend.SyncSession;

import java.util.Map;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * An emulated M/M/1 server ({@link EmulatedFifoServer}) as a backend, so the ground truth of a run
 * is queueing theory: driven by Poisson arrivals at lambda below mu, response times are
 * Exp(mu - lambda). The synchronous variant needs enough workers that requests queue in the
 * emulated server rather than in the client (the queue is FIFO in both, so the result is the same).
 *
 * <p>A departure happens at its instant, not a timed wake-up later: the thread that completes it
 * parks until {@value #SPIN_NANOS} ns before the instant and spins the rest. A timed wake-up on a
 * VM is tens of microseconds late at the median and ~150 us at p99 (docs/benchmarks.md, "the
 * wake-up floor"), which would add a few percent to a 2 ms mean response: the emulated server's own
 * error, not the instrument's. The spin costs SPIN_NANOS of CPU per request.
 */
public final class MM1Backend {
    private static final OperationMix MIX = OperationMix.single("mm1");
    /** How long before a departure its thread stops parking and spins. */
    static final long SPIN_NANOS = 300_000;

    private MM1Backend() {
    }

    public static SyncBackend sync(double mu, long seed) {
        EmulatedFifoServer server = new EmulatedFifoServer(mu, seed);
        return new SyncBackend() {
            @Override
            public SyncSession openSession(int worker, long sessionSeed) {
                return operation -> {
                    long departure = server.arrive(System.nanoTime());
                    long left;
                    while ((left = departure - System.nanoTime()) > 0) {
                        if (left > SPIN_NANOS) {
                            LockSupport.parkNanos(left - SPIN_NANOS);
                        } else {
                            Thread.onSpinWait();
                        }
                        if (Thread.interrupted()) {
                            throw new InterruptedException("stopped");
                        }
                    }
                };
            }

            @Override
            public OperationMix operations() {
                return MIX;
            }

            @Override
            public Map<String, Object> describe() {
                return Map.of("name", "mm1", "mu", mu);
            }

            @Override
            public void close() {
            }
        };
    }

    public static AsyncBackend async(double mu, long seed) {
        EmulatedFifoServer server = new EmulatedFifoServer(mu, seed);
        DelayQueue<Departure> departures = new DelayQueue<>();
        Thread completer = new Thread(() -> {
            try {
                while (true) {
                    Departure next = departures.take(); // released SPIN_NANOS early (getDelay), in departure order
                    while (next.at - System.nanoTime() > 0) {
                        Thread.onSpinWait();
                    }
                    next.completion.succeeded();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "mm1-completer");
        completer.setDaemon(true);
        completer.start();
        return new AsyncBackend() {
            @Override
            public AsyncSession openSession(long sessionSeed) {
                return (operation, completion) ->
                        departures.add(new Departure(server.arrive(System.nanoTime()), completion));
            }

            @Override
            public OperationMix operations() {
                return MIX;
            }

            @Override
            public Map<String, Object> describe() {
                return Map.of("name", "mm1-async", "mu", mu);
            }

            @Override
            public void close() {
                completer.interrupt();
            }
        };
    }

    private record Departure(long at, AsyncSession.Completion completion) implements Delayed {
        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(at - SPIN_NANOS - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed o) {
            return Long.compare(at, ((Departure) o).at);
        }
    }
}
