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

    /** This machine's wall clock in ns since the Unix epoch (microsecond resolution on Linux). */
    public static long wallClockNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
