package io.queuelab.core.clock;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.BitSet;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The start of a distributed run's schedules, chosen once the nodes are ready rather than guessed
 * ahead: each node, its connections open and everything before its first arrival done, tells the
 * {@link ClockReferenceServer} it is ready and waits; the reference names one start instant of its
 * clock to all of them when every one of the run's {@code nodes} is ready, or {@code wait} after the
 * first one was, whichever comes first. The instant is that moment + {@link #MARGIN_NANOS}. A node
 * that reports after the release is given the same instant, which may then be past (the node says
 * it started too late, as with a fixed {@code --start-at}): one slow or dead host delays the others
 * by {@code wait} at most and never holds them forever.
 *
 * <p>Why: a fixed start ({@code --start-at}, {@code scripts/distributed-run --start-in} before)
 * has to cover the slowest host's ssh login, JVM start and connection set-up, which on a loaded
 * machine took over 30 s, and otherwise waits for nothing. The barrier starts as soon as the last
 * node is ready.
 *
 * <p>Protocol, on the reference's connection ({@link ClockReferenceServer}): the node sends byte
 * {@link #REQUEST}, its index and the run's node count (two big-endian ints); the reference answers,
 * at the release, a status byte and the start instant (8 bytes, ns since the Unix epoch on the
 * reference's clock). Status {@link #NO_BARRIER}: this reference was started without a barrier;
 * {@link #OTHER_COUNT}: the barrier waits for another number of nodes (the long is that number).
 * Thread-safe.
 */
public final class StartBarrier {
    /** The byte that asks for the start instant (a clock exchange sends any other). */
    static final byte REQUEST = 2;
    static final byte RELEASED = 0;
    static final byte NO_BARRIER = 1;
    static final byte OTHER_COUNT = 2;
    /**
     * From the release to the start: the answer's way to every node and each node's last steps
     * before its first arrival (the manifest written, the schedule's threads started), ms each on a
     * loaded machine; a node that took longer says it started too late.
     */
    public static final long MARGIN_NANOS = 3_000_000_000L;
    /** How often a waiting node looks whether its run was asked to stop. */
    private static final int POLL_MILLIS = 200;

    private final int nodes;
    private final long waitNanos;
    private final LongSupplier epochNanos;
    private final BitSet ready = new BitSet();
    private long firstReady = Long.MIN_VALUE;
    private long start = Long.MIN_VALUE;
    private Runnable onRelease = () -> { };

    /**
     * @param nodes      the run's node count
     * @param waitNanos  how long after the first ready node the others are waited for
     * @param epochNanos the reference's clock
     */
    public StartBarrier(int nodes, long waitNanos, LongSupplier epochNanos) {
        if (nodes < 1) {
            throw new IllegalArgumentException("a start barrier needs at least 1 node, got " + nodes);
        }
        if (waitNanos < 0) {
            throw new IllegalArgumentException("the wait for the other nodes must be zero or positive");
        }
        this.nodes = nodes;
        this.waitNanos = waitNanos;
        this.epochNanos = epochNanos;
    }

    /** Called once, at the release (the clock server prints the start instant with it). */
    public synchronized void onRelease(Runnable action) {
        onRelease = action;
    }

    public int nodes() {
        return nodes;
    }

    /** The start instant (epoch ns of the reference), or {@link Long#MIN_VALUE} before the release. */
    public synchronized long start() {
        return start;
    }

    /** The indexes ready so far. */
    public synchronized BitSet ready() {
        return (BitSet) ready.clone();
    }

    /**
     * Node {@code index} is ready: blocks until the release and returns the start instant.
     *
     * @throws InterruptedException when the waiting thread is interrupted (the connection closed)
     */
    synchronized long arrive(int index) throws InterruptedException {
        if (start == Long.MIN_VALUE) {
            long now = epochNanos.getAsLong();
            if (firstReady == Long.MIN_VALUE) {
                firstReady = now;
            }
            ready.set(index);
            if (ready.cardinality() >= nodes) {
                release(now);
            }
            while (start == Long.MIN_VALUE) {
                long left = firstReady + waitNanos - epochNanos.getAsLong();
                if (left <= 0) {
                    release(epochNanos.getAsLong());
                    break;
                }
                wait(Math.max(1, left / 1_000_000));
            }
        } else {
            ready.set(index);
        }
        return start;
    }

    private void release(long now) {
        start = now + MARGIN_NANOS;
        notifyAll();
        onRelease.run();
    }

    /**
     * The reference's side of one request, after its {@link #REQUEST} byte: the node's index and
     * count read, the answer written; {@code barrier} null for a reference that names no start.
     */
    static void serve(StartBarrier barrier, DataInputStream in, DataOutputStream out) throws IOException, InterruptedException {
        int index = in.readInt();
        int count = in.readInt();
        if (barrier == null) {
            answer(out, NO_BARRIER, Long.MIN_VALUE);
        } else if (count != barrier.nodes) {
            answer(out, OTHER_COUNT, barrier.nodes);
        } else if (index < 0 || index >= count) {
            throw new IOException("node index " + index + " of " + count);
        } else {
            answer(out, RELEASED, barrier.arrive(index));
        }
    }

    private static void answer(DataOutputStream out, byte status, long value) throws IOException {
        out.writeByte(status);
        out.writeLong(value);
        out.flush();
    }

    /**
     * A node's side: tells the reference at {@code reference} that node {@code index} of {@code count}
     * is ready and waits for the start instant (epoch ns of the reference's clock). Gives up, returning
     * {@link Long#MIN_VALUE}, when {@code stopped} turns true meanwhile (the run is being stopped).
     *
     * @throws IOException with a one-line message when the reference cannot be reached or holds no
     *                     barrier for this run
     */
    public static long await(InetSocketAddress reference, int index, int count, BooleanSupplier stopped) throws IOException {
        String where = reference.getHostString() + ":" + reference.getPort();
        byte status;
        long value;
        try (Socket socket = new Socket()) {
            socket.connect(reference, 5_000);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(POLL_MILLIS);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            out.writeByte(REQUEST);
            out.writeInt(index);
            out.writeInt(count);
            out.flush();
            while (true) {
                try {
                    status = in.readByte();
                    break;
                } catch (SocketTimeoutException waiting) {
                    if (stopped.getAsBoolean()) {
                        return Long.MIN_VALUE;
                    }
                }
            }
            socket.setSoTimeout(5_000);
            value = in.readLong();
        } catch (IOException e) {
            throw new IOException("cannot wait for the start at the clock reference " + where + ": " + e.getMessage(), e);
        }
        return switch (status) {
            case RELEASED -> value;
            case NO_BARRIER -> throw new IOException("the clock reference at " + where + " names no start instant "
                    + "(start it with 'queuelab clock-server --nodes " + count + "')");
            case OTHER_COUNT -> throw new IOException("the clock reference at " + where + " waits for " + value
                    + " nodes, this node is one of " + count);
            default -> throw new IOException("the clock reference at " + where + " answered status " + status);
        };
    }
}
