package io.queuelab.core.clock;

import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.function.LongSupplier;

/**
 * A clock that generators on several machines compare themselves with ({@link ClockProbe}), so that
 * their request logs can be put on one time line ({@code queuelab merge}). Protocol, over TCP: the
 * client sends one byte, the server answers its clock as 8 bytes (ns since the Unix epoch, big
 * endian), as many times as the client asks. One thread per connection, each alive for one
 * measurement (64 exchanges, a few ms). With a {@link StartBarrier}, the byte
 * {@link StartBarrier#REQUEST} instead asks for the start instant of the run's schedules (a
 * connection then lives until the release).
 */
public final class ClockReferenceServer implements Closeable {
    /**
     * Connections waiting to be accepted: every node of a run probes at about the same instant, and
     * with Java's default of 50 the 51st connection waited for a SYN retransmission, 1 s
     * (scripts/bench-merge, docs/distributed.md "Scale"). The kernel caps it at net.core.somaxconn.
     */
    static final int BACKLOG = 1024;

    private final ServerSocket socket;
    private final LongSupplier epochNanos;
    private final StartBarrier barrier;
    private final Thread acceptor;

    private ClockReferenceServer(ServerSocket socket, LongSupplier epochNanos, StartBarrier barrier) {
        this.socket = socket;
        this.epochNanos = epochNanos;
        this.barrier = barrier;
        this.acceptor = new Thread(this::accept, "clock-reference");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Serves this machine's wall clock on {@code address} (port 0 picks a free port). */
    public static ClockReferenceServer start(InetSocketAddress address) throws IOException {
        return start(address, ClockProbe::wallClockNanos);
    }

    /** Serves the given clock (tests give a clock whose offset they know). */
    public static ClockReferenceServer start(InetSocketAddress address, LongSupplier epochNanos) throws IOException {
        return start(address, epochNanos, null);
    }

    /**
     * Serves the given clock and, unless {@code barrier} is null, the start instant it names (its
     * clock must be {@code epochNanos}).
     */
    public static ClockReferenceServer start(InetSocketAddress address, LongSupplier epochNanos, StartBarrier barrier)
            throws IOException {
        ServerSocket socket = new ServerSocket();
        try {
            socket.setReuseAddress(true);
            socket.bind(address, BACKLOG);
        } catch (IOException e) {
            socket.close();
            throw new IOException("cannot listen on " + address.getHostString() + ":" + address.getPort() + ": " + e.getMessage(), e);
        }
        return new ClockReferenceServer(socket, epochNanos, barrier);
    }

    public int port() {
        return socket.getLocalPort();
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket client = socket.accept();
                Thread t = new Thread(() -> serve(client), "clock-reference-" + client.getRemoteSocketAddress());
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                // closed, or a client that vanished during accept: keep serving until closed
            }
        }
    }

    private void serve(Socket client) {
        try (client; DataInputStream in = new DataInputStream(client.getInputStream());
             DataOutputStream out = new DataOutputStream(client.getOutputStream())) {
            client.setTcpNoDelay(true);
            while (true) {
                if (in.readByte() != StartBarrier.REQUEST) {
                    out.writeLong(epochNanos.getAsLong());
                    out.flush();
                } else {
                    StartBarrier.serve(barrier, in, out);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (EOFException | SocketException e) {
            // the probe is done
        } catch (IOException e) {
            // a broken connection concerns that probe only
        }
    }

    /** Serves until the process ends: {@code queuelab clock-server}. */
    public void awaitTermination() throws InterruptedException {
        acceptor.join();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
