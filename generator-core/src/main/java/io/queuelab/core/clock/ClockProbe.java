package io.queuelab.core.clock;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * Measures a local clock against a {@link ClockReferenceServer} (Cristian's algorithm): each exchange
 * reads the local clock before and after asking the reference, and the exchange with the shortest
 * round trip gives the offset, reference minus the local midpoint, with half that round trip as its
 * error bound.
 */
public final class ClockProbe {
    /** Exchanges per measurement: enough that one of them meets an idle network and scheduler. */
    public static final int EXCHANGES = 64;
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;

    private ClockProbe() {
    }

    /**
     * Measures {@code localEpochNanos} against the reference at {@code reference}.
     *
     * @throws IOException with a one-line message when the reference cannot be reached
     */
    public static ClockOffset measure(InetSocketAddress reference, LongSupplier localEpochNanos) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(reference, CONNECT_TIMEOUT_MILLIS);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(CONNECT_TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            long bestRoundTrip = Long.MAX_VALUE;
            long bestOffset = 0;
            long bestLocal = 0;
            for (int i = 0; i < EXCHANGES; i++) {
                long before = localEpochNanos.getAsLong();
                out.write(1);
                out.flush();
                long remote = in.readLong();
                long after = localEpochNanos.getAsLong();
                long roundTrip = after - before;
                if (roundTrip < bestRoundTrip) {
                    bestRoundTrip = roundTrip;
                    bestLocal = before + roundTrip / 2;
                    bestOffset = remote - bestLocal;
                }
            }
            return new ClockOffset(bestOffset, (bestRoundTrip + 1) / 2, bestLocal, EXCHANGES);
        } catch (IOException e) {
            throw new IOException("cannot measure the clock against the reference at " + reference.getHostString() + ":"
                    + reference.getPort() + ": " + e.getMessage(), e);
        }
    }

    /**
     * One instant read on both of this machine's clocks: wall (epoch ns) and monotonic
     * ({@link System#nanoTime()}), the pair with the tightest of a few monotonic brackets around a
     * wall-clock read, so that a time line of anchor + monotonic agrees with the wall clock (with
     * which telemetry samples are stamped) to within microseconds even when the thread is
     * preempted between two reads, which on a loaded machine costs milliseconds.
     */
    public record Anchor(long epochNanos, long monotonicNanos) {
        private static final int TRIES = 16;

        public static Anchor now() {
            long bestWidth = Long.MAX_VALUE;
            Anchor best = null;
            for (int i = 0; i < TRIES; i++) {
                long before = System.nanoTime();
                long wall = wallClockNanos();
                long width = System.nanoTime() - before;
                if (width < bestWidth) {
                    bestWidth = width;
                    best = new Anchor(wall, before + width / 2);
                }
            }
            return best;
        }
    }

    /** This machine's wall clock in ns since the Unix epoch (microsecond resolution on Linux). */
    public static long wallClockNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
