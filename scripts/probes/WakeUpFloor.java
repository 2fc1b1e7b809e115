import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The floor under queuelab's client hand-off delay on this machine: how late a parked Java thread
 * wakes for an instant (LockSupport.parkNanos to an absolute instant, exponential gaps at RATE/s, as
 * a worker waits for its arrival), with the kernel's default 50 us timer slack and with 1 ns (what
 * queuelab's threads set for themselves). Also how long an unpark takes to wake a parked thread (the
 * hand-off that queuelab no longer uses). Run by scripts/bench-wakeup, ideally while the server
 * serves a load, as during a measurement.
 *   java scripts/probes/WakeUpFloor.java [RATE] [SECONDS]
 */
public class WakeUpFloor {
    static String pct(long[] v) {
        long[] c = v.clone();
        Arrays.sort(c);
        int n = c.length;
        return String.format("p50 %5.1f us  p90 %5.1f us  p99 %6.1f us  p99.9 %7.1f us  max %7.1f us",
                c[n / 2] / 1e3, c[(int) (n * 0.9)] / 1e3, c[(int) (n * 0.99)] / 1e3, c[(int) (n * 0.999)] / 1e3, c[n - 1] / 1e3);
    }

    static boolean slack(long ns) {
        try {
            String tid = Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
            Path p = Path.of("/proc", tid, "timerslack_ns");
            Files.writeString(p, Long.toString(ns));
            return Long.parseLong(Files.readString(p).trim()) == ns;
        } catch (Exception e) {
            return false;
        }
    }

    public static void main(String[] args) throws Exception {
        double rate = args.length > 0 ? Double.parseDouble(args[0]) : 2000;
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 10;
        int n = (int) (rate * seconds);
        for (long s : new long[] {50_000, 1}) {
            long[] late = new long[n];
            boolean[] set = new boolean[1];
            Thread t = new Thread(() -> {
                set[0] = slack(s);
                SplittableRandom r = new SplittableRandom(1);
                long next = System.nanoTime() + 100_000_000;
                for (int i = 0; i < n; i++) {
                    next += (long) (-Math.log(1 - r.nextDouble()) / rate * 1e9);
                    long left;
                    while ((left = next - System.nanoTime()) > 0) {
                        LockSupport.parkNanos(left);
                    }
                    late[i] = System.nanoTime() - next;
                }
            });
            t.start();
            t.join();
            System.out.printf("timed park, slack %6d ns%s: %s%n", s, set[0] ? "" : " (not set)", pct(late));
        }
        long[] handOff = new long[n];
        AtomicLong sentAt = new AtomicLong();
        AtomicInteger seq = new AtomicInteger();
        Thread w = new Thread(() -> {
            slack(1);
            for (int i = 0; i < n; i++) {
                while (seq.get() <= i) {
                    LockSupport.park();
                }
                handOff[i] = System.nanoTime() - sentAt.get();
            }
        });
        w.start();
        Thread.sleep(50);
        SplittableRandom r = new SplittableRandom(2);
        for (int i = 0; i < n; i++) {
            LockSupport.parkNanos((long) (-Math.log(1 - r.nextDouble()) / rate * 1e9));
            sentAt.set(System.nanoTime());
            seq.set(i + 1);
            LockSupport.unpark(w);
        }
        w.join();
        System.out.printf("unpark of a parked thread       : %s%n", pct(handOff));
    }
}
